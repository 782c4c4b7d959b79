-- ordered_uuid 0.1.0 -> 1.0.0
--
-- Every SQL change since 0.1.0, so that ALTER EXTENSION ordered_uuid UPDATE
-- gives the same catalog as a fresh 1.0.0 install (checked by the upgrade
-- test, sql/upgrade.sql).  Never drops a generator: tables use them as
-- column defaults.

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ordered_uuid UPDATE TO '1.0.0'" to load this file. \quit
