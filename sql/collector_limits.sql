--
-- The collector's memory is bounded: this file runs on a server started
-- with ordered_uuid.max_entries = 4, the detailed profile on and a history
-- ring of 8 samples (sql/collector_limits.conf, make installcheck-preload).
-- A new key evicts the least recently used entry of a full table (counted
-- as evicted, nothing dropped), the ring overwrites its oldest samples;
-- nothing grows, nothing crashes, reset frees the entries.
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
END $$;
