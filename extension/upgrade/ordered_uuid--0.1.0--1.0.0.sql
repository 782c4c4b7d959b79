-- ordered_uuid 0.1.0 -> 1.0.0
--
-- Every SQL change since 0.1.0, so that ALTER EXTENSION ordered_uuid UPDATE
-- gives the same catalog as a fresh 1.0.0 install (checked by the upgrade
-- test, sql/upgrade.sql).  Never drops a generator: tables use them as
-- column defaults.

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ordered_uuid UPDATE TO '1.0.0'" to load this file. \quit

--
-- Benchmarks: each run now creates a scratch schema of its own, as the
-- calling role, instead of sharing the PUBLIC-writable schema
-- ordered_uuid_bench, which leaves the extension.  It is dropped when empty;
-- a schema that still holds tables kept by earlier runs (keep => true) stays,
-- without PUBLIC's CREATE privilege, for its owner to look at and drop.
--
ALTER EXTENSION ordered_uuid DROP SCHEMA ordered_uuid_bench;
REVOKE CREATE ON SCHEMA ordered_uuid_bench FROM PUBLIC;
DO $do$
BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_class c
	                WHERE c.relnamespace OPERATOR(pg_catalog.=) 'ordered_uuid_bench'::pg_catalog.regnamespace)
	   AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d
	                    WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::pg_catalog.regclass
	                      AND d.refobjid OPERATOR(pg_catalog.=) 'ordered_uuid_bench'::pg_catalog.regnamespace) THEN
		DROP SCHEMA ordered_uuid_bench;
	ELSE
		RAISE NOTICE 'schema ordered_uuid_bench holds tables kept by earlier benchmark runs: it is no longer part of ordered_uuid; drop it when you no longer need them';
	END IF;
END
$do$;

CREATE FUNCTION bench_cleanup()
RETURNS bigint
AS 'MODULE_PATHNAME', 'bench_cleanup'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_cleanup() IS
'drops the scratch schemas (ordered_uuid_run_*) of benchmark runs whose leader is gone, of roles whose privileges the caller has; returns how many';
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
