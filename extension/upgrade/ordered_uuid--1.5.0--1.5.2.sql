-- ordered_uuid 1.5.0 -> 1.5.2
--
-- The same changes as in extension/*.sql; the upgrade test (sql/upgrade.sql)
-- checks that the catalog becomes that of a fresh install.  (1.5.1 changed
-- the library alone: its SQL version is 1.5.0.)

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ordered_uuid UPDATE TO '1.5.2'" to load this file. \quit

-- ---- Collector: relation_wal_info() keeps the counts of evicted entries ----
-- The counts of the relation_wal_stats entries evicted for lack of room
-- (evicted_records, evicted_bytes, evicted_fpis, evicted_fpi_bytes), beside
-- the pruned ones, and the records as the rows count them
-- (relation_records), so that the rows and the totals add up to the WAL read
-- after any eviction.  New OUT columns change the result type, so the
-- function is dropped and created again: a view of one's own on it must be
-- dropped before the update and created after it, which the error says
-- (DROP ... CASCADE, core's hint, does not apply to an update).  The old
-- library answers the new declaration with an error naming the column
-- count, the new library the old declaration with its first 15 columns.
DO $$
DECLARE
	msg text;
	detail text;
BEGIN
	DROP FUNCTION relation_wal_info();
EXCEPTION WHEN dependent_objects_still_exist THEN
	GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
	RAISE EXCEPTION USING ERRCODE = 'dependent_objects_still_exist', MESSAGE = msg, DETAIL = detail,
		HINT = 'This update drops relation_wal_info() and creates it again with new result columns: drop the objects that depend on it, run ALTER EXTENSION ordered_uuid UPDATE, then create them again.';
END $$;

CREATE FUNCTION relation_wal_info(
	OUT wal_start pg_lsn, OUT wal_reached pg_lsn, OUT records bigint,
	OUT wal_bytes bigint, OUT fpis bigint, OUT fpi_bytes bigint,
	OUT no_block_records bigint, OUT no_block_bytes bigint,
	OUT pruned_records bigint, OUT pruned_bytes bigint,
	OUT pruned_fpis bigint, OUT pruned_fpi_bytes bigint,
	OUT entries bigint, OUT evicted bigint, OUT dropped_records bigint,
	OUT evicted_records bigint, OUT evicted_bytes bigint,
	OUT evicted_fpis bigint, OUT evicted_fpi_bytes bigint,
	OUT relation_records bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'ordered_uuid_relation_wal_info'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION relation_wal_info() IS
'the WAL the collector read since the last reset and how relation_wal_stats adds up to it: records without block references, counts pruned with their dropped relations and evicted for lack of room, entries used, evicted, records dropped, and the records as the rows count them (once per relation fork)';
