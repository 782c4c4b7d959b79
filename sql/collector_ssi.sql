--
-- Serialization failures and predicate locks (scenario S5), on a server with
-- shared_preload_libraries = 'ordered_uuid' (sql/collector_ssi.conf, make
-- installcheck-preload).  The failures are made by sessions of dblink, in
-- an order that makes them certain, and by bench_serializable(); each count
-- is checked against the failures the clients saw.  What the collector
-- misses is checked too: a failure a PL/pgSQL block handles, and one in a
-- session that does not log errors.  write_path_report()'s S5 is in
-- specs/diag_report_s5.spec.
--
SET timezone = 'UTC';
\set ON_ERROR_STOP on
CREATE EXTENSION dblink;
\set ON_ERROR_STOP off
\i sql/include/collector_helpers.sql
\i sql/include/err.sql

-- a session's failures so far, and what it may count from
CREATE FUNCTION pg_temp.failures(OUT ssi bigint, OUT other bigint) LANGUAGE sql AS $$
	SELECT coalesce(sum(ssi_failures), 0)::bigint, coalesce(sum(other_failures), 0)::bigint
	  FROM serialization_failure_stats WHERE database = current_database()
$$;

SELECT name, setting, unit, context FROM pg_settings WHERE name = 'ordered_uuid.predicate_lock_interval';
SELECT ordered_uuid_reset();
SELECT * FROM pg_temp.failures();
SELECT predicate_lock_interval, lock_samples < 100 AS few_samples, lock_entries, lock_evicted,
	   lock_dropped, failure_slots
  FROM serialization_info();

CREATE TABLE skew (id int PRIMARY KEY, v int);
INSERT INTO skew VALUES (1, 0), (2, 0);

-- Write skew: a and b each read both rows, then each writes the row the
-- other read; a commits first, so b's commit fails.  dblink raises b's
-- error here with its SQLSTATE: caught, so that only b's server session
-- logs it (and the collector counts it once).
SELECT dblink_connect('a', pg_temp.connstr()), dblink_connect('b', pg_temp.connstr());
SELECT dblink_exec('a', 'BEGIN ISOLATION LEVEL SERIALIZABLE'),
	   dblink_exec('b', 'BEGIN ISOLATION LEVEL SERIALIZABLE');
SELECT * FROM dblink('a', 'SELECT sum(v) FROM skew') AS t(s bigint);
SELECT * FROM dblink('b', 'SELECT sum(v) FROM skew') AS t(s bigint);
SELECT dblink_exec('a', 'UPDATE skew SET v = 1 WHERE id = 1'),
	   dblink_exec('b', 'UPDATE skew SET v = 1 WHERE id = 2');
SELECT dblink_exec('a', 'COMMIT');
SELECT pg_temp.err($$SELECT dblink_exec('b', 'COMMIT')$$) AS b_commit;
SELECT ssi, other FROM pg_temp.failures();

-- A concurrent update under REPEATABLE READ: SQLSTATE 40001 too, not SSI's.
SELECT dblink_exec('a', 'BEGIN ISOLATION LEVEL REPEATABLE READ');
SELECT * FROM dblink('a', 'SELECT v FROM skew WHERE id = 1') AS t(v int);
SELECT dblink_exec('b', 'UPDATE skew SET v = 2 WHERE id = 1');
SELECT pg_temp.err($$SELECT dblink_exec('a', 'UPDATE skew SET v = 3 WHERE id = 1')$$) AS a_update;
SELECT dblink_exec('a', 'ROLLBACK');
SELECT ssi, other FROM pg_temp.failures();

-- Missed: the same failure handled by a PL/pgSQL block in the session where
-- it happens (never logged), and one in a session whose log_min_messages is
-- fatal (errors do not reach the log).
SELECT dblink_exec('a', 'BEGIN ISOLATION LEVEL REPEATABLE READ');
SELECT * FROM dblink('a', 'SELECT v FROM skew WHERE id = 1') AS t(v int);
SELECT dblink_exec('b', 'UPDATE skew SET v = 4 WHERE id = 1');
SELECT dblink_exec('a', $q$DO $do$ BEGIN
		UPDATE skew SET v = 5 WHERE id = 1;
	EXCEPTION WHEN serialization_failure THEN
		NULL;
	END $do$$q$) AS handled;
SELECT dblink_exec('a', 'ROLLBACK');
SELECT dblink_connect('quiet', pg_temp.connstr() || ' options=''-c log_min_messages=fatal''');
SELECT dblink_exec('quiet', 'BEGIN ISOLATION LEVEL REPEATABLE READ');
SELECT * FROM dblink('quiet', 'SELECT v FROM skew WHERE id = 1') AS t(v int);
SELECT dblink_exec('b', 'UPDATE skew SET v = 6 WHERE id = 1');
SELECT pg_temp.err($$SELECT dblink_exec('quiet', 'UPDATE skew SET v = 7 WHERE id = 1')$$) AS quiet_update;
SELECT dblink_exec('quiet', 'ROLLBACK');
SELECT ssi, other FROM pg_temp.failures();
SELECT dblink_disconnect('a'), dblink_disconnect('b'), dblink_disconnect('quiet');

-- The failures of a benchmark's clients (each logged as a client's, then
-- retried) are counted, one for one: version 7 keys, four clients that each
-- read the index's last keys, two seconds.
SELECT * FROM pg_temp.failures() \gset before_
CREATE TEMP TABLE run AS
SELECT * FROM bench_serializable(ARRAY['uuid_v7_nextval()'], ARRAY[4], seconds => 2,
								 read_pattern => 'range', prefill => 2000, repeats => 1, keep => true);
SELECT failures > 0 AS failed, transactions > 0 AS committed, max_retries > 0 AS retried FROM run;
SELECT f.ssi - :before_ssi = r.failures AS ssi_counted_one_for_one, f.other = :before_other AS no_other
  FROM pg_temp.failures() f, run r;
-- its index's pages, sampled (whether a sample caught two of the clients'
-- short transactions at once is chance: specs/diag_report_s5.spec makes it
-- certain)
SELECT p.relation IS NOT NULL AS named, p.samples > 0 AS sampled, p.page_locks > 0 AS page_locks
  FROM predicate_lock_stats p JOIN run r ON p.relation = (r.kept_table || '_pkey')::regclass;
SELECT lock_samples > 0 AS sampled, locks_sampled > 0 AS locks, sample_time > interval '0' AS timed,
	   max_sample_time <= sample_time AS max_within, lock_entries > 0 AS entries
  FROM serialization_info();
SELECT bench_cleanup() AS dead_runs_dropped;	-- the kept run is no dead run
SET client_min_messages = warning;
DO $$ BEGIN EXECUTE format('DROP SCHEMA %I CASCADE', (SELECT split_part(kept_table, '.', 1) FROM run)); END $$;
RESET client_min_messages;

-- Everyone reads the views (rows of databases they may not connect to
-- hidden, as in the other views); only the role with the reset's EXECUTE
-- resets.
CREATE ROLE regress_ssi_reader;
SET ROLE regress_ssi_reader;
SELECT ssi > 0 AS sees_failures FROM pg_temp.failures();
SELECT count(*) > 0 AS sees_locks FROM predicate_lock_stats;
SELECT pg_temp.err('SELECT ordered_uuid_reset()') AS reset;
RESET ROLE;
DROP ROLE regress_ssi_reader;

-- A reset zeroes the failures (the database keeps its row) and empties the
-- predicate lock statistics.
SELECT ordered_uuid_reset();
SELECT * FROM pg_temp.failures();
SELECT count(*) AS rows_kept FROM serialization_failure_stats WHERE database = current_database();
SELECT lock_samples < 100 AS few_samples, lock_evicted, lock_dropped FROM serialization_info();
SELECT count(*) FILTER (WHERE samples > 10) AS old_entries FROM predicate_lock_stats;
DROP TABLE skew;
