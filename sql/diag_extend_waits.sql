--
-- extend_lock_waits: real waiters, attributed to the right relation.
--
-- Relation extension waits are short and, on PG16+, rare; to make the test
-- deterministic on every version a helper session holds ext_t's extension
-- lock (a C function of the test module, test/module, not of the extension)
-- until two bulk inserts, in two more sessions, queue for it -- they are real
-- waiters: each must extend the empty table.  The view is then read from
-- this session, as a superuser and as an ordinary role.
--
SET client_min_messages = warning;	-- whether or not an earlier test made it
-- dblink must load, or the sessions below never come: stop at once if it
-- does not (a server that finds another PostgreSQL's libpq before its own fails
-- here: start it with its lib directory first on LD_LIBRARY_PATH).
\set ON_ERROR_STOP on
CREATE EXTENSION IF NOT EXISTS dblink;
\set ON_ERROR_STOP off
RESET client_min_messages;
\set VERBOSITY sqlstate
CREATE SCHEMA diag_test;
CREATE FUNCTION diag_test.hold_extension_lock(rel regclass, waiters int, linger_ms int, timeout_ms int)
RETURNS int AS 'ordered_uuid_test', 'ou_hold_extension_lock' LANGUAGE C STRICT;
CREATE TABLE ext_t (id int, pad text) WITH (autovacuum_enabled = off);
CREATE TABLE ext_other (id int) WITH (autovacuum_enabled = off);
CREATE ROLE regress_diag_watcher;
GRANT USAGE ON SCHEMA public TO regress_diag_watcher;
CREATE TEMP TABLE seen AS SELECT * FROM extend_lock_waits WHERE false;
CREATE TEMP TABLE seen_plain AS SELECT * FROM extend_lock_waits WHERE false;
GRANT INSERT ON seen_plain TO regress_diag_watcher;

-- Nobody waits yet.
SELECT count(*) AS waiters_before FROM extend_lock_waits WHERE relation IN ('ext_t'::regclass, 'ext_other'::regclass);

SELECT format('dbname=%s user=%s host=%s port=%s', current_database(), current_user,
			  current_setting('unix_socket_directories'), current_setting('port')) AS conn \gset
SELECT dblink_connect('holder', :'conn'), dblink_connect('w1', :'conn'), dblink_connect('w2', :'conn');
SELECT w1.pid AS w1_pid, w2.pid AS w2_pid, h.pid AS holder_pid
FROM dblink('w1', 'SELECT pg_backend_pid()') AS w1(pid int),
	 dblink('w2', 'SELECT pg_backend_pid()') AS w2(pid int),
	 dblink('holder', 'SELECT pg_backend_pid()') AS h(pid int) \gset

-- The holder takes the lock and keeps it until 2 waiters queue (+3 s).
SELECT dblink_send_query('holder', 'SELECT diag_test.hold_extension_lock(''ext_t'', 2, 3000, 60000)');
DO $$
BEGIN
	FOR i IN 1..6000 LOOP
		EXIT WHEN EXISTS (SELECT 1 FROM pg_locks
						  WHERE locktype = 'extend' AND relation = 'ext_t'::regclass AND granted);
		PERFORM pg_sleep(0.01);
	END LOOP;
END
$$;
-- Two bulk inserts into the empty table: both must extend it, both wait.
SELECT dblink_send_query('w1', 'INSERT INTO ext_t SELECT g, repeat(''x'', 100) FROM generate_series(1, 5000) AS g');
SELECT dblink_send_query('w2', 'INSERT INTO ext_t SELECT g, repeat(''y'', 100) FROM generate_series(1, 5000) AS g');
-- Watch the view until both show up (with their wait start), as superuser
-- and as an ordinary role.
DO $$
BEGIN
	FOR i IN 1..6000 LOOP
		-- pg_stat_activity is cached per transaction: refresh it.
		PERFORM pg_stat_clear_snapshot();
		DELETE FROM seen;
		INSERT INTO seen SELECT * FROM extend_lock_waits;
		IF (SELECT count(*) FROM seen WHERE relation = 'ext_t'::regclass AND waiting IS NOT NULL) >= 2 THEN
			SET LOCAL ROLE regress_diag_watcher;
			INSERT INTO seen_plain SELECT * FROM extend_lock_waits;
			RESET ROLE;
			EXIT;
		END IF;
		PERFORM pg_sleep(0.01);
	END LOOP;
END
$$;
SELECT count(*) AS waiters,
	   count(*) FILTER (WHERE relation = 'ext_t'::regclass) AS on_ext_t,
	   bool_and(pid IN (:w1_pid, :w2_pid)) AS right_pids,
	   bool_and(:holder_pid = ANY (blocked_by) AND blocked_by <@ ARRAY[:holder_pid, :w1_pid, :w2_pid]) AS blocked_by_holder,
	   bool_and(waiting >= interval '0') AS waiting_ok,
	   bool_and(backend_type = 'client backend') AS backend_type_ok,
	   bool_and(query LIKE 'INSERT INTO ext_t %') AS query_shown,
	   bool_and(wait_event_type = 'Lock' AND wait_event = 'extend') AS wait_event_ok
FROM seen;
-- An ordinary role sees the waits but not other users' queries.
SELECT count(*) AS plain_waiters,
	   bool_and(query = '<insufficient privilege>') AS query_hidden
FROM seen_plain WHERE relation = 'ext_t'::regclass;

-- Everybody finishes; the inserts went through.
SELECT * FROM dblink_get_result('holder') AS t(most_waiters int);
SELECT * FROM dblink_get_result('w1') AS t(status text);
SELECT * FROM dblink_get_result('w2') AS t(status text);
SELECT dblink_disconnect('holder'), dblink_disconnect('w1'), dblink_disconnect('w2');
SELECT count(*) AS rows_inserted FROM ext_t;
SELECT count(*) AS waiters_after FROM extend_lock_waits WHERE relation = 'ext_t'::regclass;

DROP TABLE ext_t, ext_other;
DROP SCHEMA diag_test CASCADE;
REVOKE USAGE ON SCHEMA public FROM regress_diag_watcher;
DROP TABLE seen_plain;
DROP ROLE regress_diag_watcher;
