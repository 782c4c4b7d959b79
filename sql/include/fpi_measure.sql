-- sql/include/fpi_measure.sql: explain_writes of an insert of :n rows into
-- fpi_keys, and over the same WAL range pg_stat_wal's deltas and
-- pg_walinspect's count (psql variables ew_*, d_*, wi_*; used by
-- sql/diag_explain_writes_fpi.sql).
-- pg_stat_wal before: this backend's pending statistics flushed first (the
-- flush happens when the statement that asks for it ends); psql variables,
-- so that reading it writes no WAL
SELECT pg_stat_force_next_flush();
SELECT pg_current_wal_insert_lsn() AS lsn0, wal_fpi AS fpi0, wal_fpi_bytes AS fpi_bytes0,
	   wal_bytes AS bytes0
  FROM pg_stat_wal \gset
SELECT wal_fpi AS ew_fpi, wal_bytes AS ew_bytes
  FROM explain_writes(format($$INSERT INTO fpi_keys SELECT gen_random_uuid(), 'y' FROM generate_series(1, %s)$$, :n))
 WHERE kind = 'total' \gset
SELECT pg_stat_force_next_flush();
SELECT pg_current_wal_insert_lsn() AS lsn1, wal_fpi - :fpi0 AS d_fpi,
	   wal_fpi_bytes - :fpi_bytes0 AS d_fpi_bytes, wal_bytes - :bytes0 AS d_bytes
  FROM pg_stat_wal \gset
SELECT count(*) FILTER (WHERE block_fpi_length > 0) AS wi_fpi,
	   coalesce(sum(block_fpi_length), 0) AS wi_fpi_bytes
  FROM pg_get_wal_block_info(:'lsn0', :'lsn1') \gset
