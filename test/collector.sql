-- test/collector.sql -- pgTAP: the catalog contract of the collector (views,
-- their columns and types, functions, privileges, comments).  pg_prove runs
-- this on a server WITHOUT the library preloaded, so only catalog facts are
-- tested here; the behaviour is tested by sql/collector.sql, collector_limits.sql and
-- collector_detail.sql (preloaded) and sql/collector_not_preloaded.sql.
BEGIN;
SELECT plan(88);

SELECT has_view('wait_profile');
SELECT has_view('extend_lock_stats');
SELECT has_view('index_split_stats');

SELECT columns_are('wait_profile',
	ARRAY['database', 'backend_type', 'wait_event_type', 'wait_event', 'samples', 'est_time', 'datid']);
SELECT col_type_is('wait_profile', 'database', 'name');
SELECT col_type_is('wait_profile', 'backend_type', 'text');
SELECT col_type_is('wait_profile', 'wait_event_type', 'text');
SELECT col_type_is('wait_profile', 'wait_event', 'text');
SELECT col_type_is('wait_profile', 'samples', 'bigint');
SELECT col_type_is('wait_profile', 'est_time', 'interval');

SELECT columns_are('extend_lock_stats',
	ARRAY['relation', 'waits', 'samples', 'est_wait_time', 'max_waiters', 'last_wait',
		  'database', 'datid', 'relid']);
SELECT col_type_is('extend_lock_stats', 'relation', 'regclass');
SELECT col_type_is('extend_lock_stats', 'waits', 'bigint');
SELECT col_type_is('extend_lock_stats', 'samples', 'bigint');
SELECT col_type_is('extend_lock_stats', 'est_wait_time', 'interval');
SELECT col_type_is('extend_lock_stats', 'max_waiters', 'integer');
SELECT col_type_is('extend_lock_stats', 'last_wait', 'timestamp with time zone');

SELECT columns_are('index_split_stats',
	ARRAY['index', 'leaf_splits', 'upper_splits', 'root_splits', 'database', 'datid',
		  'tablespace', 'relfilenode']);
SELECT col_type_is('index_split_stats', 'index', 'regclass');
SELECT col_type_is('index_split_stats', 'leaf_splits', 'bigint');
SELECT col_type_is('index_split_stats', 'upper_splits', 'bigint');
SELECT col_type_is('index_split_stats', 'root_splits', 'bigint');
SELECT col_type_is('index_split_stats', 'relfilenode', 'oid');

SELECT has_function('collector_info', ARRAY[]::name[]);
SELECT has_function('ordered_uuid_reset', ARRAY[]::name[]);
SELECT function_returns('ordered_uuid_reset', ARRAY[]::name[], 'void');
SELECT volatility_is('ordered_uuid_reset', ARRAY[]::name[], 'volatile');
SELECT volatility_is('ordered_uuid_wait_profile', ARRAY[]::name[], 'volatile');
SELECT volatility_is('collector_info', ARRAY[]::name[], 'volatile');
-- 1.6.0: whether the statistics go on from the last clean shutdown's, and why
SELECT is((SELECT array_agg(n || ' ' || format_type(t, NULL) ORDER BY o)
			 FROM pg_proc p, unnest(p.proargnames[24:26], p.proallargtypes[24:26]) WITH ORDINALITY AS a(n, t, o)
			WHERE p.oid = 'collector_info()'::regprocedure),
		  ARRAY['stats_restored boolean', 'stats_saved_at timestamp with time zone', 'stats_start_reason text'],
		  'collector_info() ends with stats_restored, stats_saved_at, stats_start_reason');
SELECT isnt_definer('ordered_uuid_reset', ARRAY[]::name[]);
SELECT isnt_definer('ordered_uuid_wait_profile', ARRAY[]::name[]);
SELECT isnt_definer('ordered_uuid_extend_lock_stats', ARRAY[]::name[]);
SELECT isnt_definer('ordered_uuid_index_split_stats', ARRAY[]::name[]);
SELECT isnt_definer('collector_info', ARRAY[]::name[]);

-- Privileges: reset is superuser-only; the views are readable by everyone
-- (rows are filtered in C).
SELECT ok(NOT has_function_privilege('public', 'ordered_uuid_reset()', 'EXECUTE'),
		  'ordered_uuid_reset() is not executable by PUBLIC');
SELECT ok(NOT has_function_privilege('pg_monitor', 'ordered_uuid_reset()', 'EXECUTE'),
		  'ordered_uuid_reset() is not executable by pg_monitor (superuser-only)');
SELECT ok(has_table_privilege('public', 'wait_profile', 'SELECT'), 'wait_profile readable by PUBLIC');
SELECT ok(has_table_privilege('public', 'extend_lock_stats', 'SELECT'), 'extend_lock_stats readable by PUBLIC');
SELECT ok(has_table_privilege('public', 'index_split_stats', 'SELECT'), 'index_split_stats readable by PUBLIC');
SELECT ok(has_function_privilege('public', 'collector_info()', 'EXECUTE'), 'collector_info() executable by PUBLIC');

-- Every function and view is commented.
SELECT ok(obj_description('ordered_uuid_reset()'::regprocedure, 'pg_proc') IS NOT NULL, 'reset commented');
SELECT ok(obj_description('collector_info()'::regprocedure, 'pg_proc') IS NOT NULL, 'collector_info commented');
SELECT ok(obj_description('ordered_uuid_wait_profile()'::regprocedure, 'pg_proc') IS NOT NULL, 'wait profile SRF commented');
SELECT ok(obj_description('ordered_uuid_extend_lock_stats()'::regprocedure, 'pg_proc') IS NOT NULL, 'extend SRF commented');
SELECT ok(obj_description('ordered_uuid_index_split_stats()'::regprocedure, 'pg_proc') IS NOT NULL, 'split SRF commented');
SELECT ok(obj_description('wait_profile'::regclass, 'pg_class') IS NOT NULL, 'wait_profile commented');

-- The detailed wait profile and the history (new objects in 1.1.0).
SELECT has_view('wait_profile_detail');
SELECT has_view('wait_history');
SELECT columns_are('wait_profile_detail',
	ARRAY['database', 'backend_type', 'wait_event_type', 'wait_event', 'samples', 'est_time', 'datid',
		  'queryid', 'pid', 'userid']);
SELECT col_type_is('wait_profile_detail', 'samples', 'bigint');
SELECT col_type_is('wait_profile_detail', 'est_time', 'interval');
SELECT col_type_is('wait_profile_detail', 'queryid', 'bigint');
SELECT col_type_is('wait_profile_detail', 'pid', 'integer');
SELECT col_type_is('wait_profile_detail', 'userid', 'oid');
SELECT columns_are('wait_history',
	ARRAY['sample_time', 'pid', 'database', 'backend_type', 'wait_event_type', 'wait_event', 'queryid',
		  'datid', 'userid']);
SELECT col_type_is('wait_history', 'sample_time', 'timestamp with time zone');
SELECT col_type_is('wait_history', 'pid', 'integer');
SELECT col_type_is('wait_history', 'database', 'name');
SELECT col_type_is('wait_history', 'wait_event', 'text');
SELECT col_type_is('wait_history', 'queryid', 'bigint');
SELECT col_type_is('wait_history', 'userid', 'oid');
-- queryid joins pg_stat_statements.queryid and pg_stat_activity.query_id (bigint)
SELECT is(format_type(atttypid, atttypmod), 'bigint', 'queryid has the type of pg_stat_activity.query_id')
  FROM pg_attribute WHERE attrelid = 'pg_catalog.pg_stat_activity'::regclass AND attname = 'query_id';
SELECT has_function('collector_detail_info', ARRAY[]::name[]);
SELECT function_returns('collector_detail_info', ARRAY[]::name[], 'record');
SELECT volatility_is('ordered_uuid_wait_profile_detail', ARRAY[]::name[], 'volatile');
SELECT volatility_is('ordered_uuid_wait_history', ARRAY[]::name[], 'volatile');
SELECT volatility_is('collector_detail_info', ARRAY[]::name[], 'volatile');
SELECT is_strict('ordered_uuid_wait_profile_detail', ARRAY[]::name[]);
SELECT is_strict('ordered_uuid_wait_history', ARRAY[]::name[]);
SELECT isnt_definer('ordered_uuid_wait_profile_detail', ARRAY[]::name[]);
SELECT isnt_definer('ordered_uuid_wait_history', ARRAY[]::name[]);
SELECT isnt_definer('collector_detail_info', ARRAY[]::name[]);
SELECT ok(has_table_privilege('public', 'wait_profile_detail', 'SELECT'), 'wait_profile_detail readable by PUBLIC');
SELECT ok(has_table_privilege('public', 'wait_history', 'SELECT'), 'wait_history readable by PUBLIC');
SELECT ok(NOT has_table_privilege('public', 'wait_profile_detail', 'INSERT,UPDATE,DELETE,TRUNCATE'),
		  'wait_profile_detail not writable by PUBLIC');
SELECT ok(NOT has_table_privilege('public', 'wait_history', 'INSERT,UPDATE,DELETE,TRUNCATE'),
		  'wait_history not writable by PUBLIC');
SELECT ok(has_function_privilege('public', 'collector_detail_info()', 'EXECUTE'),
		  'collector_detail_info() executable by PUBLIC');
SELECT ok(obj_description('wait_profile_detail'::regclass, 'pg_class') IS NOT NULL, 'wait_profile_detail commented');
SELECT ok(obj_description('wait_history'::regclass, 'pg_class') IS NOT NULL, 'wait_history commented');
SELECT ok(obj_description('ordered_uuid_wait_profile_detail()'::regprocedure, 'pg_proc') IS NOT NULL,
		  'detailed profile SRF commented');
SELECT ok(obj_description('ordered_uuid_wait_history()'::regprocedure, 'pg_proc') IS NOT NULL, 'history SRF commented');
SELECT ok(obj_description('collector_detail_info()'::regprocedure, 'pg_proc') IS NOT NULL,
		  'collector_detail_info commented');
SELECT ok(obj_description('ordered_uuid_reset()'::regprocedure, 'pg_proc') ~ 'wait_history',
		  'reset''s comment names the history it clears');

-- Without preload the views raise 55000.
SELECT throws_ok('SELECT * FROM wait_profile', '55000');
SELECT throws_ok('SELECT * FROM wait_profile_detail', '55000');
SELECT throws_ok('SELECT * FROM wait_history', '55000');
SELECT throws_ok('SELECT * FROM collector_detail_info()', '55000');

SELECT * FROM finish();
ROLLBACK;
