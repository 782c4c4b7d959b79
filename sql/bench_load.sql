--
-- bench_bulk_load (S2) and bench_multi_table (S3), scenarios of doc/scenarios.md:
-- structure and invariants
-- with tiny sizes, never timings.  Independent checks: row counts and row
-- sizes of kept tables, relpersistence, the catalog for leftovers.
--
\i sql/include/bench_helpers.sql
-- a wait profile: "Type:Event n.n%, ..." (empty when no sample was taken)
CREATE FUNCTION pg_temp.profile_ok(p text) RETURNS bool LANGUAGE sql AS $$
	SELECT p ~ '^((CPU|[A-Za-z]+:[A-Za-z0-9_]+|other) [0-9.]+%(, |$))*$'
$$;

-- S2: bulk load into one unindexed table.
SELECT clients, rows, seconds > 0 AS timed, rows_per_sec > 0 AS rate, mb_per_sec > 0 AS mb,
	   extend_waits <= samples AS waits,
	   extend_wait_time <= make_interval(secs => seconds * clients + 1) AS wait_time,
	   (samples > 0) = (top_wait_events <> '') AS samples,
	   pg_temp.profile_ok(top_wait_events) AS profile, kept_table IS NULL AS dropped
  FROM bench_bulk_load(clients => 2, rows_per_client => 2500);
SELECT * FROM bench_leftovers;
-- kept: every row is there, each row_bytes bytes (uncompressed, not toasted)
CREATE TEMP TABLE kept AS SELECT * FROM bench_bulk_load(3, 1001, 455, keep => true);
SELECT rows FROM kept;
DO $$
DECLARE
	k record;
	r record;
BEGIN
	SELECT * INTO k FROM kept;
	EXECUTE format('SELECT count(*) AS n, count(DISTINCT id) AS ids, min(pg_column_size(t.*)) AS minsz,
						   max(pg_column_size(t.*)) AS maxsz FROM %s t', k.kept_table) INTO r;
	RAISE NOTICE 'rows %, distinct ids % (ids restart with each batch), row size % .. % bytes', r.n, r.ids, r.minsz, r.maxsz;
	SET LOCAL client_min_messages = warning;
	EXECUTE format('DROP SCHEMA %s CASCADE', split_part(k.kept_table, '.', 1));
END $$;
DROP TABLE kept;
SELECT rows FROM bench_bulk_load(1, 10, 40);
SELECT rows FROM bench_bulk_load(1, 10, 8000);
SELECT * FROM bench_leftovers;

-- S3: single-row transactions over many tables, logged and unlogged.
CREATE TEMP TABLE s3 AS
SELECT * FROM bench_multi_table(tables => 5, clients => 2, rows => 100)
UNION ALL
SELECT * FROM bench_multi_table(tables => 5, clients => 2, rows => 100, unlogged => true);
SELECT tables, clients, unlogged, rows, rows_per_sec > 0 AS rate, (samples > 0) = (top_wait_events <> '') AS samples,
	   pg_temp.profile_ok(top_wait_events) AS profile, kept_tables IS NULL AS dropped
  FROM s3 ORDER BY unlogged;
-- unlogged tables write only commit records
SELECT (SELECT wal_bytes_per_row FROM s3 WHERE unlogged) <
	   (SELECT wal_bytes_per_row FROM s3 WHERE NOT unlogged) / 2 AS unlogged_writes_less_wal;
SELECT * FROM bench_leftovers;
-- kept: the rows are spread evenly over the tables, which are unlogged
CREATE TEMP TABLE kept AS SELECT * FROM bench_multi_table(4, 2, 101, unlogged => true, keep => true);
SELECT c.relname ~ '^t[1-4]$' AS named, c.relpersistence,
	   (xpath('/row/n/text()', query_to_xml(format('SELECT count(*) AS n FROM %I.%I', n.nspname, c.relname),
											false, true, '')))[1]::text::int AS rows
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname LIKE 'ordered\_uuid\_kept\_%' AND c.relkind = 'r' ORDER BY c.relname COLLATE "C";
SELECT kept_tables ~ '^ordered_uuid_kept_[0-9a-f]{16}\.t1 \.\. t4$' AS kept_named FROM kept;
SET client_min_messages = warning;
DO $$ BEGIN EXECUTE format('DROP SCHEMA %s CASCADE', (SELECT split_part(kept_tables, '.', 1) FROM kept)); END $$;
RESET client_min_messages;
DROP TABLE kept, s3;

-- Cancel stops the workers and drops the tables.
SET statement_timeout = '1s';
SELECT * FROM bench_bulk_load(2, 1000000000);
SELECT * FROM bench_multi_table(10, 2, 1000000000);
RESET statement_timeout;
SELECT * FROM bench_leftovers;

-- Argument checks.
SELECT pg_temp.err('SELECT bench_bulk_load(clients => 0)');
SELECT pg_temp.err('SELECT bench_bulk_load(rows_per_client => 0)');
SELECT pg_temp.err('SELECT bench_bulk_load(row_bytes => 39)');
SELECT pg_temp.err('SELECT bench_bulk_load(row_bytes => 8001)');
SELECT pg_temp.err('SELECT bench_bulk_load(clients => NULL)');
SELECT pg_temp.err('SELECT bench_bulk_load(rows_per_client => NULL)');
SELECT pg_temp.err('SELECT bench_bulk_load(row_bytes => NULL)');
SELECT pg_temp.err('SELECT bench_bulk_load(keep => NULL)');
SELECT pg_temp.err('SELECT bench_bulk_load(clients => 2, rows_per_client => 9223372036854775807)');
SELECT pg_temp.err('SELECT bench_multi_table(tables => 0)');
SELECT pg_temp.err('SELECT bench_multi_table(tables => 10001)');
SELECT pg_temp.err('SELECT bench_multi_table(clients => 0)');
SELECT pg_temp.err('SELECT bench_multi_table(rows => 0)');
SELECT pg_temp.err('SELECT bench_multi_table(tables => NULL)');
SELECT pg_temp.err('SELECT bench_multi_table(clients => NULL)');
SELECT pg_temp.err('SELECT bench_multi_table(rows => NULL)');
SELECT pg_temp.err('SELECT bench_multi_table(unlogged => NULL)');
SELECT pg_temp.err('SELECT bench_multi_table(keep => NULL)');
-- (the server-wide cap on benchmark workers would refuse first: lift it)
SELECT set_config('ordered_uuid.bench_max_workers', current_setting('max_worker_processes'), false) IS NOT NULL AS cap_lifted;
SELECT pg_temp.err(format('SELECT bench_bulk_load(clients => %s)',
						  current_setting('max_worker_processes')::int + 1));
SELECT pg_temp.err(format('SELECT bench_multi_table(clients => %s)',
						  current_setting('max_worker_processes')));
SELECT * FROM bench_leftovers;

-- A role without CREATE on the database gets permission denied.
CREATE ROLE regress_bench_bob LOGIN;
GRANT EXECUTE ON FUNCTION bench_multi_table(int, int, bigint, bool, bool),
	bench_bulk_load(int, bigint, int, bool) TO regress_bench_bob;
SET ROLE regress_bench_bob;
SELECT pg_temp.err('SELECT bench_multi_table(2, 1, 10)');
SELECT pg_temp.err('SELECT bench_bulk_load(1, 10)');
RESET ROLE;
REVOKE EXECUTE ON FUNCTION bench_multi_table(int, int, bigint, bool, bool),
	bench_bulk_load(int, bigint, int, bool) FROM regress_bench_bob;
DROP ROLE regress_bench_bob;

-- Thousands of tables stay within max_locks_per_transaction: each worker
-- prepares its statements a hundred to a transaction, and the drop takes
-- two hundred tables to a transaction.  Two workers preparing a thousand
-- tables more than half the lock table's slots each (about
-- max_locks_per_transaction for every process slot; its default doubled in
-- PostgreSQL 19) would hold more locks than the whole lock table has.
CREATE TEMP VIEW lock_slots AS
SELECT current_setting('max_locks_per_transaction')::int *
	   (current_setting('max_connections')::int + current_setting('max_worker_processes')::int +
		current_setting('autovacuum_max_workers')::int + current_setting('max_wal_senders')::int +
		current_setting('max_prepared_transactions')::int + 8) AS n;
SET client_min_messages = warning;
SELECT 2 * b.tables > s.n AS more_locks_than_lock_slots, b.clients, b.rows
  FROM lock_slots s,
	   bench_multi_table(tables => (SELECT n / 2 + 1000 FROM lock_slots), clients => 2, rows => 100) b;
RESET client_min_messages;
SELECT * FROM bench_leftovers;
DROP VIEW bench_leftovers;
