-- ordered_uuid 1.3.0 -> 1.4.0
--
-- The same changes as in extension/*.sql; the upgrade test (sql/upgrade.sql)
-- checks that the catalog becomes that of a fresh install.

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ordered_uuid UPDATE TO '1.4.0'" to load this file. \quit

--------------------------------------------------------------------------------
-- Time keys (extension/15_time_keys.sql): keys made in a time range
-- (uuid <@ tstzrange, served by an index on the key), the time a key carries.
--------------------------------------------------------------------------------

CREATE FUNCTION uuid_time(id uuid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'uuid_time'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time(uuid) IS
'the time a key carries: a version 7 key''s millisecond, a striped (version 8) key''s block start; NULL for other UUIDs';

CREATE FUNCTION uuid_time_range_lower(times tstzrange)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_time_range_lower'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_range_lower(tstzrange) IS
'the lower bound (inclusive) of the version 7 and striped keys whose time lies in times: uuid_v7_min of its first millisecond';

CREATE FUNCTION uuid_time_range_upper(times tstzrange)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_time_range_upper'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_range_upper(tstzrange) IS
'the upper bound (exclusive) of the version 7 and striped keys whose time lies in times: uuid_v7_min of the millisecond after its last';

CREATE FUNCTION uuid_time_in_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'uuid_time_in_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_in_support(internal) IS
'planner support of uuid_time_in: the range of the key for its index, and the selectivity';

CREATE FUNCTION uuid_time_in(id uuid, times tstzrange)
RETURNS boolean
AS 'MODULE_PATHNAME', 'uuid_time_in'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT uuid_time_in_support;

COMMENT ON FUNCTION uuid_time_in(uuid, tstzrange) IS
'does the key carry a time (uuid_time) in times? false for UUIDs that carry none';

CREATE FUNCTION uuid_time_in_sel(internal, oid, internal, integer)
RETURNS float8
AS 'MODULE_PATHNAME', 'uuid_time_in_sel'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_in_sel(internal, oid, internal, integer) IS
'restriction selectivity of uuid <@ tstzrange: that of the range of the key it implies';

CREATE OPERATOR <@ (
	LEFTARG = uuid,
	RIGHTARG = tstzrange,
	FUNCTION = uuid_time_in,
	RESTRICT = uuid_time_in_sel
);

COMMENT ON OPERATOR <@ (uuid, tstzrange) IS
'does the key carry a time (uuid_time) in the range? served by an index on the key';

-- Short text forms of a key, the same 16 bytes both ways: ULID (Crockford's
-- base32) and RFC 4648 base32hex.

CREATE FUNCTION uuid_to_ulid(id uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'uuid_to_ulid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_to_ulid(uuid) IS
'the ULID text (26 characters of Crockford''s base32) of the 16 bytes of id; a version 7 key''s ULID sorts as the key';

CREATE FUNCTION uuid_from_ulid(ulid text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_from_ulid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_from_ulid(text) IS
'the uuid of the 16 bytes of a ULID text (either case; I, L, O and U are errors, as in the ULID specification)';

CREATE FUNCTION uuid_to_base32hex(id uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'uuid_to_base32hex'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_to_base32hex(uuid) IS
'the RFC 4648 base32hex text of id without padding (26 characters; PostgreSQL 19''s rtrim(encode(id::bytea, ''base32hex''), ''=''))';

CREATE FUNCTION uuid_from_base32hex(b32 text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_from_base32hex'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_from_base32hex(text) IS
'the uuid of a base32hex text of 16 bytes (either case, with or without the six = of padding)';

-- pg_partman 5's p_time_encoder and p_time_decoder for version 7 and striped
-- keys: the bound of a time is uuid_v7_min's, the time of a key uuid_time's
-- (of its text: pg_partman passes the control column as text).

CREATE FUNCTION uuid_time_encoder(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_v7_min'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_encoder(timestamptz) IS
'pg_partman''s p_time_encoder for version 7 and striped keys: the partition bound of a time, uuid_v7_min(ts)';

CREATE FUNCTION uuid_time_decoder(id text)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'uuid_time_decoder'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_decoder(text) IS
'pg_partman''s p_time_decoder for version 7 and striped keys: uuid_time of a key given as text';

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
