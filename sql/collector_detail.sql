--
-- The collector's detailed wait profile and history ring, on a server
-- started with shared_preload_libraries = 'ordered_uuid',
-- ordered_uuid.profile_queries = on, ordered_uuid.profile_pids = on and
-- ordered_uuid.history_size = 500 (sql/collector_detail.conf, make
-- installcheck-preload).  compute_query_id is left at its default,
-- auto: profile_queries asks core for query ids.  Other sessions come from
-- dblink (they log in as other roles, and into another database); their
-- pids and query ids, read from pg_stat_activity while they run, are the
-- independent measurement.  Only booleans and counts printed.  Two
-- statements' known waits, each in its own row and in the history, are
-- specs/collector_detail_waits.spec.
--
SET timezone = 'UTC';
CREATE EXTENSION dblink;
\i sql/include/collector_helpers.sql

-- the query id of process p's running statement, once it shows the wait
-- event ev (at most ~15 s)
CREATE FUNCTION pg_temp.wait_event_of(p int, ev text, OUT query_id bigint) LANGUAGE plpgsql AS $$
BEGIN
	FOR i IN 1..300 LOOP
		PERFORM pg_stat_clear_snapshot();
		SELECT a.query_id INTO query_id FROM pg_stat_activity a
		 WHERE a.pid = p AND a.wait_event = ev AND a.state = 'active';
		IF FOUND THEN
			RETURN;
		END IF;
		PERFORM pg_sleep(0.05);
	END LOOP;
	query_id := NULL;
END $$;

-- the keys of wait_profile whose samples or time differ from the sum of
-- wait_profile_detail's rows, as the current role sees both (0 while the
-- worker is asleep)
CREATE FUNCTION pg_temp.keys_that_differ() RETURNS bigint LANGUAGE sql AS $$
	SELECT count(*)
	  FROM (SELECT datid, backend_type, wait_event_type, wait_event, sum(samples) AS samples,
				   sum(est_time) AS est_time
			  FROM wait_profile_detail GROUP BY 1, 2, 3, 4) d
	  FULL JOIN wait_profile p USING (datid, backend_type, wait_event_type, wait_event)
	 WHERE d.samples IS DISTINCT FROM p.samples OR d.est_time IS DISTINCT FROM p.est_time
$$;

-- what the current role, neither superuser nor pg_read_all_stats, sees in
-- the detailed views, as pg_stat_activity shows it a process's wait event
-- and query id only for its own role's sessions: its own sleeping session
-- (pid own_pid, query id own_qid) in full in both views; every other
-- process (another role's, or one without a role) in wait_profile_detail
-- only within anonymous rows (pid, userid and queryid NULL), one per key of
-- wait_profile, another role's pg_sleep among them; and in wait_history not
-- at all (a sample's time would single out its session)
CREATE FUNCTION pg_temp.role_view(own_pid int, own_qid bigint)
RETURNS TABLE (own_rows_shown bool, others_anonymous bool, anonymous_rows_folded bool,
			   other_sleep_counted bool, own_history_shown bool, history_only_own bool)
LANGUAGE sql AS $$
	WITH me AS (SELECT oid FROM pg_roles WHERE rolname = current_user),
	d AS (SELECT * FROM wait_profile_detail),
	h AS (SELECT * FROM wait_history)
	SELECT (SELECT bool_or(pid = own_pid AND userid = me.oid AND queryid = own_qid
						   AND wait_event = 'PgSleep') FROM d),
		   (SELECT bool_and(coalesce(userid = me.oid, false)
							OR (pid IS NULL AND userid IS NULL AND queryid IS NULL)) FROM d),
		   (SELECT count(*) = count(DISTINCT (datid, backend_type, wait_event_type, wait_event))
			  FROM d WHERE userid IS NULL),
		   (SELECT bool_or(wait_event = 'PgSleep' AND userid IS NULL
						   AND datid = (SELECT oid FROM pg_database WHERE datname = current_database()))
			  FROM d),
		   (SELECT bool_or(pid = own_pid AND userid = me.oid AND queryid = own_qid
						   AND wait_event = 'PgSleep') FROM h),
		   (SELECT bool_and(coalesce(userid = me.oid, false) AND pid IS NOT NULL) FROM h)
	  FROM me
$$;

SELECT name, setting, context FROM pg_settings
 WHERE name IN ('ordered_uuid.profile_queries', 'ordered_uuid.profile_pids',
				'ordered_uuid.history_size', 'compute_query_id')
 ORDER BY name;
SELECT profile_queries, profile_pids, history_size FROM collector_detail_info();
-- the two parts exist in shared memory
SELECT count(*) AS detail_allocations FROM pg_shmem_allocations
 WHERE name IN ('ordered_uuid detailed wait profile', 'ordered_uuid wait history');

--
-- 1. compute_query_id = off in one session: its samples have no query id.
--
SELECT dblink_connect('noqid', pg_temp.connstr());
SELECT t.p AS noqid_pid FROM dblink('noqid', 'SELECT pg_backend_pid()') AS t(p int) \gset
SELECT * FROM dblink('noqid', 'SET compute_query_id = off') AS t(x text);
SELECT * FROM dblink('noqid', 'SELECT pg_sleep(0.5)') AS t(x text);
SELECT pg_temp.wait_rounds(2) AS sampled_noqid;
SELECT count(*) > 0 AS noqid_sleep_seen, bool_and(queryid IS NULL) AS noqid_has_no_query_id
  FROM wait_profile_detail WHERE pid = :noqid_pid AND wait_event = 'PgSleep';

--
-- 2. With the worker asleep the tables stand still: the detailed profile
-- adds up to wait_profile exactly, key by key, and the history holds as
-- many samples as collector_detail_info() says.
--
SELECT pg_temp.wait_rounds(60) AS enough_rounds_to_fill_the_ring;
-- read while the worker writes (rounds every 1 ms: the ring turns over every
-- few of them): every read is oldest first, and holds at most the ring
CREATE FUNCTION pg_temp.history_in_order() RETURNS bool LANGUAGE sql AS $$
	SELECT coalesce(bool_and(sample_time >= prev), true) AND count(*) BETWEEN 1 AND 500
	  FROM (SELECT sample_time, lag(sample_time) OVER (ORDER BY ordinality) AS prev
			  FROM ordered_uuid_wait_history() WITH ORDINALITY) h
$$;
ALTER SYSTEM SET ordered_uuid.sample_interval = 1;
SELECT pg_reload_conf();
SELECT pg_temp.wait_rounds(100) AS fast_rounds;
SELECT count(*) FILTER (WHERE pg_temp.history_in_order()) AS reads_in_order
  FROM generate_series(1, 200);
ALTER SYSTEM SET ordered_uuid.sample_interval = '1min';
SELECT pg_reload_conf();
SELECT pg_temp.wait_asleep() AS worker_asleep;
SELECT pg_temp.keys_that_differ();
SELECT detail_entries = (SELECT count(*) FROM wait_profile_detail) AS detail_entries_counted,
	   detail_dropped = 0 AS nothing_dropped,
	   history_entries = (SELECT count(*) FROM wait_history) AS history_entries_counted,
	   history_entries = 500 AS history_full,
	   pg_temp.history_in_order() AS history_in_order,
	   history_overwritten > 0 AS history_overwritten
  FROM collector_detail_info();
-- a reset empties both
SELECT ordered_uuid_reset();
SELECT detail_entries, detail_dropped, history_entries, history_overwritten FROM collector_detail_info();
SELECT count(*) AS detail_rows FROM wait_profile_detail;
SELECT count(*) AS history_rows FROM wait_history;
ALTER SYSTEM RESET ordered_uuid.sample_interval;
SELECT pg_reload_conf();
SELECT pg_temp.wait_rounds(5) AS sampling_again;

--
-- 3. Visibility: the database rule of wait_profile; and, as pg_stat_activity
-- shows a process's wait event only to members of its role and of
-- pg_read_all_stats, any other process is folded into anonymous rows of
-- wait_profile_detail and left out of wait_history (pg_temp.role_view).
-- Checked with the worker asleep while the sessions of regress_ou_q1, two of
-- regress_ou_q2, and one in a database regress_ou_q2 may not connect to are
-- sleeping, so that every role reads the same tables and the (short) history
-- holds their samples.
--
CREATE ROLE regress_ou_q1 LOGIN;
CREATE ROLE regress_ou_q2 LOGIN;
SELECT oid AS q1_oid FROM pg_roles WHERE rolname = 'regress_ou_q1' \gset
CREATE DATABASE regress_ou_hidden2;
REVOKE CONNECT ON DATABASE regress_ou_hidden2 FROM PUBLIC;
SELECT dblink_connect('q1', pg_temp.connstr('regress_ou_q1'));
SELECT t.p AS q1_pid FROM dblink('q1', 'SELECT pg_backend_pid()') AS t(p int) \gset
SELECT dblink_connect('q2', pg_temp.connstr('regress_ou_q2'));
SELECT t.p AS q2_pid FROM dblink('q2', 'SELECT pg_backend_pid()') AS t(p int) \gset
SELECT dblink_connect('q2b', pg_temp.connstr('regress_ou_q2'));
SELECT t.p AS q2b_pid FROM dblink('q2b', 'SELECT pg_backend_pid()') AS t(p int) \gset
SELECT dblink_connect('hidden2', replace(pg_temp.connstr(), 'dbname=' || current_database(), 'dbname=regress_ou_hidden2'));
SELECT t.p AS hidden_pid FROM dblink('hidden2', 'SELECT pg_backend_pid()') AS t(p int) \gset
SELECT dblink_send_query('q1', 'SELECT pg_sleep(3)');
SELECT dblink_send_query('q2', 'SELECT pg_sleep(3)');
SELECT dblink_send_query('q2b', 'SELECT pg_sleep(3)');
SELECT dblink_send_query('hidden2', 'SELECT pg_sleep(3)');
SELECT query_id AS q1_qid FROM pg_temp.wait_event_of(:q1_pid, 'PgSleep') \gset
SELECT query_id AS q2_qid FROM pg_temp.wait_event_of(:q2_pid, 'PgSleep') \gset
SELECT query_id IS NOT NULL AS q2b_sleeping FROM pg_temp.wait_event_of(:q2b_pid, 'PgSleep');
SELECT query_id IS NOT NULL AS hidden_sleeping FROM pg_temp.wait_event_of(:hidden_pid, 'PgSleep');
SELECT :'q1_qid' <> '' AND :'q2_qid' <> '' AS q1_q2_sleeping;
SELECT pg_temp.wait_rounds(3) AS sampled_sleepers;
ALTER SYSTEM SET ordered_uuid.sample_interval = '1min';
SELECT pg_reload_conf();
SELECT pg_temp.wait_asleep() AS worker_asleep;
SELECT count(*) > 0 AS superuser_sees_q1_in_full
  FROM wait_profile_detail WHERE pid = :q1_pid AND userid = :q1_oid AND queryid = :q1_qid
   AND wait_event = 'PgSleep';
SELECT count(*) > 0 AS superuser_sees_q1_history_in_full
  FROM wait_history WHERE pid = :q1_pid AND userid = :q1_oid AND queryid = :q1_qid
   AND wait_event = 'PgSleep';
SELECT count(*) > 0 AS superuser_sees_hidden FROM wait_history WHERE database = 'regress_ou_hidden2';
SET ROLE regress_ou_q1;
SELECT * FROM pg_temp.role_view(:q1_pid, :q1_qid);
SELECT pg_temp.keys_that_differ() AS q1_keys_that_differ;
RESET ROLE;
SET ROLE regress_ou_q2;
SELECT * FROM pg_temp.role_view(:q2_pid, :q2_qid);
SELECT pg_temp.keys_that_differ() AS q2_keys_that_differ;
SELECT count(*) AS q2_sees_hidden_detail FROM wait_profile_detail WHERE database = 'regress_ou_hidden2';
SELECT count(*) AS q2_sees_hidden_history FROM wait_history WHERE database = 'regress_ou_hidden2';
SELECT count(*) > 0 AS q2_sees_no_db_rows FROM wait_profile_detail WHERE database IS NULL;
SELECT ordered_uuid_reset();
RESET ROLE;
GRANT pg_read_all_stats TO regress_ou_q2;
SET ROLE regress_ou_q2;
SELECT count(*) FILTER (WHERE pid = :q1_pid AND userid = :q1_oid AND queryid = :q1_qid) > 0
		   AS stats_reader_sees_q1_in_full,
	   bool_and(pid IS NOT NULL) AS stats_reader_sees_every_pid,
	   bool_or(datid = 0) AS stats_reader_sees_no_db_rows
  FROM wait_profile_detail;
SELECT count(*) FILTER (WHERE pid = :q1_pid AND userid = :q1_oid AND queryid = :q1_qid) > 0
		   AS stats_reader_sees_q1_history_in_full,
	   bool_and(pid IS NOT NULL) AS stats_reader_sees_every_history_pid
  FROM wait_history;
SELECT pg_temp.keys_that_differ() AS stats_reader_keys_that_differ;
SELECT count(*) > 0 AS stats_reader_sees_hidden FROM wait_profile_detail WHERE database = 'regress_ou_hidden2';
RESET ROLE;
ALTER SYSTEM RESET ordered_uuid.sample_interval;
SELECT pg_reload_conf();
SELECT * FROM dblink_get_result('q1') AS t(x text);
SELECT * FROM dblink_get_result('q1') AS t(x text);
SELECT * FROM dblink_get_result('q2') AS t(x text);
SELECT * FROM dblink_get_result('q2') AS t(x text);
SELECT * FROM dblink_get_result('q2b') AS t(x text);
SELECT * FROM dblink_get_result('q2b') AS t(x text);
SELECT * FROM dblink_get_result('hidden2') AS t(x text);
SELECT * FROM dblink_get_result('hidden2') AS t(x text);

SELECT dblink_disconnect(c)
  FROM unnest(ARRAY['noqid', 'q1', 'q2', 'q2b', 'hidden2']) c;
DROP DATABASE regress_ou_hidden2;
DROP ROLE regress_ou_q1, regress_ou_q2;
