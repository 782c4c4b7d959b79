--
-- The collector, on a server with shared_preload_libraries = 'ordered_uuid'
-- (sql/collector.conf, make installcheck-preload).  A session in another
-- database comes from dblink; the waits that concurrent sessions force are
-- in specs/collector_episodes.spec.  Nothing printed depends on timing: only
-- booleans, counts and relation names, each checked against an independent
-- measurement.
--
SET timezone = 'UTC';
-- dblink must load, or the sessions below never come: stop at once if it
-- does not (a server that finds another PostgreSQL's libpq before its own fails
-- here: start it with its lib directory first on LD_LIBRARY_PATH).
\set ON_ERROR_STOP on
CREATE EXTENSION dblink;
\set ON_ERROR_STOP off
\i sql/include/collector_helpers.sql

-- The worker runs and shows in pg_stat_activity.
SELECT i.worker_pid = a.pid AS worker_in_pg_stat_activity, a.datid IS NULL AS no_database
  FROM collector_info() i JOIN pg_stat_activity a ON a.pid = i.worker_pid
 WHERE a.backend_type = 'ordered_uuid collector';
SELECT pg_temp.wait_rounds(5) AS sampling;
SELECT setting, unit, context FROM pg_settings WHERE name = 'ordered_uuid.sample_interval';

-- At the defaults the detailed profile and the history are off and take no
-- shared memory; reading them says which setting turns them on.
SELECT name, setting, context FROM pg_settings
 WHERE name IN ('ordered_uuid.profile_queries', 'ordered_uuid.profile_pids', 'ordered_uuid.history_size')
 ORDER BY name;
SELECT * FROM collector_detail_info();
SELECT count(*) AS detail_allocations FROM pg_shmem_allocations
 WHERE name IN ('ordered_uuid detailed wait profile', 'ordered_uuid wait history');
SELECT count(*) FROM wait_profile_detail;
SELECT count(*) FROM wait_history;

-- A server's first start (pg_regress's instance) has no statistics saved by
-- an earlier shutdown: they start afresh, and collector_info() says why.
SELECT stats_restored, stats_saved_at IS NULL AS none_saved, stats_start_reason
  FROM collector_info();

-- Reset empties everything, and says so.
SELECT ordered_uuid_reset();
SELECT rounds < 50 AS rounds_restarted, profile_dropped = 0 AS nothing_dropped,
	   stats_restored, stats_start_reason
  FROM collector_info();

--
-- 1. Running on CPU: this session computes for 0.5 s (without a wait event).
--
DO $$
DECLARE
	t0 timestamptz := clock_timestamp();
	x float8 := 0;
BEGIN
	WHILE clock_timestamp() < t0 + interval '0.5 s' LOOP
		x := x + sqrt(random());
	END LOOP;
END $$;
SELECT pg_temp.wait_rounds(3) AS sampled_after_cpu;
SELECT est_time BETWEEN interval '0.3 s' AND interval '10 s' AS cpu_time_seen
  FROM wait_profile
 WHERE database = current_database() AND backend_type = 'client backend' AND wait_event_type = 'CPU';
-- the rest of the profile is plausible: processes without a database
SELECT count(*) FILTER (WHERE database IS NULL AND backend_type = 'checkpointer') = 1 AS checkpointer_row,
	   bool_and(samples > 0 AND est_time > '0'::interval) AS all_positive
  FROM wait_profile;

--
-- 2. Split counts follow the WAL and agree with index_splits() over the
-- same WAL.
--
CREATE TABLE split_t (id uuid PRIMARY KEY, n int);
CREATE INDEX split_t_n ON split_t (n);
SELECT pg_current_wal_insert_lsn() AS lsn0 \gset
INSERT INTO split_t SELECT gen_random_uuid(), g FROM generate_series(1, 30000) g;
SELECT pg_current_wal_flush_lsn() AS lsn1 \gset
SELECT pg_temp.wait_wal(:'lsn1') AS collector_caught_up;
SELECT s.index, s.leaf_splits = w.leaf_splits AS leaf_equal,
	   s.upper_splits = w.upper_splits AS upper_equal,
	   s.root_splits = w.root_splits AS root_equal,
	   s.leaf_splits > 50 AS many_leaf_splits
  FROM index_split_stats s
  JOIN index_splits(:'lsn0') w ON w.index = s.index
 WHERE s.index IN ('split_t_pkey'::regclass, 'split_t_n'::regclass)
 ORDER BY s.index::text;
SELECT wal_skipped_bytes = 0 AS nothing_skipped, wal_records > 0 AS records_read
  FROM collector_info();

--
-- 3. Kill the worker: it comes back (bgw_restart_time = 1 s), keeps its
-- statistics, and the views keep working.
--
SELECT worker_pid AS old_pid FROM collector_info() \gset
SELECT sum(samples) AS ckpt_before FROM wait_profile WHERE backend_type = 'checkpointer' \gset
SELECT pg_terminate_backend(:old_pid);
CREATE FUNCTION pg_temp.wait_new_worker(old int) RETURNS bool LANGUAGE plpgsql AS $$
BEGIN
	FOR i IN 1..300 LOOP
		PERFORM pg_stat_clear_snapshot();
		IF EXISTS (SELECT FROM collector_info() c JOIN pg_stat_activity a ON a.pid = c.worker_pid
					WHERE c.worker_pid <> old) THEN
			RETURN true;
		END IF;
		PERFORM pg_sleep(0.1);
	END LOOP;
	RETURN false;
END $$;
SELECT pg_temp.wait_new_worker(:old_pid) AS worker_restarted;
SELECT pg_temp.wait_rounds(5) AS sampling_again;
SELECT sum(samples) > :ckpt_before AS profile_kept_and_growing FROM wait_profile WHERE backend_type = 'checkpointer';
SELECT count(*) > 0 AS splits_kept FROM index_split_stats WHERE index = 'split_t_pkey'::regclass;

--
-- 4. Without its replication slot (max_wal_keep_size = 0), WAL recycled
-- before the worker read it is skipped and counted, not an error.  The
-- worker is put to sleep (1 min interval: it reads WAL only between rounds
-- or on a reload), two segment switches and checkpoints remove the segment
-- after the one it stopped in, then a reload wakes it.
--
ALTER SYSTEM SET ordered_uuid.sample_interval = '1min';
ALTER SYSTEM SET ordered_uuid.max_wal_keep_size = 0;
SELECT pg_reload_conf();
SELECT pg_temp.wait_asleep() AS worker_asleep;
SELECT wal_retention FROM collector_info();
SELECT count(*) AS our_slots FROM pg_replication_slots WHERE slot_name = 'ordered_uuid_collector';
SELECT wal_skipped_bytes AS skipped0, pg_walfile_name(pg_current_wal_insert_lsn()) AS seg_after
  FROM collector_info() \gset
CREATE TABLE recycle_t AS SELECT generate_series(1, 1000) AS id;
SELECT pg_switch_wal() IS NOT NULL AS switched;
CHECKPOINT;
INSERT INTO recycle_t SELECT generate_series(1, 1000);
SELECT pg_switch_wal() IS NOT NULL AS switched;
CHECKPOINT;
-- independent check: the segment written after the worker fell asleep is gone
SELECT count(*) AS segment_still_there FROM pg_ls_waldir() WHERE name = :'seg_after';
ALTER SYSTEM RESET ordered_uuid.sample_interval;
ALTER SYSTEM RESET ordered_uuid.max_wal_keep_size;
SELECT pg_reload_conf();
CREATE FUNCTION pg_temp.wait_skipped(s0 bigint) RETURNS bool LANGUAGE plpgsql AS $$
BEGIN
	FOR i IN 1..300 LOOP
		IF (SELECT wal_skipped_bytes FROM collector_info()) > s0 THEN
			RETURN true;
		END IF;
		PERFORM pg_sleep(0.1);
	END LOOP;
	RETURN false;
END $$;
SELECT pg_temp.wait_skipped(:skipped0) AS skipped_bytes_counted;
SELECT pg_temp.wait_rounds(5) AS sampling_after_skip;
SELECT pg_current_wal_flush_lsn() AS lsn2 \gset
SELECT pg_temp.wait_wal(:'lsn2') AS following_again;
SELECT current_setting('ordered_uuid.sample_interval') AS interval_back;
DROP TABLE recycle_t;

--
-- 4b. With its slot (the default), the same loses nothing: while the worker
-- sleeps, 120 indexes churn, 30,000 rows go into a live index, and segment
-- switches and immediate checkpoints pass; the segment it stopped in stays,
-- its lag shows, and once awake it counts every split (pgstatindex).
--
SELECT pg_temp.wait_until($$SELECT wal_retention = 'slot' FROM collector_info()$$) AS slot_back;
CREATE EXTENSION IF NOT EXISTS pgstattuple;
CREATE TABLE keep_t (id int PRIMARY KEY);
INSERT INTO keep_t SELECT generate_series(1, 1000);
SELECT pg_current_wal_flush_lsn() AS lsn3 \gset
SELECT pg_temp.wait_wal(:'lsn3') AS caught_up_before;
ALTER SYSTEM SET ordered_uuid.sample_interval = '1min';
SELECT pg_reload_conf();
SELECT pg_temp.wait_asleep() AS worker_asleep;
SELECT wal_skipped_bytes AS skipped1, pg_walfile_name(wal_reached) AS seg_reading FROM collector_info() \gset
SELECT pg_switch_wal() IS NOT NULL AS switched;
DO $$
BEGIN
	FOR i IN 1..120 LOOP
		EXECUTE format('CREATE TABLE churn_%s (id int PRIMARY KEY)', i);
		EXECUTE format('INSERT INTO churn_%s SELECT generate_series(1, 400)', i);
		EXECUTE format('DROP TABLE churn_%s', i);
	END LOOP;
END $$;
INSERT INTO keep_t SELECT generate_series(1001, 31000);
SELECT pg_switch_wal() IS NOT NULL AS switched;
CHECKPOINT;
SELECT pg_switch_wal() IS NOT NULL AS switched;
CHECKPOINT;
SELECT count(*) AS segment_kept FROM pg_ls_waldir() WHERE name = :'seg_reading';
SELECT wal_lag_bytes > 1000000 AS lag_bytes_shown, wal_lag > interval '0' AS lag_time_shown,
	   wal_retention FROM collector_info();
ALTER SYSTEM RESET ordered_uuid.sample_interval;
SELECT pg_reload_conf();
SELECT pg_current_wal_flush_lsn() AS lsn4 \gset
SELECT pg_temp.wait_wal(:'lsn4') AS caught_up_after;
SELECT s.leaf_splits = i.leaf_pages - 1 AS leaf_exact, s.root_splits = i.tree_level AS root_exact,
	   s.upper_splits + s.root_splits = i.internal_pages AS internal_exact
  FROM index_split_stats s, pgstatindex('keep_t_pkey') i WHERE s.index = 'keep_t_pkey'::regclass;
SELECT wal_skipped_bytes = :skipped1 AS nothing_skipped, wal_lag_bytes < 1000000 AS lag_gone
  FROM collector_info();
SELECT s.active AND s.active_pid = c.worker_pid AS slot_held_by_worker
  FROM pg_replication_slots s, collector_info() c WHERE s.slot_name = 'ordered_uuid_collector';
DROP TABLE keep_t;

--
-- 5. Privileges: reset is not for PUBLIC; a plain role sees rows of its own
-- database and of processes without one, not rows of a database it may not
-- connect to (unless it has pg_read_all_stats).
--
SELECT has_function_privilege('public', 'ordered_uuid_reset()', 'EXECUTE') AS public_may_reset;
CREATE ROLE ou_plain LOGIN;
CREATE DATABASE ou_hidden;
REVOKE CONNECT ON DATABASE ou_hidden FROM PUBLIC;
SELECT dblink_connect('hidden', replace(pg_temp.connstr(), 'dbname=' || current_database(), 'dbname=ou_hidden'));
SELECT * FROM dblink('hidden', 'SELECT pg_sleep(0.5)') AS t(x text);
SELECT pg_temp.wait_rounds(2) AS sampled_hidden;
SELECT count(*) > 0 AS superuser_sees_hidden FROM wait_profile WHERE database = 'ou_hidden';
SET ROLE ou_plain;
SELECT count(*) AS plain_sees_hidden FROM wait_profile WHERE database = 'ou_hidden';
SELECT count(*) > 0 AS plain_sees_own_db FROM wait_profile WHERE database = current_database();
SELECT count(*) > 0 AS plain_sees_no_db_rows FROM wait_profile WHERE database IS NULL;
SELECT ordered_uuid_reset();
RESET ROLE;
GRANT pg_read_all_stats TO ou_plain;
SET ROLE ou_plain;
SELECT count(*) > 0 AS stats_reader_sees_hidden FROM wait_profile WHERE database = 'ou_hidden';
RESET ROLE;
SELECT dblink_disconnect('hidden');
DROP DATABASE ou_hidden;
DROP ROLE ou_plain;
--
-- 6. A dropped database takes its split entries with it: its drop record
-- lists no relfilenodes, only the database and its tablespaces.  Three
-- databases, each with an index split many times, then dropped.
--
SELECT format('CREATE DATABASE ou_drop%s', g) FROM generate_series(1, 3) g \gexec
SELECT dblink_exec(replace(pg_temp.connstr(), 'dbname=' || current_database(), 'dbname=ou_drop' || g),
				   'CREATE TABLE x (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
					INSERT INTO x SELECT FROM generate_series(1, 5000)')
  FROM generate_series(1, 3) g;
SELECT pg_current_wal_flush_lsn() AS lsn3 \gset
SELECT pg_temp.wait_wal(:'lsn3') AS caught_up;
SELECT array_agg(oid) AS drop_oids FROM pg_database WHERE datname LIKE 'ou_drop%' \gset
SELECT count(*) AS drop_entries FROM index_split_stats WHERE datid = ANY (:'drop_oids'::oid[]) \gset
SELECT count(DISTINCT datid) AS databases_split
  FROM index_split_stats WHERE datid = ANY (:'drop_oids'::oid[]);
SELECT split_pruned AS pruned0 FROM collector_info() \gset
SELECT format('DROP DATABASE ou_drop%s', g) FROM generate_series(1, 3) g \gexec
SELECT pg_current_wal_flush_lsn() AS lsn4 \gset
SELECT pg_temp.wait_wal(:'lsn4') AS caught_up;
SELECT split_pruned - :pruned0 = :drop_entries AS every_entry_pruned FROM collector_info();
SELECT count(*) AS dropped_databases_entries FROM index_split_stats WHERE datid = ANY (:'drop_oids'::oid[]);

-- ALTER DATABASE ... SET TABLESPACE copies the database's files and drops
-- them in the tablespace it leaves, with the same record: the entries there
-- go; splits after the move are counted under the new tablespace.
SET allow_in_place_tablespaces = on;
CREATE TABLESPACE ou_moved_to LOCATION '';
RESET allow_in_place_tablespaces;
CREATE DATABASE ou_moved;
SELECT dblink_exec(replace(pg_temp.connstr(), 'dbname=' || current_database(), 'dbname=ou_moved'),
				   'CREATE TABLE x (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
					INSERT INTO x SELECT FROM generate_series(1, 5000)');
SELECT pg_current_wal_flush_lsn() AS lsn6 \gset
SELECT pg_temp.wait_wal(:'lsn6') AS caught_up;
SELECT oid AS moved_oid FROM pg_database WHERE datname = 'ou_moved' \gset
SELECT count(*) AS moved_entries FROM index_split_stats WHERE datid = :moved_oid \gset
SELECT split_pruned AS pruned1 FROM collector_info() \gset
ALTER DATABASE ou_moved SET TABLESPACE ou_moved_to;
SELECT dblink_exec(replace(pg_temp.connstr(), 'dbname=' || current_database(), 'dbname=ou_moved'),
				   'INSERT INTO x SELECT FROM generate_series(1, 5000)');
SELECT pg_current_wal_flush_lsn() AS lsn7 \gset
SELECT pg_temp.wait_wal(:'lsn7') AS caught_up;
SELECT :moved_entries > 0 AS split_before_the_move,
	   split_pruned - :pruned1 = :moved_entries AS old_tablespace_pruned
  FROM collector_info();
SELECT oid AS moved_to FROM pg_tablespace WHERE spcname = 'ou_moved_to' \gset
SELECT count(*) FILTER (WHERE tablespace <> :moved_to) AS left_in_old_tablespace,
	   count(*) FILTER (WHERE tablespace = :moved_to) > 0 AS counted_in_new_tablespace
  FROM index_split_stats WHERE datid = :moved_oid;
DROP DATABASE ou_moved;
DROP TABLESPACE ou_moved_to;

--
-- 7. track_splits off, then on again: the splits made while it was off are
-- not counted, so the counts start afresh where the worker starts reading
-- again, and wal_start says where.
--
SELECT count(*) AS counted_before FROM index_split_stats WHERE index = 'split_t_pkey'::regclass;
ALTER SYSTEM SET ordered_uuid.track_splits = off;
SELECT pg_reload_conf();
SELECT pg_temp.wait_until('SELECT wal_reached IS NULL FROM collector_info()') AS stopped_following;
CREATE TABLE off_t (id uuid PRIMARY KEY);
INSERT INTO off_t SELECT gen_random_uuid() FROM generate_series(1, 5000);
SELECT pg_current_wal_flush_lsn() AS lsn_off \gset
ALTER SYSTEM RESET ordered_uuid.track_splits;
SELECT pg_reload_conf();
SELECT pg_temp.wait_wal(:'lsn_off') AS following_again;
SELECT wal_start >= :'lsn_off' AS counts_begin_after_the_gap FROM collector_info();
SELECT count(*) AS entries_from_before_the_gap
  FROM index_split_stats WHERE index IN ('split_t_pkey'::regclass, 'off_t_pkey'::regclass);
-- splits after it are counted, as index_splits() counts them from there
SELECT pg_current_wal_insert_lsn() AS lsn_on \gset
INSERT INTO off_t SELECT gen_random_uuid() FROM generate_series(1, 5000);
SELECT pg_current_wal_flush_lsn() AS lsn5 \gset
SELECT pg_temp.wait_wal(:'lsn5') AS caught_up;
SELECT s.leaf_splits = w.leaf_splits AND s.upper_splits = w.upper_splits
	   AND s.root_splits = w.root_splits AS counted_since_on, s.leaf_splits > 10 AS split_often
  FROM index_split_stats s JOIN index_splits(:'lsn_on') w ON w.index = s.index
 WHERE s.index = 'off_t_pkey'::regclass;
DROP TABLE off_t;
DROP TABLE split_t;

-- The library is installed before ALTER EXTENSION ... UPDATE runs: until
-- then collector_info() and collector_detail_info() answer with the columns
-- that release declares (15 and 7 before 1.2.0; 20 and 8 in 1.2.0; 23 from
-- 1.3.0 to 1.5.x), the same values in the same places.
SELECT current_database() AS collector_db \gset
CREATE DATABASE regress_ou_collector_old;
\c regress_ou_collector_old
CREATE EXTENSION ordered_uuid VERSION '1.1.1';
SELECT (SELECT count(*) FROM json_object_keys(row_to_json(i))) AS columns,
	   i.worker_pid = a.pid AS worker_pid_right,
	   i.max_entries = current_setting('ordered_uuid.max_entries')::int AS max_entries_right,
	   i.wal_reached IS NOT NULL AS following_wal
  FROM collector_info() AS i JOIN pg_stat_activity a ON a.backend_type = 'ordered_uuid collector';
SELECT (SELECT count(*) FROM json_object_keys(row_to_json(d))) AS columns,
	   d.profile_queries, d.profile_pids,
	   d.history_size = current_setting('ordered_uuid.history_size')::int AS history_size_right
  FROM collector_detail_info() AS d;
DROP EXTENSION ordered_uuid;
CREATE EXTENSION ordered_uuid VERSION '1.2.0';
SELECT (SELECT count(*) FROM json_object_keys(row_to_json(i))) AS columns,
	   i.worker_pid = a.pid AS worker_pid_right, i.state
  FROM collector_info() AS i JOIN pg_stat_activity a ON a.backend_type = 'ordered_uuid collector';
SELECT (SELECT count(*) FROM json_object_keys(row_to_json(d))) AS columns,
	   d.history_size = current_setting('ordered_uuid.history_size')::int AS history_size_right,
	   d.detail_evicted
  FROM collector_detail_info() AS d;
DROP EXTENSION ordered_uuid;
CREATE EXTENSION ordered_uuid VERSION '1.5.0';
SELECT (SELECT count(*) FROM json_object_keys(row_to_json(i))) AS columns,
	   i.worker_pid = a.pid AS worker_pid_right, i.wal_retention
  FROM collector_info() AS i JOIN pg_stat_activity a ON a.backend_type = 'ordered_uuid collector';
\c :"collector_db"
DROP DATABASE regress_ou_collector_old;
