-- test/bench.sql -- pgTAP: the catalog contract of the in-database benchmarks
-- (doc/bench.md): signatures, defaults, result columns,
-- labels, comments, privileges and the scratch schema.
BEGIN;
SELECT plan(54);

SELECT has_function('bench_insert',
	ARRAY['text[]', 'bigint', 'integer', 'integer', 'bigint', 'boolean', 'boolean', 'integer']);
SELECT is(pg_get_function_arguments('bench_insert(text[], bigint, int, int, bigint, bool, bool, int)'::regprocedure),
	'generators text[] DEFAULT ARRAY[''uuid_striped_nextval()''::text, ''uuid_v7_nextval()''::text, ''uuid_time_nextval()''::text, '
	'''uuid_sequence_nextval($seq)''::text, ''gen_random_uuid()''::text, ''bigint''::text], '
	'rows bigint DEFAULT 1000000, clients integer DEFAULT 1, rows_per_xact integer DEFAULT 1000, '
	'prefill bigint DEFAULT 0, unlogged boolean DEFAULT false, keep boolean DEFAULT false, '
	'repeats integer DEFAULT 1',
	'bench_insert arguments and defaults');
SELECT is(
	(SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)
	   FROM pg_attribute WHERE attrelid = 'bench_insert_result'::regclass AND attnum > 0),
	'generator text, rows bigint, seconds double precision, rows_per_sec double precision, '
	'wal_bytes_per_row double precision, fpi_per_row double precision, '
	'leaf_splits_per_1k double precision, index_bytes bigint, avg_leaf_density double precision, '
	'blks_dirtied_per_row double precision, blks_written_per_row double precision, top_wait_events text, '
	'kept_table text, runs integer, rows_per_sec_min double precision, rows_per_sec_max double precision, '
	'seconds_min double precision, seconds_max double precision, rows_per_sec_runs double precision[], '
	'run_order integer[]',
	'bench_insert result columns');
SELECT function_returns('bench_insert',
	ARRAY['text[]', 'bigint', 'integer', 'integer', 'bigint', 'boolean', 'boolean', 'integer'], 'setof bench_insert_result');
SELECT volatility_is('bench_insert',
	ARRAY['text[]', 'bigint', 'integer', 'integer', 'bigint', 'boolean', 'boolean', 'integer'], 'volatile');
SELECT isnt_strict('bench_insert',
	ARRAY['text[]', 'bigint', 'integer', 'integer', 'bigint', 'boolean', 'boolean', 'integer']);

-- bench_insert_distributed: bench_insert on a Citus cluster, shard_count in
-- place of unlogged, shards and nodes in place of the buffer counters.
SELECT has_function('bench_insert_distributed',
	ARRAY['text[]', 'bigint', 'integer', 'integer', 'bigint', 'integer', 'boolean']);
SELECT is(pg_get_function_arguments('bench_insert_distributed(text[], bigint, int, int, bigint, int, bool)'::regprocedure),
	'generators text[] DEFAULT ARRAY[''uuid_v7_nextval()''::text, ''uuid_time_nextval()''::text, '
	'''uuid_sequence_nextval($seq)''::text, ''gen_random_uuid()''::text, ''bigint''::text], '
	'rows bigint DEFAULT 1000000, clients integer DEFAULT 1, rows_per_xact integer DEFAULT 1000, '
	'prefill bigint DEFAULT 0, shard_count integer DEFAULT 32, keep boolean DEFAULT false',
	'bench_insert_distributed arguments and defaults');
SELECT is(
	(SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)
	   FROM pg_attribute WHERE attrelid = 'bench_insert_distributed_result'::regclass AND attnum > 0),
	'generator text, rows bigint, seconds double precision, rows_per_sec double precision, '
	'wal_bytes_per_row double precision, fpi_per_row double precision, '
	'leaf_splits_per_1k double precision, index_bytes bigint, avg_leaf_density double precision, '
	'shards integer, nodes integer, top_wait_events text, kept_table text',
	'bench_insert_distributed result columns');
SELECT function_returns('bench_insert_distributed',
	ARRAY['text[]', 'bigint', 'integer', 'integer', 'bigint', 'integer', 'boolean'],
	'setof bench_insert_distributed_result');
SELECT volatility_is('bench_insert_distributed',
	ARRAY['text[]', 'bigint', 'integer', 'integer', 'bigint', 'integer', 'boolean'], 'volatile');
SELECT isnt_strict('bench_insert_distributed',
	ARRAY['text[]', 'bigint', 'integer', 'integer', 'bigint', 'integer', 'boolean']);
SELECT is(
	(SELECT string_agg(a.attname, ', ' ORDER BY a.attnum) FROM pg_attribute a
	  WHERE a.attrelid = 'bench_insert_result'::regclass AND a.attnum > 0
		AND a.attname NOT IN ('blks_dirtied_per_row', 'blks_written_per_row')
		AND a.attnum <= 13),
	(SELECT string_agg(a.attname, ', ' ORDER BY a.attnum) FROM pg_attribute a
	  WHERE a.attrelid = 'bench_insert_distributed_result'::regclass AND a.attnum > 0
		AND a.attname NOT IN ('shards', 'nodes')),
	'bench_insert_distributed reports bench_insert''s figures under the same names (not the spread of repetitions)');

SELECT has_function('bench_bulk_load', ARRAY['integer', 'bigint', 'integer', 'boolean']);
SELECT is(pg_get_function_arguments('bench_bulk_load(int, bigint, int, bool)'::regprocedure),
	'clients integer DEFAULT 8, rows_per_client bigint DEFAULT 200000, row_bytes integer DEFAULT 455, '
	'keep boolean DEFAULT false',
	'bench_bulk_load arguments and defaults');
SELECT function_returns('bench_bulk_load', ARRAY['integer', 'bigint', 'integer', 'boolean'],
	'bench_bulk_load_result');
SELECT is(
	(SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)
	   FROM pg_attribute WHERE attrelid = 'bench_bulk_load_result'::regclass AND attnum > 0),
	'clients integer, rows bigint, seconds double precision, rows_per_sec double precision, '
	'mb_per_sec double precision, extend_waits bigint, extend_wait_time interval, samples bigint, '
	'top_wait_events text, kept_table text',
	'bench_bulk_load result columns');
SELECT has_function('bench_multi_table', ARRAY['integer', 'integer', 'bigint', 'boolean', 'boolean']);
SELECT is(pg_get_function_arguments('bench_multi_table(int, int, bigint, bool, bool)'::regprocedure),
	'tables integer DEFAULT 128, clients integer DEFAULT 8, rows bigint DEFAULT 200000, '
	'unlogged boolean DEFAULT false, keep boolean DEFAULT false',
	'bench_multi_table arguments and defaults');
SELECT function_returns('bench_multi_table', ARRAY['integer', 'integer', 'bigint', 'boolean', 'boolean'],
	'bench_multi_table_result');
SELECT is(
	(SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)
	   FROM pg_attribute WHERE attrelid = 'bench_multi_table_result'::regclass AND attnum > 0),
	'tables integer, clients integer, unlogged boolean, rows bigint, seconds double precision, '
	'rows_per_sec double precision, wal_bytes_per_row double precision, samples bigint, '
	'top_wait_events text, kept_tables text',
	'bench_multi_table result columns');
SELECT volatility_is('bench_bulk_load', ARRAY['integer', 'bigint', 'integer', 'boolean'], 'volatile');
SELECT volatility_is('bench_multi_table', ARRAY['integer', 'integer', 'bigint', 'boolean', 'boolean'], 'volatile');

SELECT has_function('bench_locality', ARRAY['integer', 'integer', 'integer', 'integer', 'integer', 'boolean']);
SELECT is(pg_get_function_arguments('bench_locality(int, int, int, int, int, bool)'::regprocedure),
	'groups integer DEFAULT 1000, rows_per_group integer DEFAULT 2000, row_bytes integer DEFAULT 120, '
	'clients integer DEFAULT 2, sample_groups integer DEFAULT 100, keep boolean DEFAULT false',
	'bench_locality arguments and defaults');
SELECT function_returns('bench_locality', ARRAY['integer', 'integer', 'integer', 'integer', 'integer', 'boolean'],
	'setof bench_locality_result');
SELECT is(
	(SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)
	   FROM pg_attribute WHERE attrelid = 'bench_locality_result'::regclass AND attnum > 0),
	'variant text, scan text, groups_read bigint, rows_per_group double precision, '
	'heap_blocks_per_group double precision, index_blocks_per_group double precision, '
	'ideal_blocks_per_group double precision, amplification double precision, '
	'groups_per_sec double precision, insert_rows_per_sec double precision, fix_seconds double precision, '
	'table_bytes bigint, index_bytes bigint, kept_table text',
	'bench_locality result columns');
SELECT volatility_is('bench_locality', ARRAY['integer', 'integer', 'integer', 'integer', 'integer', 'boolean'],
	'volatile');
SELECT isnt_strict('bench_locality', ARRAY['integer', 'integer', 'integer', 'integer', 'integer', 'boolean']);
SELECT ok(NOT has_function_privilege('public', 'bench_locality(int, int, int, int, int, bool)', 'EXECUTE'),
	'bench_locality is granted, not PUBLIC''s (it holds worker slots and writes)');

-- bench_switch (1.6.0): a table of random keys switched to each generator,
-- beside a fresh table.
SELECT has_function('bench_switch',
	ARRAY['text[]', 'bigint', 'bigint', 'text', 'integer', 'integer', 'integer', 'boolean']);
SELECT is(pg_get_function_arguments('bench_switch(text[], bigint, bigint, text, int, int, int, bool)'::regprocedure),
	'generators text[] DEFAULT ARRAY[''uuid_v7_nextval()''::text, ''uuid_striped_nextval()''::text, '
	'''uuid_striped_nextval(3600, right_edge => false)''::text], prefill bigint DEFAULT 1000000, '
	'rows bigint DEFAULT 500000, from_generator text DEFAULT ''gen_random_uuid()''::text, '
	'clients integer DEFAULT 1, rows_per_xact integer DEFAULT 1000, repeats integer DEFAULT 1, '
	'keep boolean DEFAULT false',
	'bench_switch arguments and defaults');
SELECT is(
	(SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)
	   FROM pg_attribute WHERE attrelid = 'bench_switch_result'::regclass AND attnum > 0),
	'generator text, prefill bigint, rows bigint, seconds double precision, rows_per_sec double precision, '
	'rows_per_sec_min double precision, rows_per_sec_max double precision, wal_bytes_per_row double precision, '
	'fpi_per_row double precision, leaf_splits_per_1k double precision, pages_added bigint, '
	'added_leaf_density double precision, pages_vs_fresh double precision, pages_vs_fresh_min double precision, '
	'pages_vs_fresh_max double precision, runs integer, top_wait_events text, kept_table text, '
	'rows_per_sec_runs double precision[], pages_added_runs bigint[], run_order integer[]',
	'bench_switch result columns');
SELECT function_returns('bench_switch',
	ARRAY['text[]', 'bigint', 'bigint', 'text', 'integer', 'integer', 'integer', 'boolean'], 'setof bench_switch_result');
SELECT isnt_strict('bench_switch',
	ARRAY['text[]', 'bigint', 'bigint', 'text', 'integer', 'integer', 'integer', 'boolean']);
SELECT ok(NOT has_function_privilege('public', 'bench_switch(text[], bigint, bigint, text, int, int, int, bool)', 'EXECUTE'),
	'bench_switch is granted, not PUBLIC''s (it holds worker slots and writes)');

-- bench_serializable (1.6.0): SERIALIZABLE transactions that insert and read
-- back by key, retrying serialization failures (S5).
SELECT has_function('bench_serializable',
	ARRAY['text[]', 'integer[]', 'integer', 'text', 'text', 'integer', 'bigint', 'integer', 'boolean']);
SELECT is(pg_get_function_arguments('bench_serializable(text[], int[], int, text, text, int, bigint, int, bool)'::regprocedure),
	'generators text[] DEFAULT ARRAY[''uuid_v7_nextval()''::text, ''uuid_striped_nextval()''::text, '
	'''gen_random_uuid()''::text], clients integer[] DEFAULT ARRAY[2, 4, 8, 16], seconds integer DEFAULT 10, '
	'isolation text DEFAULT ''serializable''::text, read_pattern text DEFAULT ''own''::text, '
	'read_rows integer DEFAULT 10, prefill bigint DEFAULT 100000, repeats integer DEFAULT 3, '
	'keep boolean DEFAULT false',
	'bench_serializable arguments and defaults');
SELECT function_returns('bench_serializable',
	ARRAY['text[]', 'integer[]', 'integer', 'text', 'text', 'integer', 'bigint', 'integer', 'boolean'],
	'setof bench_serializable_result');
SELECT is(
	(SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)
	   FROM pg_attribute WHERE attrelid = 'bench_serializable_result'::regclass AND attnum > 0),
	'generator text, clients integer, isolation text, read_pattern text, transactions bigint, '
	'failures bigint, failure_pct double precision, retried_pct double precision, max_retries bigint, '
	'rows_per_sec double precision, wal_bytes_per_row double precision, avg_leaf_density double precision, '
	'seconds double precision, runs integer, failure_pct_min double precision, failure_pct_max double precision, '
	'rows_per_sec_min double precision, rows_per_sec_max double precision, failure_pct_runs double precision[], '
	'run_order integer[], kept_table text',
	'bench_serializable result columns');
SELECT volatility_is('bench_serializable',
	ARRAY['text[]', 'integer[]', 'integer', 'text', 'text', 'integer', 'bigint', 'integer', 'boolean'], 'volatile');
SELECT isnt_strict('bench_serializable',
	ARRAY['text[]', 'integer[]', 'integer', 'text', 'text', 'integer', 'bigint', 'integer', 'boolean']);
SELECT ok(NOT has_function_privilege('public',
		  'bench_serializable(text[], int[], int, text, text, int, bigint, int, bool)', 'EXECUTE'),
	'bench_serializable is granted, not PUBLIC''s (it holds worker slots and writes)');

-- Every benchmark function: PARALLEL UNSAFE, not SECURITY DEFINER, commented,
-- no SET clause that would change the caller's search_path.
SELECT is(
	(SELECT string_agg(p.proname || ':' || p.proparallel::text || ':' || p.prosecdef::text, ' '
					   ORDER BY p.proname COLLATE "C")
	   FROM pg_proc p WHERE p.proname LIKE 'bench\_%'
		AND p.pronamespace = (SELECT extnamespace FROM pg_extension WHERE extname = 'ordered_uuid')),
	'bench_bulk_load:u:false bench_cleanup:u:false bench_insert:u:false '
	'bench_insert_distributed:u:false bench_locality:u:false bench_multi_table:u:false '
	'bench_serializable:u:false bench_switch:u:false',
	'benchmarks are PARALLEL UNSAFE and never SECURITY DEFINER');
SELECT is(
	(SELECT count(*)::int FROM pg_proc p WHERE p.proname LIKE 'bench\_%'
		AND p.pronamespace = (SELECT extnamespace FROM pg_extension WHERE extname = 'ordered_uuid')
		AND obj_description(p.oid, 'pg_proc') IS NULL),
	0, 'every benchmark function has a comment');
SELECT is(
	(SELECT count(*)::int FROM pg_proc p WHERE p.proname LIKE 'bench\_%' AND p.proconfig IS NOT NULL
		AND p.pronamespace = (SELECT extnamespace FROM pg_extension WHERE extname = 'ordered_uuid')),
	0, 'benchmark functions keep the caller''s settings');
SELECT ok(NOT (has_function_privilege('public', 'bench_insert(text[], bigint, int, int, bigint, bool, bool, int)', 'EXECUTE')
			   OR has_function_privilege('public', 'bench_bulk_load(int, bigint, int, bool)', 'EXECUTE')
			   OR has_function_privilege('public', 'bench_multi_table(int, int, bigint, bool, bool)', 'EXECUTE')
			   OR has_function_privilege('public', 'bench_insert_distributed(text[], bigint, int, int, bigint, int, bool)', 'EXECUTE')),
	'the benchmarks are granted, not PUBLIC''s (they hold worker slots and write)');

-- bench_cleanup(): no arguments, a count, volatile, granted.
SELECT has_function('bench_cleanup', ARRAY[]::text[]);
SELECT function_returns('bench_cleanup', ARRAY[]::text[], 'bigint');
SELECT volatility_is('bench_cleanup', ARRAY[]::text[], 'volatile');
SELECT ok(NOT has_function_privilege('public', 'bench_cleanup()', 'EXECUTE'),
	'bench_cleanup is granted, not PUBLIC''s');

-- No scratch space belongs to the extension, and nothing of it is writable
-- by PUBLIC: each run makes a schema of its own.
SELECT hasnt_schema('ordered_uuid_bench');
SELECT is(
	(SELECT count(*)::int FROM pg_depend d
	  WHERE d.classid = 'pg_namespace'::regclass AND d.refclassid = 'pg_extension'::regclass
		AND d.deptype = 'e' AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ordered_uuid')),
	0, 'the extension owns no schema');
SELECT is(
	(SELECT count(*)::int FROM pg_namespace n
	  WHERE has_schema_privilege('public', n.oid, 'CREATE')
		AND n.oid IN (SELECT d.objid FROM pg_depend d WHERE d.deptype = 'e'
					   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ordered_uuid'))),
	0, 'nothing of the extension is PUBLIC-writable');

SELECT * FROM finish();
ROLLBACK;
