-- test/diag.sql -- pgTAP: the catalog contract of the write-path
-- diagnostics (doc/diag.md): signatures, result columns,
-- volatility and parallel labels, privileges, comments, search_path safety.
BEGIN;
SELECT plan(58);

-- Signatures and return types.
SELECT has_function('index_splits', ARRAY['pg_lsn', 'pg_lsn']);
SELECT has_function('explain_writes', ARRAY['text']);
SELECT has_function('index_shape', ARRAY['regclass']);
SELECT has_function('heap_locality', ARRAY['regclass', 'name']);
SELECT has_view('extend_lock_waits');
SELECT function_returns('index_splits', ARRAY['pg_lsn', 'pg_lsn'], 'setof record');
SELECT function_returns('explain_writes', ARRAY['text'], 'setof record');
SELECT function_returns('index_shape', ARRAY['regclass'], 'record');
SELECT function_returns('heap_locality', ARRAY['regclass', 'name'], 'record');
SELECT is(pg_get_function_arguments('index_splits(pg_lsn, pg_lsn)'::regprocedure),
	'start_lsn pg_lsn, end_lsn pg_lsn DEFAULT NULL::pg_lsn', 'index_splits: end_lsn defaults to NULL');

-- Result columns (names and types), as doc/diag.md names them.
SELECT is(pg_get_function_result('index_splits(pg_lsn, pg_lsn)'::regprocedure),
	'TABLE(index regclass, relfilenode oid, leaf_splits bigint, upper_splits bigint, root_splits bigint)',
	'index_splits columns');
SELECT is(pg_get_function_result('explain_writes(text)'::regprocedure),
	'TABLE(relation regclass, relfilenode oid, kind text, wal_records bigint, wal_bytes bigint, wal_fpi bigint, '
	'leaf_splits bigint, upper_splits bigint, blocks_added bigint, rows bigint, seconds double precision, '
	'shared_blks_hit bigint, shared_blks_read bigint, shared_blks_dirtied bigint, shared_blks_written bigint, '
	'note text)',
	'explain_writes columns');
SELECT is(pg_get_function_result('index_shape(regclass)'::regprocedure),
	'record', 'index_shape returns one record');
SELECT is(pg_get_function_arguments('index_shape(regclass)'::regprocedure),
	'index regclass, OUT leaf_pages bigint, OUT internal_pages bigint, OUT levels integer, '
	'OUT avg_leaf_density double precision, OUT leaf_fragmentation double precision, '
	'OUT deleted_pages bigint, OUT empty_pages bigint', 'index_shape columns');
SELECT is(pg_get_function_arguments('heap_locality(regclass, name)'::regprocedure),
	'rel regclass, key_column name, OUT keys bigint, OUT rows bigint, OUT rows_per_key double precision, '
	'OUT blocks_per_key double precision, OUT ideal_blocks_per_key double precision, '
	'OUT amplification double precision, OUT heap_blocks bigint, OUT tuples_per_page double precision',
	'heap_locality columns');
SELECT columns_are('extend_lock_waits',
	ARRAY['pid', 'relation', 'waiting', 'blocked_by', 'backend_type', 'wait_event_type', 'wait_event', 'query']);
SELECT col_type_is('extend_lock_waits', 'relation', 'regclass');
SELECT col_type_is('extend_lock_waits', 'waiting', 'interval');
SELECT col_type_is('extend_lock_waits', 'blocked_by', 'integer[]');

-- Volatility and parallel labels.
SELECT volatility_is('index_splits', ARRAY['pg_lsn', 'pg_lsn'], 'volatile');
SELECT volatility_is('explain_writes', ARRAY['text'], 'volatile');
SELECT volatility_is('index_shape', ARRAY['regclass'], 'volatile');
SELECT volatility_is('heap_locality', ARRAY['regclass', 'name'], 'volatile');
SELECT is(
	(SELECT string_agg(p.proname || ':' || p.proparallel::text, ' ' ORDER BY p.proname COLLATE "C") FROM pg_proc p
	 WHERE p.oid IN ('index_splits(pg_lsn, pg_lsn)'::regprocedure, 'explain_writes(text)'::regprocedure,
					 'index_shape(regclass)'::regprocedure, 'heap_locality(regclass, name)'::regprocedure)),
	'explain_writes:u heap_locality:r index_shape:s index_splits:s',
	'parallel labels: explain_writes runs statements (unsafe), heap_locality runs queries (restricted)');

-- Privileges (GRANT decides; these are the defaults): the WAL readers only for
-- pg_read_server_files (and superusers), index_shape for pg_stat_scan_tables.
CREATE ROLE ou_tap_plain;
CREATE ROLE ou_tap_reader IN ROLE pg_read_server_files;
SELECT ok(NOT has_function_privilege('ou_tap_plain', 'index_splits(pg_lsn, pg_lsn)', 'EXECUTE'),
	'index_splits: not executable by an ordinary role');
SELECT ok(NOT has_function_privilege('ou_tap_plain', 'explain_writes(text)', 'EXECUTE'),
	'explain_writes: not executable by an ordinary role');
SELECT ok(has_function_privilege('pg_read_server_files', 'index_splits(pg_lsn, pg_lsn)', 'EXECUTE'),
	'index_splits: granted to pg_read_server_files');
SELECT ok(has_function_privilege('ou_tap_reader', 'explain_writes(text)', 'EXECUTE'),
	'explain_writes: executable by members of pg_read_server_files');
SELECT ok(NOT has_function_privilege('ou_tap_plain', 'index_shape(regclass)', 'EXECUTE')
		  AND has_function_privilege('pg_stat_scan_tables', 'index_shape(regclass)', 'EXECUTE'),
	'index_shape: granted to pg_stat_scan_tables, not to PUBLIC (pgstatindex''s default)');
SELECT ok(has_function_privilege('ou_tap_plain', 'heap_locality(regclass, name)', 'EXECUTE'),
	'heap_locality: executable by anyone (runs with the caller''s privileges)');
SELECT ok(has_table_privilege('ou_tap_plain', 'extend_lock_waits', 'SELECT'),
	'extend_lock_waits: readable by anyone');
-- Every function of the extension that PUBLIC may not call, and only those,
-- has the planner support that adds the hint to core's permission error.
SELECT is_empty($$
	SELECT p.oid::regprocedure::text
	  FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
	 WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
	   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ordered_uuid')
	   AND NOT has_function_privilege('public', p.oid, 'EXECUTE')
	   AND p.prosupport IS DISTINCT FROM 'execute_privilege_support(internal)'::regprocedure$$,
	'every function that is not PUBLIC''s has execute_privilege_support');
SELECT is_empty($$
	SELECT p.oid::regprocedure::text FROM pg_proc p
	 WHERE p.prosupport = 'execute_privilege_support(internal)'::regprocedure
	   AND has_function_privilege('public', p.oid, 'EXECUTE')$$,
	'no PUBLIC function has execute_privilege_support');
SET LOCAL ROLE ou_tap_plain;
SELECT throws_ok($$SELECT * FROM index_splits('0/0')$$, '42501', NULL,
	'index_splits: an ordinary role gets 42501');
SELECT throws_ok($$SELECT * FROM explain_writes('SELECT 1')$$, '42501', NULL,
	'explain_writes: an ordinary role gets 42501');
SELECT lives_ok($$SELECT * FROM extend_lock_waits$$, 'extend_lock_waits: an ordinary role can read it');
RESET ROLE;

-- Security: no SECURITY DEFINER; SQL-language pieces pin their search_path;
-- comments everywhere.
SELECT is_empty(
	$$SELECT p.oid::regprocedure FROM pg_proc p
	  WHERE p.oid IN ('index_splits(pg_lsn, pg_lsn)'::regprocedure, 'explain_writes(text)'::regprocedure,
					  'index_shape(regclass)'::regprocedure, 'heap_locality(regclass, name)'::regprocedure)
		AND p.prosecdef$$, 'no SECURITY DEFINER diagnostics');
SELECT ok((SELECT proconfig @> ARRAY['search_path=pg_catalog, pg_temp'] FROM pg_proc
		   WHERE oid = 'heap_locality(regclass, name)'::regprocedure), 'heap_locality pins search_path');
SELECT isnt(obj_description('extend_lock_waits'::regclass, 'pg_class'), NULL, 'extend_lock_waits has a comment');
SELECT is((SELECT count(*) FROM pg_proc
		   WHERE oid IN ('index_splits(pg_lsn, pg_lsn)'::regprocedure, 'explain_writes(text)'::regprocedure,
						 'index_shape(regclass)'::regprocedure, 'heap_locality(regclass, name)'::regprocedure)
			 AND obj_description(oid, 'pg_proc') IS NOT NULL), 4::bigint, 'every diagnostic function has a comment');
-- The view works whatever the caller's search_path.
CREATE FUNCTION pg_temp.read_view() RETURNS bigint LANGUAGE sql SET search_path = pg_temp
	AS 'SELECT count(*) FROM public.extend_lock_waits';
SELECT lives_ok($$SELECT pg_temp.read_view()$$, 'extend_lock_waits under an empty search_path');
-- Bad input.
SELECT throws_ok($$SELECT * FROM index_splits(NULL)$$, '22004', NULL, 'index_splits(NULL) is an error');

-- write_path_report (1.5.0, verify since 1.5.2): its columns, labels, privileges and safety.
SELECT function_returns('write_path_report', ARRAY[]::text[], 'setof record');
SELECT is(pg_get_function_arguments('write_path_report()'::regprocedure),
	'OUT rank integer, OUT scenario text, OUT relation regclass, OUT finding text, OUT metric text, '
	'OUT value numeric, OUT threshold numeric, OUT evidence text, OUT source text, OUT change text, '
	'OUT measured text, OUT verify text',
	'write_path_report columns');
SELECT is((SELECT p.provolatile::text || p.proparallel::text FROM pg_proc p
		   WHERE p.oid = 'write_path_report()'::regprocedure), 'vr',
	'write_path_report: volatile, parallel restricted (it runs queries)');
SELECT ok(has_function_privilege('ou_tap_plain', 'write_path_report()', 'EXECUTE'),
	'write_path_report: executable by anyone (it reads what the caller may read)');
SELECT ok((SELECT NOT prosecdef AND proconfig @> ARRAY['search_path=pg_catalog, pg_temp'] FROM pg_proc
		   WHERE oid = 'write_path_report()'::regprocedure),
	'write_path_report: not SECURITY DEFINER, pins search_path');
SELECT isnt(obj_description('write_path_report()'::regprocedure, 'pg_proc'), NULL,
	'write_path_report has a comment');

-- index_key_scatter (1.5.2): S4's reader, which runs no code of a table's owner.
SELECT is(pg_get_function_arguments('index_key_scatter(regclass, integer, bigint)'::regprocedure),
	'index regclass, max_keys integer DEFAULT 5, max_rows bigint DEFAULT 50000, OUT state text, '
	'OUT table_pages bigint, OUT rows_per_page double precision, OUT n_distinct real, OUT correlation real, '
	'OUT keys integer, OUT rows bigint, OUT heap_blocks bigint, OUT packed_blocks bigint, OUT capped boolean',
	'index_key_scatter arguments and columns');
SELECT is((SELECT p.provolatile::text || p.proparallel::text || p.proisstrict::text FROM pg_proc p
		   WHERE p.oid = 'index_key_scatter(regclass, integer, bigint)'::regprocedure), 'vrtrue',
	'index_key_scatter: volatile, parallel restricted (it locks and reads a table), strict');
SELECT ok(has_function_privilege('ou_tap_plain', 'index_key_scatter(regclass, integer, bigint)', 'EXECUTE'),
	'index_key_scatter: executable by anyone (it reads only a column the caller may SELECT)');
SELECT ok((SELECT NOT prosecdef FROM pg_proc WHERE oid = 'index_key_scatter(regclass, integer, bigint)'::regprocedure),
	'index_key_scatter: not SECURITY DEFINER');
SELECT isnt(obj_description('index_key_scatter(regclass, integer, bigint)'::regprocedure, 'pg_proc'), NULL,
	'index_key_scatter has a comment');

-- index_newest_pages (1.6.0): the pages behind an index's newest ordered keys.
SELECT is(pg_get_function_arguments('index_newest_pages(regclass, uuid, integer)'::regprocedure),
	'index regclass, below uuid DEFAULT NULL::uuid, max_pages integer DEFAULT 64, OUT state text, '
	'OUT newest_time timestamp with time zone, OUT keys_above boolean, OUT leaf_pages integer, '
	'OUT tuples bigint, OUT ordered_tuples bigint, OUT avg_leaf_density double precision',
	'index_newest_pages arguments and columns');
SELECT is((SELECT p.provolatile::text || p.proparallel::text || p.proisstrict::text FROM pg_proc p
		   WHERE p.oid = 'index_newest_pages(regclass, uuid, integer)'::regprocedure), 'vrfalse',
	'index_newest_pages: volatile, parallel restricted (it locks and reads an index), not strict (below NULL: now)');
SELECT ok(has_function_privilege('ou_tap_plain', 'index_newest_pages(regclass, uuid, integer)', 'EXECUTE'),
	'index_newest_pages: executable by anyone (it reads only a column the caller may SELECT)');
SELECT ok((SELECT NOT prosecdef FROM pg_proc WHERE oid = 'index_newest_pages(regclass, uuid, integer)'::regprocedure),
	'index_newest_pages: not SECURITY DEFINER');
SELECT isnt(obj_description('index_newest_pages(regclass, uuid, integer)'::regprocedure, 'pg_proc'), NULL,
	'index_newest_pages has a comment');

SELECT * FROM finish();
ROLLBACK;
