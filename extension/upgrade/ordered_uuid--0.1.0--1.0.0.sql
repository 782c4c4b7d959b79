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
