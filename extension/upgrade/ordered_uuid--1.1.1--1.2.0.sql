-- ordered_uuid 1.1.1 -> 1.2.0

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ordered_uuid UPDATE TO '1.2.0'" to load this file. \quit

-- Collector: collector_info() reports entries evicted apart from samples
-- dropped, split entries pruned with their dropped relations, and the
-- collector's state (running, recovery, stopped); collector_detail_info()
-- the detailed profile's evicted entries.  New OUT columns change the result
-- type, so both functions are dropped and created again (a view of one's
-- own on either must be dropped before the update and created after it).
DROP FUNCTION collector_info();
DROP FUNCTION collector_detail_info();

CREATE FUNCTION collector_info(
	OUT worker_pid integer, OUT worker_started timestamptz,
	OUT stats_reset timestamptz, OUT rounds bigint, OUT max_entries integer,
	OUT profile_entries bigint, OUT profile_dropped bigint,
	OUT extend_entries bigint, OUT extend_dropped bigint,
	OUT split_entries bigint, OUT split_dropped bigint,
	OUT wal_start pg_lsn, OUT wal_reached pg_lsn, OUT wal_records bigint,
	OUT wal_skipped_bytes bigint, OUT profile_evicted bigint,
	OUT extend_evicted bigint, OUT split_evicted bigint,
	OUT split_pruned bigint, OUT state text)
RETURNS record
AS 'MODULE_PATHNAME', 'ordered_uuid_collector_info'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION collector_info() IS
'the collector''s own state: worker pid, sampling rounds, entries used out of max_entries, samples dropped and entries evicted per table, split entries pruned with their dropped relations, WAL followed and skipped, and state (running, recovery, stopped)';

CREATE FUNCTION collector_detail_info(
	OUT profile_queries boolean, OUT profile_pids boolean,
	OUT detail_entries bigint, OUT detail_dropped bigint,
	OUT history_size integer, OUT history_entries bigint,
	OUT history_overwritten bigint, OUT detail_evicted bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'ordered_uuid_collector_detail_info'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION collector_detail_info() IS
'the collector''s optional parts: dimensions of the detailed wait profile, its entries, dropped samples and evicted entries, and the history ring''s size, samples held and samples overwritten since the last reset';
-- end of Collector
