-- ordered_uuid 1.1.1 -> 1.2.0
--
-- The same changes as in extension/*.sql; the upgrade test (sql/upgrade.sql)
-- checks that the catalog becomes that of a fresh install.

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ordered_uuid UPDATE TO '1.2.0'" to load this file. \quit

-- Benchmarks: they hold background workers and write to the database, so
-- they are no longer PUBLIC's (GRANT EXECUTE to the roles that may run them).
REVOKE ALL ON FUNCTION bench_insert(text[], bigint, int, int, bigint, bool, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_insert_distributed(text[], bigint, int, int, bigint, int, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_bulk_load(int, bigint, int, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_multi_table(int, int, bigint, bool, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_locality(int, int, int, int, int, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_cleanup() FROM PUBLIC;
