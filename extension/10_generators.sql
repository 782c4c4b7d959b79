--
-- Generators.  No preload needed.
--
-- The generators are not STRICT: a NULL argument is an error, never a NULL key.

CREATE FUNCTION uuid_sequence_nextval(seq regclass, block_size int DEFAULT 65536,
									  block_count int DEFAULT 65536)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_sequence_nextval'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION uuid_sequence_nextval(regclass, int, int) IS
'block-prefixed UUID: the block id is (nextval(seq) - 1) / block_size, wrapping after block_count blocks';

CREATE FUNCTION uuid_time_nextval(interval_length int DEFAULT 60,
								  interval_count int DEFAULT 65536)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_time_nextval'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_nextval(int, int) IS
'block-prefixed UUID: the block id is the Unix time / interval_length seconds, wrapping after interval_count intervals';

CREATE FUNCTION uuid_v7_nextval()
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_v7_nextval'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uuid_v7_nextval() IS
'RFC 9562 version 7 UUID, strictly increasing within a session';

CREATE FUNCTION uuid_block_id(id uuid, block_count int DEFAULT 65536)
RETURNS int
AS 'MODULE_PATHNAME', 'uuid_block_id'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_block_id(uuid, int) IS
'the block id in the prefix of a block-prefixed UUID made with this block_count';

CREATE FUNCTION uuid_v7_time(id uuid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'uuid_v7_time'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_v7_time(uuid) IS
'the millisecond timestamp of a version 7 UUID; NULL for other versions';

CREATE FUNCTION uuid_version(id uuid)
RETURNS smallint
AS 'MODULE_PATHNAME', 'uuid_version'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_version(uuid) IS
'the version field of a UUID of the RFC 9562 variant (4 random, 7 time-ordered, 8 uuid_striped_nextval); NULL for other variants, as core''s uuid_extract_version on 17+';

-- Time-addressed keys: bounds for scanning and partitioning by time.

CREATE FUNCTION uuid_v7_nextval(shift interval)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_v7_nextval_shift'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uuid_v7_nextval(interval) IS
'RFC 9562 version 7 UUID for the current time moved by shift, from the same per-session clock as uuid_v7_nextval()';

CREATE FUNCTION uuid_v7_min(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_v7_min'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_v7_min(timestamptz) IS
'the smallest version 7 UUID of the millisecond of ts';

CREATE FUNCTION uuid_v7_max(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_v7_max'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_v7_max(timestamptz) IS
'the largest version 7 UUID of the millisecond of ts';

CREATE FUNCTION uuid_v7_from_time(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_v7_from_time'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uuid_v7_from_time(timestamptz) IS
'a version 7 UUID of the time ts, with random bits';

CREATE FUNCTION uuid_time_block_id(ts timestamptz, interval_length int DEFAULT 60,
								   interval_count int DEFAULT 65536)
RETURNS int
AS 'MODULE_PATHNAME', 'uuid_time_block_id'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_block_id(timestamptz, int, int) IS
'the block id uuid_time_nextval(interval_length, interval_count) uses at the time ts';

CREATE FUNCTION uuid_time_block_range(block int, interval_length int DEFAULT 60,
									  interval_count int DEFAULT 65536,
									  reference timestamptz DEFAULT now())
RETURNS tstzrange
AS 'MODULE_PATHNAME', 'uuid_time_block_range'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_block_range(int, int, int, timestamptz) IS
'the time range in which uuid_time_nextval(interval_length, interval_count) last used the block id, starting at or before reference';

CREATE FUNCTION uuid_block_min(block int, block_count int DEFAULT 65536)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_block_min'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_block_min(int, int) IS
'the smallest block-prefixed UUID of a block id made with this block_count';

CREATE FUNCTION uuid_block_max(block int, block_count int DEFAULT 65536)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_block_max'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_block_max(int, int) IS
'the largest block-prefixed UUID of a block id made with this block_count';

CREATE FUNCTION uuid_striped_nextval(interval_length int DEFAULT 3600)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_striped_nextval'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uuid_striped_nextval(int) IS
'RFC 9562 version 8 UUID for concurrent inserts: block start (Unix ms, every interval_length seconds), a stripe per session, then front and fill slots that pack the B-tree densely';

-- The two-argument form (1.6.0): right_edge => false for an index that
-- holds keys above the new ones, as a table that held random keys before
-- its default became this generator does.  Every session then makes fill
-- keys (src/generators_striped.c, "Not the edge"); the keys are laid out as
-- the one-argument form's.  A function of its own, without defaults, so
-- that uuid_striped_nextval() and uuid_striped_nextval(n) still mean the
-- one-argument form, which the column defaults made before 1.6.0 call.
CREATE FUNCTION uuid_striped_nextval(interval_length int, right_edge boolean)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_striped_nextval'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uuid_striped_nextval(int, boolean) IS
'uuid_striped_nextval(interval_length) for an index that holds keys above the new ones (right_edge => false: random keys of before the switch): every session makes fill keys, so the new keys'' pages end about 95 % full wherever they land';
