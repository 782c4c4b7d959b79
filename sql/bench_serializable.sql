--
-- bench_serializable (S5 of doc/scenarios.md): structure and invariants with
-- tiny sizes, never timings or failure counts that depend on them.
-- Independent checks: the rows of the kept tables against the committed
-- transactions, the order of the runs, failures where none can happen
-- (one client; READ COMMITTED inserts and reads).  The failures counted
-- against the collector's: sql/collector_ssi.sql.
--
\i sql/include/bench_helpers.sql
-- progress NOTICEs come every 5 s of a busy machine: not part of the output
SET client_min_messages = warning;

-- READ COMMITTED, each transaction reading its row and its client's two
-- rows before back by key: nothing to fail.  One row per client count and
-- generator, client counts outer, in the order given.
CREATE TEMP TABLE rc AS
SELECT * FROM bench_serializable(ARRAY['uuid_v7_nextval()', 'bigint'], ARRAY[2, 1], seconds => 1,
								 isolation => 'Read Committed', read_pattern => 'recent', read_rows => 3,
								 prefill => 500, repeats => 1);
SELECT generator, clients, isolation, read_pattern, transactions > 0 AS committed, failures,
	   failure_pct, retried_pct, max_retries, rows_per_sec > 0 AS rate, wal_bytes_per_row > 0 AS wal,
	   avg_leaf_density > 0 AS density, seconds >= 1 AS ran_its_time, runs,
	   failure_pct_min = failure_pct AND failure_pct_max = failure_pct AS one_run,
	   rows_per_sec_min = rows_per_sec AND rows_per_sec_max = rows_per_sec AS one_rate,
	   failure_pct_runs, run_order, kept_table
  FROM rc;
SELECT * FROM bench_leftovers;

-- SERIALIZABLE with one client, reading the index's last keys: nobody to
-- conflict with.  Two repetitions, interleaved; the last one's table kept,
-- holding the prefill and every committed transaction's row, each key once.
CREATE TEMP TABLE one AS
SELECT * FROM bench_serializable(ARRAY['uuid_striped_nextval()'], ARRAY[1], seconds => 1,
								 read_pattern => 'range', read_rows => 20, prefill => 300,
								 repeats => 2, keep => true);
SELECT generator, clients, isolation, read_pattern, failures, max_retries, runs, run_order,
	   array_length(failure_pct_runs, 1) AS pcts,
	   kept_table ~ '^ordered_uuid_kept_[0-9a-f]{16}\.g1_c1_t$' AS kept_named
  FROM one;
DO $$
DECLARE
	k record;
	n bigint;
	d bigint;
BEGIN
	SELECT * INTO k FROM one;
	EXECUTE format('SELECT count(*), count(DISTINCT id) FROM %s', k.kept_table) INTO n, d;
	-- one repetition kept: its transactions are the median's only when both
	-- ran as many, so the rows are checked against the kept run alone
	RAISE WARNING 'kept rows: prefill + transactions of its run: %, distinct keys: %',
		n >= 300 + 1 AND n = d, n = d;
END $$;
SELECT c.relname, i.indisprimary, pg_get_indexdef(i.indexrelid) ~ '\(id\)' AS on_id,
	   c.reloptions
  FROM one o JOIN pg_class c ON c.oid = o.kept_table::regclass
  JOIN pg_index i ON i.indrelid = c.oid;
DO $$ BEGIN EXECUTE format('DROP SCHEMA %I CASCADE', (SELECT split_part(kept_table, '.', 1) FROM one)); END $$;
SELECT * FROM bench_leftovers;

-- A kept run of one repetition: its rows are the prefill and its committed
-- transactions, exactly.
CREATE TEMP TABLE own AS
SELECT * FROM bench_serializable(ARRAY['gen_random_uuid()'], ARRAY[1], seconds => 1,
								 prefill => 200, repeats => 1, keep => true);
DO $$
DECLARE
	k record;
	n bigint;
BEGIN
	SELECT * INTO k FROM own;
	EXECUTE format('SELECT count(*) FROM %s', k.kept_table) INTO n;
	RAISE WARNING 'own: rows = prefill + transactions: %, failures: %', n = 200 + k.transactions, k.failures;
	EXECUTE format('DROP SCHEMA %I CASCADE', split_part(k.kept_table, '.', 1));
END $$;
SELECT * FROM bench_leftovers;

-- Arguments.
SELECT pg_temp.err('SELECT bench_serializable(generators => ARRAY[]::text[])');
SELECT pg_temp.err($$SELECT bench_serializable(generators => ARRAY['1; DROP TABLE x'])$$);
SELECT pg_temp.err('SELECT bench_serializable(clients => ARRAY[]::int[])');
SELECT pg_temp.err('SELECT bench_serializable(clients => ARRAY[2, NULL])');
SELECT pg_temp.err('SELECT bench_serializable(clients => ARRAY[0])');
SELECT pg_temp.err('SELECT bench_serializable(clients => ARRAY[[1, 2]])');
SELECT pg_temp.err('SELECT bench_serializable(seconds => 0)');
SELECT pg_temp.err('SELECT bench_serializable(seconds => 3601)');
SELECT pg_temp.err($$SELECT bench_serializable(isolation => 'snapshot')$$);
SELECT pg_temp.err($$SELECT bench_serializable(read_pattern => 'Own')$$);
SELECT pg_temp.err('SELECT bench_serializable(read_rows => 0)');
SELECT pg_temp.err('SELECT bench_serializable(prefill => -1)');
SELECT pg_temp.err('SELECT bench_serializable(repeats => 0)');
SELECT pg_temp.err('SELECT bench_serializable(keep => NULL)');
SELECT pg_temp.err('SELECT bench_serializable(isolation => NULL)');
SELECT pg_temp.err($$SELECT bench_serializable(ARRAY['gen_random_uuid()', 'uuid_v7_nextval()'],
											   ARRAY(SELECT 1 FROM generate_series(1, 51)), repeats => 1000)$$);
SELECT pg_temp.err(format('SELECT bench_serializable(clients => ARRAY[1, %s])',
						  current_setting('max_worker_processes')::int + 1));
SELECT * FROM bench_leftovers;
RESET client_min_messages;
DROP VIEW bench_leftovers;
