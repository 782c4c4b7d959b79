--
-- The collector's memory is bounded: this file runs on a server started
-- with ordered_uuid.max_entries = 4, the detailed profile on and a history
-- ring of 8 samples (sql/collector_limits.conf, make installcheck-preload).
-- A new key evicts the least recently used entry of a full table (counted
-- as evicted, nothing dropped), the ring overwrites its oldest samples;
-- nothing grows, nothing crashes, reset frees the entries.  The WAL per
-- relation keeps its evicted entries' counts: its parts still add up to the
-- WAL read, which on PG15+ is pg_walinspect's count of it.
--
\i sql/include/collector_helpers.sql

SHOW ordered_uuid.max_entries;
SELECT pg_temp.wait_rounds(10) AS sampling;

-- More than 4 keys exist (checkpointer, background writer, walwriter,
-- autovacuum launcher, logical replication launcher, this session...):
-- 4 are kept, the least recently used evicted for each new one.
SELECT max_entries, profile_entries, profile_dropped, profile_evicted > 0 AS profile_evicted
  FROM collector_info();
SELECT count(*) AS profile_rows FROM wait_profile;
-- the independent count: distinct keys the server really has now
SELECT count(DISTINCT (datid, backend_type, wait_event_type, wait_event)) > 4 AS more_keys_than_entries
  FROM pg_stat_activity WHERE backend_type <> 'ordered_uuid collector';

-- Ten indexes that each split: at most 4 are tracked, the least recently
-- split evicted; the last one's counts are exact (pgstatindex: with only
-- ascending inserts, every leaf split adds a leaf page and every upper or
-- root split an internal page, and each root split a level).
SELECT pg_current_wal_flush_lsn() AS lsn0 \gset
SELECT pg_temp.wait_wal(:'lsn0') AS caught_up_before_reset;
SELECT ordered_uuid_reset();
SELECT profile_entries <= 4 AS profile_bounded, split_dropped = 0 AS split_dropped_reset,
	   split_evicted = 0 AS split_evicted_reset
  FROM collector_info();
DO $$
BEGIN
	FOR i IN 1..10 LOOP
		EXECUTE format('CREATE TABLE lim_%s (id int PRIMARY KEY)', i);
		EXECUTE format('INSERT INTO lim_%s SELECT generate_series(1, 2000)', i);
	END LOOP;
END $$;
SELECT pg_current_wal_flush_lsn() AS lsn1 \gset
SELECT pg_temp.wait_wal(:'lsn1') AS collector_caught_up;
SELECT split_entries, split_dropped, split_evicted >= 6 AS splits_evicted,
	   extend_entries <= 4 AS extend_bounded
  FROM collector_info();
SELECT count(*) AS split_rows FROM index_split_stats;
CREATE EXTENSION pgstattuple;
SELECT s.leaf_splits = i.leaf_pages - 1 AS last_leaf_splits_exact,
	   s.upper_splits + s.root_splits = i.internal_pages AS last_upper_splits_exact,
	   s.root_splits = i.tree_level AS last_root_splits_exact, s.leaf_splits > 0 AS last_split
  FROM index_split_stats s, pgstatindex('lim_10_pkey') i
 WHERE s.index = 'lim_10_pkey'::regclass;
DROP EXTENSION pgstattuple;

-- The WAL per relation with 4 entries: forty tables written one after
-- another (their heaps and indexes, their visibility maps set by VACUUM, full-page
-- images after a checkpoint) evict nearly every entry, and the last ones
-- dropped are pruned.  The evicted entries' counts stay in relation_wal_info():
-- the rows plus the records without block references, the pruned and the
-- evicted counts add up to the WAL read, which on PG15+ is pg_walinspect's
-- count of the same WAL.
\i sql/include/walrel_blocks.sql
\i sql/include/walrel_parts.sql
SELECT pg_current_wal_flush_lsn() AS lsn2 \gset
SELECT pg_temp.wait_wal(:'lsn2') AS caught_up_before_reset;
SELECT ordered_uuid_reset();
DO $$
BEGIN
	FOR i IN 1..40 LOOP
		EXECUTE format('CREATE TABLE walrel_lim_%s (id int PRIMARY KEY, pad text)', i);
		EXECUTE format('INSERT INTO walrel_lim_%s SELECT g, repeat(''p'', 100) FROM generate_series(1, 1000) g', i);
	END LOOP;
END $$;
CHECKPOINT;
DO $$
BEGIN
	FOR i IN 1..40 LOOP
		EXECUTE format('UPDATE walrel_lim_%s SET pad = ''u'' WHERE id %% 10 = 0', i);
	END LOOP;
END $$;
VACUUM;
DO $$
BEGIN
	FOR i IN 31..40 LOOP
		EXECUTE format('DROP TABLE walrel_lim_%s', i);
	END LOOP;
END $$;
SELECT pg_current_wal_flush_lsn() AS lsn3 \gset
SELECT pg_temp.wait_wal(:'lsn3') AS caught_up;
SELECT pg_temp.snapshot() AS consistent_copy;
SELECT entries <= 4 AS entries_bounded, evicted > 100 AS evicted_nearly_all, dropped_records,
	   pruned_records > 0 AS pruned,
	   evicted_records > 0 AND evicted_fpis > 0 AS evicted_counts_kept,
	   evicted_bytes > 10 * (SELECT sum(wal_bytes) FROM snap) AS most_bytes_evicted,
	   relation_records > records - no_block_records AS some_records_name_two_forks
  FROM snap_info;
SELECT * FROM pg_temp.parts();

-- The library is installed before ALTER EXTENSION ... UPDATE runs: until
-- then relation_wal_info() answers 1.5.0's declaration with its 15 columns,
-- the same values in the same places (a database of its own, through
-- dblink).
CREATE DATABASE regress_ou_limits_old;
CREATE EXTENSION dblink;
SELECT 'host=' || current_setting('unix_socket_directories') || ' port=' || current_setting('port') ||
	   ' dbname=regress_ou_limits_old' AS old_db \gset
SELECT dblink_exec(:'old_db', 'CREATE EXTENSION ordered_uuid VERSION ''1.5.0''');
SELECT o.columns, o.entries <= 4 AS entries_right, o.evicted > 100 AS evicted_right, o.dropped_records,
	   o.wal_bytes > o.no_block_bytes + o.pruned_bytes AS totals_right
  FROM dblink(:'old_db',
			  'SELECT (SELECT count(*) FROM json_object_keys(row_to_json(i))), i.entries, i.evicted,
					  i.dropped_records, i.wal_bytes, i.no_block_bytes, i.pruned_bytes
				 FROM relation_wal_info() AS i')
	   AS o (columns bigint, entries bigint, evicted bigint, dropped_records bigint, wal_bytes bigint,
			 no_block_bytes bigint, pruned_bytes bigint);
DROP EXTENSION dblink;
DROP DATABASE regress_ou_limits_old;

-- The detailed profile has more keys still (one per process): 4 are kept,
-- the least recently used evicted and counted.  The ring holds its last 8 samples and
-- counts those it overwrote.
SELECT current_setting('ordered_uuid.profile_pids') AS profile_pids,
	   current_setting('ordered_uuid.history_size') AS history_size;
SELECT pg_temp.wait_rounds(5) AS sampled_detail;
SELECT detail_entries, detail_dropped, detail_evicted > 0 AS detail_evicted,
	   history_entries, history_overwritten > 0 AS history_overwritten
  FROM collector_detail_info();
SELECT count(*) AS detail_rows, count(DISTINCT pid) <= 4 AS pids_bounded FROM wait_profile_detail;
SELECT count(*) AS history_rows FROM wait_history;
-- the independent count: processes the server has now (each a key of its own)
SELECT count(*) > 4 AS more_processes_than_entries
  FROM pg_stat_activity WHERE backend_type <> 'ordered_uuid collector';
SELECT ordered_uuid_reset();
SELECT detail_entries <= 4 AS detail_bounded_after_reset, history_entries <= 8 AS ring_bounded_after_reset
  FROM collector_detail_info();

-- still working after all that
SELECT pg_temp.wait_rounds(5) AS still_sampling;
SELECT count(*) AS profile_rows FROM wait_profile;
DO $$
BEGIN
	FOR i IN 1..10 LOOP
		EXECUTE format('DROP TABLE lim_%s', i);
	END LOOP;
	FOR i IN 1..30 LOOP
		EXECUTE format('DROP TABLE walrel_lim_%s', i);
	END LOOP;
END $$;
