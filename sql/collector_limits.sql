--
-- The collector's memory is bounded: this file runs on a server started
-- with ordered_uuid.max_entries = 4 (scripts/test-one.sh, make
-- installcheck-preload-limits).  Keys beyond the limit are counted as
-- dropped; nothing grows, nothing crashes, reset frees the entries.
--
CREATE FUNCTION pg_temp.wait_rounds(n int) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
	r0 bigint := (SELECT rounds FROM collector_info());
BEGIN
	FOR i IN 1..300 LOOP
		IF (SELECT rounds FROM collector_info()) >= r0 + n THEN
			RETURN true;
		END IF;
		PERFORM pg_sleep(0.1);
	END LOOP;
	RETURN false;
END $$;
CREATE FUNCTION pg_temp.wait_wal(target pg_lsn) RETURNS bool LANGUAGE plpgsql AS $$
BEGIN
	FOR i IN 1..300 LOOP
		IF (SELECT wal_reached FROM collector_info()) >= target THEN
			RETURN true;
		END IF;
		PERFORM pg_sleep(0.1);
	END LOOP;
	RETURN false;
END $$;

SHOW ordered_uuid.max_entries;
SELECT pg_temp.wait_rounds(10) AS sampling;

-- More than 4 keys exist (checkpointer, background writer, walwriter,
-- autovacuum launcher, logical replication launcher, this session...):
-- 4 are kept, the others' samples are counted as dropped.
SELECT max_entries, profile_entries, profile_dropped > 0 AS profile_dropped
  FROM collector_info();
SELECT count(*) AS profile_rows FROM wait_profile;
-- the independent count: distinct keys the server really has now
SELECT count(DISTINCT (datid, backend_type, wait_event_type, wait_event)) > 4 AS more_keys_than_entries
  FROM pg_stat_activity WHERE backend_type <> 'ordered_uuid collector';

-- Ten indexes that each split: at most 4 are tracked, the rest dropped.
SELECT pg_current_wal_flush_lsn() AS lsn0 \gset
SELECT pg_temp.wait_wal(:'lsn0') AS caught_up_before_reset;
SELECT ordered_uuid_reset();
SELECT profile_entries <= 4 AS profile_bounded, split_dropped = 0 AS split_dropped_reset
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
SELECT split_entries, split_dropped > 0 AS splits_dropped, extend_entries <= 4 AS extend_bounded
  FROM collector_info();
SELECT count(*) AS split_rows FROM index_split_stats;

-- still working after all that
SELECT pg_temp.wait_rounds(5) AS still_sampling;
SELECT count(*) AS profile_rows FROM wait_profile;
DO $$
BEGIN
	FOR i IN 1..10 LOOP
		EXECUTE format('DROP TABLE lim_%s', i);
	END LOOP;
END $$;
