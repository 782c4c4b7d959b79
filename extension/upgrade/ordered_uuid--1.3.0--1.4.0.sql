-- ordered_uuid 1.3.0 -> 1.4.0
--
-- The same changes as in extension/*.sql; the upgrade test (sql/upgrade.sql)
-- checks that the catalog becomes that of a fresh install.

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ordered_uuid UPDATE TO '1.4.0'" to load this file. \quit

-- ---- The collector: the WAL per relation (relation_wal_stats) ----------------
-- The WAL per relation (1.4.0): which relation writes the WAL and its
-- full-page images, from the records the collector reads for the split
-- counts.  A record's bytes go to the relation of its first block reference;
-- relation_wal_info() holds what the rows add up to.

CREATE FUNCTION ordered_uuid_relation_wal_stats(
	OUT relation regclass, OUT fork text, OUT records bigint,
	OUT wal_bytes bigint, OUT fpis bigint, OUT fpi_bytes bigint,
	OUT last_fpi timestamptz, OUT database name, OUT datid oid,
	OUT tablespace oid, OUT relfilenode oid)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ordered_uuid_relation_wal_stats'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ordered_uuid_relation_wal_stats() IS
'the collector''s WAL per relation file and fork, from following the WAL; the rows of the view relation_wal_stats';

CREATE VIEW relation_wal_stats AS
	SELECT relation, fork, records, wal_bytes, fpis, fpi_bytes, last_fpi, database, datid,
		   tablespace, relfilenode
	  FROM @extschema@.ordered_uuid_relation_wal_stats();

COMMENT ON VIEW relation_wal_stats IS
'WAL records, WAL bytes (each record''s to the relation of its first block), full-page images and their bytes per relation and fork since the last reset (relation is NULL for other databases and for relfilenodes that no longer map: see datid, relfilenode)';

CREATE FUNCTION relation_wal_info(
	OUT wal_start pg_lsn, OUT wal_reached pg_lsn, OUT records bigint,
	OUT wal_bytes bigint, OUT fpis bigint, OUT fpi_bytes bigint,
	OUT no_block_records bigint, OUT no_block_bytes bigint,
	OUT pruned_records bigint, OUT pruned_bytes bigint,
	OUT pruned_fpis bigint, OUT pruned_fpi_bytes bigint,
	OUT entries bigint, OUT evicted bigint, OUT dropped_records bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'ordered_uuid_relation_wal_info'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION relation_wal_info() IS
'the WAL the collector read since the last reset and how relation_wal_stats adds up to it: records without block references, counts pruned with their dropped relations, entries used, evicted, records dropped';

GRANT SELECT ON relation_wal_stats TO PUBLIC;

COMMENT ON FUNCTION ordered_uuid_reset() IS
'clear the collector''s statistics (wait_profile, wait_profile_detail, wait_history, extend_lock_stats, index_split_stats, relation_wal_stats and the dropped counters); superuser only unless granted';
-- ---- end of: the WAL per relation -------------------------------------------
