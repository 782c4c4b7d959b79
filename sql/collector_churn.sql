--
-- The collector after DDL churn: on a server started with
-- ordered_uuid.max_entries = 32 (sql/collector_churn.conf, make
-- installcheck-preload), 4,000 cycles of TRUNCATE, REINDEX and temporary
-- tables, each of which gives the index a new relfilenode whose splits
-- take an entry of index_split_stats.  The entries of the dropped
-- relfilenodes are pruned as their transactions commit, so the table never
-- fills with dead relations, and an index created after the churn, split
-- between more churn, is counted exactly: its leaf, upper and root splits
-- against pgstatindex() (with ascending inserts only, every leaf split adds
-- a leaf page, every upper or root split an internal page, every root split
-- a level).
--
\i sql/include/collector_helpers.sql
CREATE EXTENSION pgstattuple;
SHOW ordered_uuid.max_entries;
\set cycles 2000

-- one cycle: the index gets a new relfilenode (TRUNCATE) that splits (90
-- keys of 100 bytes fill more than a page), every fourth cycle another
-- (REINDEX, built without splits); a temporary table with an index comes
-- and goes; commit
CREATE TABLE churn (k text PRIMARY KEY);
CREATE PROCEDURE pg_temp.churn(cycles int) LANGUAGE plpgsql AS $$
BEGIN
	FOR i IN 1..cycles LOOP
		TRUNCATE churn;
		INSERT INTO churn SELECT lpad(g::text, 100, 'x') FROM generate_series(1, 90) g;
		IF i % 4 = 0 THEN
			REINDEX TABLE churn;
		END IF;
		CREATE TEMP TABLE churn_tmp (k text PRIMARY KEY);
		INSERT INTO churn_tmp SELECT lpad(g::text, 100, 'x') FROM generate_series(1, 90) g;
		DROP TABLE churn_tmp;
		COMMIT;
	END LOOP;
END $$;

-- 1. churn: 2,000 cycles, sixty times the table's capacity
CALL pg_temp.churn(:cycles);
SELECT pg_current_wal_flush_lsn() AS lsn1 \gset
SELECT pg_temp.wait_wal(:'lsn1') AS caught_up;
SELECT split_entries <= 32 AS bounded, split_dropped FROM collector_info();

-- 2. a live index, split 20 times over, with 2,000 more cycles in between
CREATE TABLE live (id int PRIMARY KEY);
CREATE PROCEDURE pg_temp.live_and_churn(rounds int, cycles int) LANGUAGE plpgsql AS $$
BEGIN
	FOR r IN 1..rounds LOOP
		INSERT INTO live SELECT r * 1000 + g FROM generate_series(1, 1000) g;
		COMMIT;
		CALL pg_temp.churn(cycles);
	END LOOP;
END $$;
CALL pg_temp.live_and_churn(20, :cycles / 20);
SELECT pg_current_wal_flush_lsn() AS lsn2 \gset
SELECT pg_temp.wait_wal(:'lsn2') AS caught_up;

-- the live index's counts are exact
SELECT s.leaf_splits = i.leaf_pages - 1 AS leaf_splits_exact,
	   s.upper_splits + s.root_splits = i.internal_pages AS upper_splits_exact,
	   s.root_splits = i.tree_level AS root_splits_exact,
	   i.leaf_pages > 20 AS split_often
  FROM index_split_stats s, pgstatindex('live_pkey') i
 WHERE s.index = 'live_pkey'::regclass;

-- Every cycle's index split and then died: in a REINDEX of the same cycle
-- (every fourth, the last one included: 100 cycles a round), or else in the
-- next cycle's TRUNCATE.  So one entry pruned per cycle, none dropped, and
-- no entry left of a dead relfilenode of this database (index NULL), nor of
-- the current churn index (built by the last REINDEX, never split).
SELECT split_pruned = 2 * :cycles AS every_dead_index_pruned, split_dropped,
	   split_entries <= 32 AS bounded
  FROM collector_info();
SELECT count(*) FILTER (WHERE index IS NULL) AS dead_entries,
	   count(*) FILTER (WHERE index = 'churn_pkey'::regclass) AS churn_entries
  FROM index_split_stats WHERE datid = (SELECT oid FROM pg_database WHERE datname = current_database());

DROP TABLE churn, live;
DROP EXTENSION pgstattuple;
