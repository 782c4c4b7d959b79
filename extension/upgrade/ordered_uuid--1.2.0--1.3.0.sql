-- ordered_uuid 1.2.0 -> 1.3.0
--
-- The same changes as in extension/*.sql; the upgrade test (sql/upgrade.sql)
-- checks that the catalog becomes that of a fresh install.

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ordered_uuid UPDATE TO '1.3.0'" to load this file. \quit

-- Collector: collector_info() says how far behind the WAL the collector is
-- (wal_lag_bytes, wal_lag) and how it keeps the WAL it has not read
-- (wal_retention).  New OUT columns change the result type, so the function
-- is dropped and created again (a view of one's own on it must be dropped
-- before the update and created after it).
DROP FUNCTION collector_info();

CREATE FUNCTION collector_info(
	OUT worker_pid integer, OUT worker_started timestamptz,
	OUT stats_reset timestamptz, OUT rounds bigint, OUT max_entries integer,
	OUT profile_entries bigint, OUT profile_dropped bigint,
	OUT extend_entries bigint, OUT extend_dropped bigint,
	OUT split_entries bigint, OUT split_dropped bigint,
	OUT wal_start pg_lsn, OUT wal_reached pg_lsn, OUT wal_records bigint,
	OUT wal_skipped_bytes bigint, OUT profile_evicted bigint,
	OUT extend_evicted bigint, OUT split_evicted bigint,
		OUT split_pruned bigint, OUT state text, OUT wal_lag_bytes bigint,
	OUT wal_lag interval, OUT wal_retention text)
RETURNS record
AS 'MODULE_PATHNAME', 'ordered_uuid_collector_info'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION collector_info() IS
'the collector''s own state: worker pid, sampling rounds, entries used out of max_entries, samples dropped and entries evicted per table, split entries pruned with their dropped relations, WAL followed and skipped, state (running, recovery, stopped), how far behind the WAL it is, and how it keeps the WAL it has not read';
-- end of Collector
