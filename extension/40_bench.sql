--
-- In-database benchmarks.  No preload needed.
--
-- The benchmarks run their SQL in dynamic background workers connected as the
-- calling role (never SECURITY DEFINER), within that role's connection limits.
-- Each run creates a scratch schema of its own, as the calling role
-- (ordered_uuid_run_<random hex>; CREATE on the database is needed), which
-- is not part of the extension and is dropped at the end of the run unless
-- keep => true renames it ordered_uuid_kept_<hex>.  Runs whose leader died
-- leave theirs behind: the next benchmark in the database, or
-- bench_cleanup(), drops them.  Benchmarks hold background workers and write
-- to the database, so they are not PUBLIC's: GRANT EXECUTE on them to the
-- roles that may run benchmarks.

-- bench_insert's result row.  A type rather than OUT parameters: the
-- argument "rows" and the column "rows" share a name.  With repeats, each
-- figure up to kept_table is the median of the generator's runs; the
-- columns after it (since 1.3.0) give the runs and their spread.
CREATE TYPE bench_insert_result AS (
	generator text,
	rows bigint,
	seconds float8,
	rows_per_sec float8,
	wal_bytes_per_row float8,
	fpi_per_row float8,
	leaf_splits_per_1k float8,
	index_bytes bigint,
	avg_leaf_density float8,
	blks_dirtied_per_row float8,
	blks_written_per_row float8,
	top_wait_events text,
	kept_table text,
	runs int,
	rows_per_sec_min float8,
	rows_per_sec_max float8,
	seconds_min float8,
	seconds_max float8,
	rows_per_sec_runs float8[],
	run_order int[]
);

CREATE FUNCTION bench_insert(
	generators text[] DEFAULT ARRAY['uuid_striped_nextval()', 'uuid_v7_nextval()', 'uuid_time_nextval()',
									'uuid_sequence_nextval($seq)', 'gen_random_uuid()', 'bigint'],
	rows bigint DEFAULT 1000000,
	clients int DEFAULT 1,
	rows_per_xact int DEFAULT 1000,
	prefill bigint DEFAULT 0,
	unlogged bool DEFAULT false,
	keep bool DEFAULT false,
	repeats int DEFAULT 1)
RETURNS SETOF bench_insert_result
AS 'MODULE_PATHNAME', 'bench_insert'
LANGUAGE C VOLATILE PARALLEL UNSAFE
SUPPORT execute_privilege_support;

COMMENT ON FUNCTION bench_insert(text[], bigint, int, int, bigint, bool, bool, int) IS
'inserts rows into a fresh table per primary-key generator ($seq = a scratch sequence, bigint = a bigint sequence) and reports rows/s, WAL and full-page images per row, leaf splits, index size and leaf density; with repeats, each generator runs that many times, interleaved with the others, and the figures are medians with the minimum and maximum of rows/s and seconds (scenario S1 of the documentation, doc/scenarios.md)';

-- bench_insert_distributed's result row: bench_insert's, with the shards and
-- the nodes measured in place of the inserting sessions' buffer counters
-- (the writes happen on the nodes that hold the shards).
CREATE TYPE bench_insert_distributed_result AS (
	generator text,
	rows bigint,
	seconds float8,
	rows_per_sec float8,
	wal_bytes_per_row float8,
	fpi_per_row float8,
	leaf_splits_per_1k float8,
	index_bytes bigint,
	avg_leaf_density float8,
	shards int,
	nodes int,
	top_wait_events text,
	kept_table text
);

-- A function of its own rather than an argument of bench_insert: changing
-- bench_insert's signature drops the privileges granted on it.  It takes no
-- repeats: each of its runs waits twice for the nodes' statistics.
CREATE FUNCTION bench_insert_distributed(
	generators text[] DEFAULT ARRAY['uuid_v7_nextval()', 'uuid_time_nextval()',
									'uuid_sequence_nextval($seq)', 'gen_random_uuid()', 'bigint'],
	rows bigint DEFAULT 1000000,
	clients int DEFAULT 1,
	rows_per_xact int DEFAULT 1000,
	prefill bigint DEFAULT 0,
	shard_count int DEFAULT 32,
	keep bool DEFAULT false)
RETURNS SETOF bench_insert_distributed_result
AS 'MODULE_PATHNAME', 'bench_insert_distributed'
LANGUAGE C VOLATILE PARALLEL UNSAFE
SUPPORT execute_privilege_support;

COMMENT ON FUNCTION bench_insert_distributed(text[], bigint, int, int, bigint, int, bool) IS
'bench_insert on a Citus cluster, run on the coordinator: each scratch table is distributed over shard_count shards, and WAL and full-page images per row add up every node (scenario S1 of the documentation, doc/scenarios.md)';

-- bench_switch (1.6.0): S1 on a table that already holds random keys when
-- its default becomes an ordered generator, beside a fresh table with the
-- same default (src/bench_switch.c).  One row per generator and table, the
-- switched table's first: prefill is 0 on the fresh table's row, and
-- pages_vs_fresh (the index pages the switched table's new rows added over
-- the fresh table's, per repetition) is on the switched table's.  The last
-- three columns give each repetition's rows/s and pages, and where it ran
-- in the call's sequence of runs.
CREATE TYPE bench_switch_result AS (
	generator text,
	prefill bigint,
	rows bigint,
	seconds float8,
	rows_per_sec float8,
	rows_per_sec_min float8,
	rows_per_sec_max float8,
	wal_bytes_per_row float8,
	fpi_per_row float8,
	leaf_splits_per_1k float8,
	pages_added bigint,
	added_leaf_density float8,
	pages_vs_fresh float8,
	pages_vs_fresh_min float8,
	pages_vs_fresh_max float8,
	runs int,
	top_wait_events text,
	kept_table text,
	rows_per_sec_runs float8[],
	pages_added_runs bigint[],
	run_order int[]
);

CREATE FUNCTION bench_switch(
	generators text[] DEFAULT ARRAY['uuid_v7_nextval()', 'uuid_striped_nextval()',
									'uuid_striped_nextval(3600, right_edge => false)'],
	prefill bigint DEFAULT 1000000,
	rows bigint DEFAULT 500000,
	from_generator text DEFAULT 'gen_random_uuid()',
	clients int DEFAULT 1,
	rows_per_xact int DEFAULT 1000,
	repeats int DEFAULT 1,
	keep bool DEFAULT false)
RETURNS SETOF bench_switch_result
AS 'MODULE_PATHNAME', 'bench_switch'
LANGUAGE C VOLATILE PARALLEL UNSAFE
SUPPORT execute_privilege_support;

COMMENT ON FUNCTION bench_switch(text[], bigint, bigint, text, int, int, int, bool) IS
'switching a table of prefill from_generator keys (random by default) to each generator as its key, beside a fresh table with that key: index pages the new rows added and their leaf density, the growth over the fresh table''s (pages_vs_fresh), WAL and full-page images per row, rows/s; medians of interleaved repetitions (scenario S1 of the documentation, doc/scenarios.md)';

CREATE TYPE bench_bulk_load_result AS (
	clients int,
	rows bigint,
	seconds float8,
	rows_per_sec float8,
	mb_per_sec float8,
	extend_waits bigint,
	extend_wait_time interval,
	samples bigint,
	top_wait_events text,
	kept_table text
);

CREATE FUNCTION bench_bulk_load(
	clients int DEFAULT 8,
	rows_per_client bigint DEFAULT 200000,
	row_bytes int DEFAULT 455,
	keep bool DEFAULT false)
RETURNS bench_bulk_load_result
AS 'MODULE_PATHNAME', 'bench_bulk_load'
LANGUAGE C VOLATILE PARALLEL UNSAFE
SUPPORT execute_privilege_support;

COMMENT ON FUNCTION bench_bulk_load(int, bigint, int, bool) IS
'concurrent COPY-like batches into one unindexed table; rows/s, MB/s, relation extension lock waits and the top wait events, sampled by the leader (scenario S2 of the documentation, doc/scenarios.md)';

CREATE TYPE bench_multi_table_result AS (
	tables int,
	clients int,
	unlogged bool,
	rows bigint,
	seconds float8,
	rows_per_sec float8,
	wal_bytes_per_row float8,
	samples bigint,
	top_wait_events text,
	kept_tables text
);

CREATE FUNCTION bench_multi_table(
	tables int DEFAULT 128,
	clients int DEFAULT 8,
	rows bigint DEFAULT 200000,
	unlogged bool DEFAULT false,
	keep bool DEFAULT false)
RETURNS bench_multi_table_result
AS 'MODULE_PATHNAME', 'bench_multi_table'
LANGUAGE C VOLATILE PARALLEL UNSAFE
SUPPORT execute_privilege_support;

COMMENT ON FUNCTION bench_multi_table(int, int, bigint, bool, bool) IS
'single-row transactions spread over many tables (logged or unlogged); rows/s, WAL per row and the top wait events, sampled by the leader (scenario S3 of the documentation, doc/scenarios.md)';

-- bench_locality's result row (scenario S4): one row per variant.  A type
-- rather than OUT parameters: the argument "rows_per_group" and the column
-- "rows_per_group" share a name.
CREATE TYPE bench_locality_result AS (
	variant text,
	scan text,
	groups_read bigint,
	rows_per_group float8,
	heap_blocks_per_group float8,
	index_blocks_per_group float8,
	ideal_blocks_per_group float8,
	amplification float8,
	groups_per_sec float8,
	insert_rows_per_sec float8,
	fix_seconds float8,
	table_bytes bigint,
	index_bytes bigint,
	kept_table text
);

CREATE FUNCTION bench_locality(
	groups int DEFAULT 1000,
	rows_per_group int DEFAULT 2000,
	row_bytes int DEFAULT 120,
	clients int DEFAULT 2,
	sample_groups int DEFAULT 100,
	keep bool DEFAULT false)
RETURNS SETOF bench_locality_result
AS 'MODULE_PATHNAME', 'bench_locality'
LANGUAGE C VOLATILE PARALLEL UNSAFE
SUPPORT execute_privilege_support;

COMMENT ON FUNCTION bench_locality(int, int, int, int, int, bool) IS
'concurrent writers append the rows of many groups interleaved; then each group is read through an index as written, after CLUSTER and with a covering index (index-only scan), counting the heap and index blocks each read fetched, their amplification over the blocks the rows would fill packed, groups/s and each fix''s cost (scenario S4 of the documentation, doc/scenarios.md)';

-- bench_serializable's result row (1.6.0, scenario S5): one row per client
-- count and generator.  Each figure is the median of the runs; the columns
-- after seconds give the runs and the spread of failure_pct and rows_per_sec.
CREATE TYPE bench_serializable_result AS (
	generator text,
	clients int,
	isolation text,
	read_pattern text,
	transactions bigint,
	failures bigint,
	failure_pct float8,
	retried_pct float8,
	max_retries bigint,
	rows_per_sec float8,
	wal_bytes_per_row float8,
	avg_leaf_density float8,
	seconds float8,
	runs int,
	failure_pct_min float8,
	failure_pct_max float8,
	rows_per_sec_min float8,
	rows_per_sec_max float8,
	failure_pct_runs float8[],
	run_order int[],
	kept_table text
);

CREATE FUNCTION bench_serializable(
	generators text[] DEFAULT ARRAY['uuid_v7_nextval()', 'uuid_striped_nextval()', 'gen_random_uuid()'],
	clients int[] DEFAULT ARRAY[2, 4, 8, 16],
	seconds int DEFAULT 10,
	isolation text DEFAULT 'serializable',
	read_pattern text DEFAULT 'own',
	read_rows int DEFAULT 10,
	prefill bigint DEFAULT 100000,
	repeats int DEFAULT 3,
	keep bool DEFAULT false)
RETURNS SETOF bench_serializable_result
AS 'MODULE_PATHNAME', 'bench_serializable'
LANGUAGE C VOLATILE PARALLEL UNSAFE
SUPPORT execute_privilege_support;

COMMENT ON FUNCTION bench_serializable(text[], int[], int, text, text, int, bigint, int, bool) IS
'concurrent transactions at an isolation level that insert a row with each primary-key generator and read rows back by key (own: the row inserted; recent: it and the client''s last rows; range: the last keys of the index), retrying serialization failures, for seconds at each client count; per client count and generator the committed transactions, the failures and their share, the retries, rows/s, WAL per row and leaf density, medians of interleaved repetitions with their spread (scenario S5 of the documentation, doc/scenarios.md)';

CREATE FUNCTION bench_cleanup()
RETURNS bigint
AS 'MODULE_PATHNAME', 'bench_cleanup'
LANGUAGE C VOLATILE PARALLEL UNSAFE
SUPPORT execute_privilege_support;

COMMENT ON FUNCTION bench_cleanup() IS
'drops the scratch schemas (ordered_uuid_run_*) of benchmark runs whose leader is gone, of roles whose privileges the caller has; returns how many';

-- Benchmarks are granted, not PUBLIC's.
REVOKE ALL ON FUNCTION bench_insert(text[], bigint, int, int, bigint, bool, bool, int) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_insert_distributed(text[], bigint, int, int, bigint, int, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_bulk_load(int, bigint, int, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_multi_table(int, int, bigint, bool, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_locality(int, int, int, int, int, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_serializable(text[], int[], int, text, text, int, bigint, int, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_cleanup() FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_switch(text[], bigint, bigint, text, int, int, int, bool) FROM PUBLIC;
