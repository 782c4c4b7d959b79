--
-- explain_writes' full-page images beside PostgreSQL 19's
-- pg_stat_wal.wal_fpi_bytes, over the same work (make installcheck-preload
-- runs it on 19 and later only, in an instance with autovacuum off:
-- sql/diag_explain_writes_fpi.conf).
--
-- What each counts.  pg_stat_wal.wal_fpi and wal_fpi_bytes count, server
-- wide, the full-page images written and their bytes as stored in the WAL
-- (the page less its hole, compressed if wal_compression is on: what
-- pg_walinspect shows as block_fpi_length), once each process has flushed its
-- statistics.  explain_writes counts the images of one statement (the total
-- row: this backend's, from the statement's start to its end; each relation's
-- row: those of its blocks in records of this transaction), in number, not
-- bytes.  So here, where nothing else writes WAL:
--   * pg_stat_wal's deltas equal pg_walinspect's count and sum of
--     block_fpi_length over the same WAL range (the same images, counted
--     twice);
--   * explain_writes' total is at least 1 (the statement follows a
--     checkpoint, so it writes images) and at most pg_stat_wal's delta, which
--     also counts the images written by what the call does around the
--     statement;
--   * the images' bytes are less than the WAL's bytes (each image is part of
--     a record) and at most one block each.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pg_walinspect;
RESET client_min_messages;

CREATE TABLE fpi_keys (id uuid PRIMARY KEY, pad text) WITH (autovacuum_enabled = off);
INSERT INTO fpi_keys SELECT gen_random_uuid(), 'x' FROM generate_series(1, 20000);
-- The measurement runs twice: once before a checkpoint, so that the catalog
-- rows its statements read already carry their hint bits (after a
-- checkpoint, with data checksums on, setting one writes a full-page image,
-- and reading the start position could write one just before it, outside
-- the measured range), then after it, measured.
\set n 1
\i sql/include/fpi_measure.sql
\set n 2000
CHECKPOINT;
\i sql/include/fpi_measure.sql

SELECT :d_fpi = :wi_fpi AS wal_fpi_is_walinspects_count,
	   :d_fpi_bytes = :wi_fpi_bytes AS wal_fpi_bytes_is_walinspects_sum,
	   :ew_fpi BETWEEN 1 AND :d_fpi AS statement_within_server,
	   :d_fpi_bytes < :d_bytes AS images_within_wal,
	   :d_fpi_bytes <= :d_fpi * current_setting('block_size')::bigint AS at_most_a_block_each,
	   :d_fpi_bytes > 0 AS images_have_bytes;

DROP TABLE fpi_keys;
