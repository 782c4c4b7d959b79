--
-- The WAL scanner on WAL that a checkpoint removed: index_splits() reports it
-- (58P01 with a hint); the collector's mode (skip_removed) jumps to the
-- oldest WAL still on disk, counts what it skipped and carries on.
--
\set VERBOSITY sqlstate
CREATE SCHEMA walscan_test;
-- The test-only functions live in the test module (test/module), not in the
-- extension's library: both lookups fail with 42883.
CREATE FUNCTION walscan_test.absent1() RETURNS int AS 'ordered_uuid', 'ou_test_wal_scan' LANGUAGE C;
CREATE FUNCTION walscan_test.absent2() RETURNS int AS 'ordered_uuid', 'ou_hold_extension_lock' LANGUAGE C;
CREATE FUNCTION walscan_test.scan(start pg_lsn, skip_removed boolean,
	OUT status text, OUT records bigint, OUT segments_skipped bigint,
	OUT bytes_skipped bigint, OUT end_repeats boolean)
AS 'ordered_uuid_test', 'ou_test_wal_scan' LANGUAGE C STRICT;

CREATE TABLE ws_t (id uuid) WITH (autovacuum_enabled = off);
CREATE INDEX ON ws_t (id);
SELECT pg_current_wal_insert_lsn() AS old \gset
INSERT INTO ws_t SELECT gen_random_uuid() FROM generate_series(1, 1000);
-- Before removal: readable, nothing skipped.
SELECT status, records > 0 AS read_some, segments_skipped, bytes_skipped, end_repeats
FROM walscan_test.scan(:'old', true);
SELECT leaf_splits > 0 AS splits_seen FROM index_splits(:'old') WHERE index = 'ws_t_id_idx'::regclass;
-- Move to a new segment and checkpoint twice: the old segment goes.
SELECT pg_switch_wal() IS NOT NULL AS switched;
CHECKPOINT;
INSERT INTO ws_t SELECT gen_random_uuid() FROM generate_series(1, 10);
SELECT pg_switch_wal() IS NOT NULL AS switched;
CHECKPOINT;
SELECT NOT EXISTS (SELECT 1 FROM pg_ls_waldir()
				   WHERE name = pg_walfile_name(:'old')) AS old_segment_gone;
-- The SQL functions: a clear error.
SELECT * FROM index_splits(:'old');
-- The scanner: reports it, or skips it.
SELECT status, records FROM walscan_test.scan(:'old', false);
SELECT status, records > 0 AS read_some, segments_skipped >= 1 AS skipped_segments,
	   bytes_skipped > 0 AS skipped_bytes,
	   end_repeats
FROM walscan_test.scan(:'old', true);

-- A scan that ends where a WAL switch record ends, at a segment boundary,
-- then goes on from there (end_repeats): it resumes after the next page's
-- header, since the boundary is no record's start (14 and 15 assert that).
SELECT pg_current_wal_insert_lsn() AS before_switch \gset
INSERT INTO ws_t SELECT gen_random_uuid() FROM generate_series(1, 10);
SELECT s.status, s.records > 0 AS read_some, s.end_repeats
FROM (SELECT pg_switch_wal() AS sw) w,
	 LATERAL walscan_test.scan(CASE WHEN w.sw IS NOT NULL THEN :'before_switch'::pg_lsn END,
							   true) s;
DROP TABLE ws_t;
DROP SCHEMA walscan_test CASCADE;
