--
-- write_path_report() on a server with the library preloaded
-- (sql/diag_report.conf, make installcheck-preload): for S1, S3 and S4 of
-- doc/scenarios.md a workload that must produce the finding and one that
-- must not, each after ordered_uuid_reset(), and the report must name the
-- right finding and only it.  S2 needs concurrent sessions:
-- specs/diag_report_s2.spec; the collector not loaded:
-- sql/diag_report_not_preloaded.sql.  Only scenarios, relations, findings
-- and whether a figure passed its threshold are printed, never the figures.
--
\i sql/include/collector_helpers.sql
\i sql/include/qualified.sql

-- what a test prints of the report: the findings (rows with a scenario);
-- has_change: a change, figures measured in doc/results.md, and SQL to run
-- (the change where it is a statement, the verify) that names every
-- function, operator and type with its schema
CREATE FUNCTION pg_temp.findings()
RETURNS TABLE (rank integer, scenario text, relation regclass, finding text, past_threshold boolean,
			   has_change boolean)
LANGUAGE sql AS $$
	SELECT rank, scenario, relation, finding, value >= threshold,
		   change IS NOT NULL AND measured LIKE '%(doc/results.md, %)'
		   AND verify IS NOT NULL AND pg_temp.row_sql_qualified(change, verify)
	  FROM write_path_report() WHERE scenario IS NOT NULL ORDER BY rank
$$;

-- The function: plain PL/pgSQL as the caller, its search_path pinned.
SELECT p.prosecdef AS security_definer, p.proconfig AS settings, p.proretset AS set_returning
  FROM pg_proc p WHERE p.oid = 'write_path_report()'::regprocedure;

-- A fresh collector has too little history: a row says so, after the
-- findings, and there is nothing to find yet.
SELECT ordered_uuid_reset();
SELECT rank, scenario, relation, finding, value < threshold AS below_threshold
  FROM write_path_report();
-- its value is the seconds of its evidence, rounded the same way
SELECT value = extract(epoch FROM substring(evidence FROM 'judged on (.*) of history')::interval) AS same_seconds
  FROM write_path_report() WHERE finding LIKE 'too little history%';

-- S1: a random UUID primary key and an ordered one, 100,000 rows each, then
-- 20,000 more rows each right after a checkpoint.  The random index writes
-- a full-page image of most of its leaves; the ordered one of a few pages at
-- its right edge.  Both in big transactions: no S3.
CREATE TABLE s1_random (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int);
CREATE TABLE s1_ordered (id uuid PRIMARY KEY DEFAULT uuid_v7_nextval(), n int);
INSERT INTO s1_random (n) SELECT g FROM generate_series(1, 100000) g;
INSERT INTO s1_ordered (n) SELECT g FROM generate_series(1, 100000) g;
SELECT ordered_uuid_reset();
CHECKPOINT;
INSERT INTO s1_random (n) SELECT g FROM generate_series(1, 20000) g;
INSERT INTO s1_ordered (n) SELECT g FROM generate_series(1, 20000) g;
SELECT pg_temp.wait_wal(pg_current_wal_insert_lsn()) AS collector_read_it;
SELECT * FROM pg_temp.findings();
-- the change is the generator the README recommends, for this column
SELECT change FROM write_path_report() WHERE scenario = 'S1';
-- the index locked by another session (a REINDEX in a transaction not yet
-- ended): the report does not wait for it (its lock_timeout), and gives the
-- index's size as unknown
\set ON_ERROR_STOP on
CREATE EXTENSION dblink;
\set ON_ERROR_STOP off
SELECT dblink_connect('locker', pg_temp.connstr());
SELECT dblink_exec('locker', 'BEGIN');
SELECT dblink_exec('locker', 'REINDEX INDEX s1_random_pkey');
SELECT scenario, relation, evidence LIKE '%index of unknown size (locked by another session)%' AS size_unknown
  FROM write_path_report() WHERE scenario = 'S1';
SELECT dblink_exec('locker', 'ROLLBACK');
SELECT dblink_disconnect('locker');
-- the change, made as given, and checked as the row's verify says: after a
-- checkpoint, the index's full-page images are a small share of its WAL,
-- and its leaf splits under 4.5 in 1,000 of its records (pages 70 % full or
-- more: the new keys' fill keys pack them, among the random ones)
-- (the change and the verify run with a schema first on the search_path
-- whose operators and functions match theirs more closely than
-- pg_catalog's and raise an error: none of them is called)
SELECT change AS s1_change, split_part(verify, '; --', 1) AS s1_verify
  FROM write_path_report() WHERE scenario = 'S1' \gset
\i sql/include/planted.sql
SET search_path = planted, pg_catalog, public;
:s1_change;
RESET search_path;
SELECT pg_relation_size('s1_random_pkey') / 8192 AS s1_pages_before \gset
SELECT ordered_uuid_reset();
CHECKPOINT;
INSERT INTO s1_random (n) SELECT g FROM generate_series(1, 20000) g;
SELECT pg_temp.wait_wal(pg_current_wal_insert_lsn()) AS collector_read_it;
SET search_path = planted, pg_catalog, public;
CREATE TEMP TABLE s1_verified AS :s1_verify;
RESET search_path;
SELECT fpi_share < 0.3 AS verified, leaf_splits < 0.0045 * records AS few_splits FROM s1_verified;
-- The new keys sort among the 120,000 random ones (1.6.0): with the change
-- as given, the index grows by at most 1.15 times the pages of a fresh table
-- with the same default and the same 20,000 rows (inserted by a session of
-- its own, as the generator's state is a session's).
CREATE TABLE s1_fresh (LIKE s1_random INCLUDING DEFAULTS INCLUDING INDEXES);
SELECT dblink_exec(pg_temp.connstr(), 'INSERT INTO s1_fresh (n) SELECT g FROM generate_series(1, 20000) g');
SELECT pg_relation_size('s1_random_pkey') / 8192 - :s1_pages_before
		   <= 1.15 * pg_relation_size('s1_fresh_pkey') / 8192 AS growth_within_fresh_pages;
DROP TABLE s1_fresh;
-- the same rows after the same checkpoint into the ordered key alone: nothing
SELECT ordered_uuid_reset();
CHECKPOINT;
INSERT INTO s1_ordered (n) SELECT g FROM generate_series(1, 20000) g;
SELECT pg_temp.wait_wal(pg_current_wal_insert_lsn()) AS collector_read_it;
SELECT * FROM pg_temp.findings();

-- S1, a table switched the old way (1.6.0): 50,000 random keys, then the
-- default uuid_v7_nextval() and 20,000 rows.  The new keys land among the
-- random ones, where every split is 50:50, and leave their pages half full:
-- a finding, with the change.  The fresh ordered table, written as much
-- meanwhile, is none.  The change made, 20,000 more rows split as few pages
-- as the row's verify says, and the finding is gone.
CREATE TABLE s1_switched (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int);
INSERT INTO s1_switched (n) SELECT g FROM generate_series(1, 50000) g;
ALTER TABLE s1_switched ALTER COLUMN id SET DEFAULT uuid_v7_nextval();
SELECT ordered_uuid_reset();
INSERT INTO s1_switched (n) SELECT g FROM generate_series(1, 20000) g;
INSERT INTO s1_ordered (n) SELECT g FROM generate_series(1, 20000) g;
SELECT pg_temp.wait_wal(pg_current_wal_insert_lsn()) AS collector_read_it;
SELECT * FROM pg_temp.findings();
SELECT change, evidence ~ '^the 64 leaf pages behind the newest key \(of .*\) are [0-9.]+ % full' AS evidence_says_density
  FROM write_path_report() WHERE scenario = 'S1';
-- its table locked by another session: the report does not wait for it, and
-- says it cannot see it
SELECT dblink_connect('locker', pg_temp.connstr());
SELECT dblink_exec('locker', 'BEGIN');
SELECT dblink_exec('locker', 'LOCK TABLE s1_switched IN ACCESS EXCLUSIVE MODE');
SELECT scenario, relation, finding FROM write_path_report() WHERE finding LIKE '%ordered keys among random ones%';
SELECT dblink_exec('locker', 'ROLLBACK');
SELECT dblink_disconnect('locker');
SELECT change AS mixed_change, split_part(verify, '; --', 1) AS mixed_verify
  FROM write_path_report() WHERE scenario = 'S1' \gset
SET search_path = planted, pg_catalog, public;
:mixed_change;
RESET search_path;
SELECT ordered_uuid_reset();
INSERT INTO s1_switched (n) SELECT g FROM generate_series(1, 20000) g;
SELECT pg_temp.wait_wal(pg_current_wal_insert_lsn()) AS collector_read_it;
SET search_path = planted, pg_catalog, public;
CREATE TEMP TABLE mixed_verified AS :mixed_verify;
RESET search_path;
SELECT leaf_splits < 0.0045 * records AS verified, records >= 20000 AS every_row_counted FROM mixed_verified;
SELECT * FROM pg_temp.findings();
DROP TABLE s1_random, s1_ordered, s1_switched;

-- S3: single-row INSERT transactions for 3 s, each waiting for its
-- commit's flush.  pg_regress runs the server with fsync off, so a session
-- in another database plays a slow WAL device: it holds WALWriteLock, which
-- every WAL write and flush takes, 4.9 ms of every 5 (a C function of the
-- test module, test/module, not of the extension), until this session lets
-- advisory lock 4343 go.  It is in another database, so that its own samples
-- are not this database's.
SELECT dblink_connect('slow', replace(pg_temp.connstr(), 'dbname=' || current_database(), 'dbname=postgres'));
SELECT dblink_exec('slow', $$CREATE FUNCTION pg_temp.slow_wal_flush(int, int, text, int) RETURNS int
	AS 'ordered_uuid_test', 'ou_test_slow_wal_flush' LANGUAGE C STRICT$$);
-- start the slow device and return once it holds the lock
CREATE FUNCTION pg_temp.slow_wal_start() RETURNS bool LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_advisory_lock(4343);
	PERFORM dblink_send_query('slow', $q$SELECT pg_temp.slow_wal_flush(4900, 100,
		'SELECT ''done'' WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_locks
		  WHERE locktype = ''advisory'' AND objid = 4343 AND granted)', 120000)$q$);
	FOR i IN 1 .. 300 LOOP
		PERFORM pg_stat_clear_snapshot();	-- pg_stat_activity is cached per transaction
		IF EXISTS (SELECT FROM pg_stat_activity
				   WHERE datname = 'postgres' AND query LIKE '%slow_wal_flush%' AND state = 'active') THEN
			RETURN true;
		END IF;
		PERFORM pg_sleep(0.1);
	END LOOP;
	RETURN false;
END $$;
CREATE FUNCTION pg_temp.slow_wal_stop() RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
	n int;
BEGIN
	PERFORM pg_advisory_unlock(4343);
	SELECT cycles INTO n FROM dblink_get_result('slow') AS r(cycles int);
	PERFORM FROM dblink_get_result('slow') AS r(cycles int);	-- the end of the results
	RETURN n > 0;
END $$;
CREATE TABLE s3_events (id bigint GENERATED ALWAYS AS IDENTITY, v int);
-- single-row INSERTs for 3 s, rows_per_commit a transaction
CREATE PROCEDURE pg_temp.insert_for_3s(rows_per_commit int) LANGUAGE plpgsql AS $$
DECLARE
	stop timestamptz := clock_timestamp() + interval '3 seconds';
BEGIN
	WHILE clock_timestamp() < stop LOOP
		FOR i IN 1 .. rows_per_commit LOOP
			INSERT INTO s3_events (v) VALUES (i);
		END LOOP;
		COMMIT;
	END LOOP;
END $$;
SELECT pg_temp.slow_wal_start() AS started;
SELECT ordered_uuid_reset();
CALL pg_temp.insert_for_3s(1);
SELECT pg_temp.slow_wal_stop() AS device_was_slow;
SELECT * FROM pg_temp.findings();
-- its verify, run as given with the planted schema first: the share the
-- finding measured
SELECT split_part(verify, '; --', 1) AS s3_verify FROM write_path_report() WHERE scenario = 'S3' \gset
SET search_path = planted, pg_catalog, public;
CREATE TEMP TABLE s3_verified AS :s3_verify;
RESET search_path;
SELECT flush >= 0.3 * active AS flush_share_past_threshold FROM s3_verified;
-- the same single-row INSERTs on the same slow device for 3 s, 10,000 a
-- transaction: the work is the rows', not the flushes'
SELECT pg_temp.slow_wal_start() AS started;
SELECT ordered_uuid_reset();
CALL pg_temp.insert_for_3s(10000);
SELECT pg_temp.slow_wal_stop() AS device_was_slow;
SELECT * FROM pg_temp.findings();
SELECT dblink_disconnect('slow');
DROP TABLE s3_events;

-- S4: 20,000 rows of 100 groups, written interleaved and written group after
-- group, each table with an index on the group.  Only the interleaved one is
-- scattered: a group's 200 rows on 200 pages, where packed they fill 4.
SELECT ordered_uuid_reset();
CREATE TABLE s4_interleaved (grp int, seq int, pad text);
INSERT INTO s4_interleaved SELECT i % 100, i, repeat('x', 80) FROM generate_series(0, 19999) i;
CREATE INDEX ON s4_interleaved (grp);
CREATE TABLE s4_grouped (grp int, seq int, pad text);
INSERT INTO s4_grouped SELECT i / 200, i, repeat('x', 80) FROM generate_series(0, 19999) i;
CREATE INDEX ON s4_grouped (grp);
-- before ANALYZE it cannot tell
SELECT relation, finding FROM write_path_report() WHERE relation IS NOT NULL ORDER BY rank;
ANALYZE s4_interleaved, s4_grouped;
SELECT * FROM pg_temp.findings();
SELECT change FROM write_path_report() WHERE scenario = 'S4';
-- the change it names, made as given, and its verify (ANALYZE, then the
-- amplification), with the planted schema first: under 4, and nothing left
-- to find
SELECT change AS s4_change, split_part(split_part(verify, '; --', 1), '; ', 1) AS s4_analyze,
	   split_part(split_part(verify, '; --', 1), '; ', 2) AS s4_verify
  FROM write_path_report() WHERE scenario = 'S4' \gset
SET search_path = planted, pg_catalog, public;
:s4_change
;
:s4_analyze;
CREATE TEMP TABLE s4_verified AS :s4_verify;
RESET search_path;
SELECT amplification < 4 AS verified FROM s4_verified;
SELECT * FROM pg_temp.findings();
DROP TABLE s4_interleaved, s4_grouped;
