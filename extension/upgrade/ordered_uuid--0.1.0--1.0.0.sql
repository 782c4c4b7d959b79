-- ordered_uuid 0.1.0 -> 1.0.0
--
-- Every SQL change since 0.1.0, so that ALTER EXTENSION ordered_uuid UPDATE
-- gives the same catalog as a fresh 1.0.0 install (checked by the upgrade
-- test, sql/upgrade.sql).  Never drops a generator: tables use them as
-- column defaults.

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ordered_uuid UPDATE TO '1.0.0'" to load this file. \quit

-- uuid_striped_nextval: ordered keys for many concurrent sessions
CREATE FUNCTION uuid_striped_nextval(interval_length int DEFAULT 3600)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_striped_nextval'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uuid_striped_nextval(int) IS
'RFC 9562 version 8 UUID for concurrent inserts: block start (Unix ms, every interval_length seconds), a stripe per session, then front and fill slots that pack the B-tree densely';
