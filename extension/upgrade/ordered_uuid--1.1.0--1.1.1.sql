-- ordered_uuid 1.1.0 -> 1.1.1
--
-- 1.1.1 changes the library only (see CHANGELOG.md): no SQL object changes,
-- so this step only records the new version.  The upgrade test
-- (sql/upgrade.sql) checks that the catalog stays that of a fresh install.

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ordered_uuid UPDATE TO '1.1.1'" to load this file. \quit
