-- ordered_uuid 1.5.0 -> 1.5.2
--
-- The same changes as in extension/*.sql; the upgrade test (sql/upgrade.sql)
-- checks that the catalog becomes that of a fresh install.  (1.5.1 changed
-- the library alone: its SQL version is 1.5.0.)

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ordered_uuid UPDATE TO '1.5.2'" to load this file. \quit
