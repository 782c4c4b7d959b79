--
-- Keys made in a time range: the condition id <@ tstzrange, which the
-- planner turns into a range of the key for its B-tree (or BRIN) index.
--
-- Version 7 keys (uuid_v7_nextval) and striped keys (uuid_striped_nextval,
-- version 8) begin with a 48-bit Unix millisecond: v7's time, the striped
-- key's block start.

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
