--
-- Generators (DESIGN section 1).  No preload needed.
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

CREATE FUNCTION uuid_striped_nextval(interval_length int DEFAULT 3600)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_striped_nextval'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uuid_striped_nextval(int) IS
'RFC 9562 version 8 UUID for concurrent inserts: block start (Unix ms, every interval_length seconds), a stripe per session, then front and fill slots that pack the B-tree densely';
