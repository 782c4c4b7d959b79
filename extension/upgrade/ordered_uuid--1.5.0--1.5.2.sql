-- ordered_uuid 1.5.0 -> 1.5.2
--
-- The same changes as in extension/*.sql; the upgrade test (sql/upgrade.sql)
-- checks that the catalog becomes that of a fresh install.  (1.5.1 changed
-- the library alone: its SQL version is 1.5.0.)

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ordered_uuid UPDATE TO '1.5.2'" to load this file. \quit

-- The hint for a caller without EXECUTE (extension/05_privileges.sql): the
-- planner support function of every function that is not PUBLIC's.
CREATE FUNCTION execute_privilege_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'execute_privilege_support'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION execute_privilege_support(internal) IS
'planner support of the functions that are not PUBLIC''s: a caller without EXECUTE gets core''s permission error with a hint naming the roles that hold it';

ALTER FUNCTION index_splits(pg_lsn, pg_lsn) SUPPORT execute_privilege_support;
ALTER FUNCTION index_shape(regclass) SUPPORT execute_privilege_support;
ALTER FUNCTION explain_writes(text) SUPPORT execute_privilege_support;
ALTER FUNCTION ordered_uuid_reset() SUPPORT execute_privilege_support;
ALTER FUNCTION bench_insert(text[], bigint, int, int, bigint, bool, bool, int) SUPPORT execute_privilege_support;
ALTER FUNCTION bench_insert_distributed(text[], bigint, int, int, bigint, int, bool) SUPPORT execute_privilege_support;
ALTER FUNCTION bench_bulk_load(int, bigint, int, bool) SUPPORT execute_privilege_support;
ALTER FUNCTION bench_multi_table(int, int, bigint, bool, bool) SUPPORT execute_privilege_support;
ALTER FUNCTION bench_locality(int, int, int, int, int, bool) SUPPORT execute_privilege_support;
ALTER FUNCTION bench_cleanup() SUPPORT execute_privilege_support;
