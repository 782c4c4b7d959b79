--
-- sql/include/sql_edition_setup.sql: a database of its own (:db) with both
-- editions.  The C edition (ordered_uuid) in schema c_ed, created by the
-- superuser that runs the suite; the SQL edition in schema sqled, installed
-- from the plain file :plainfile (by default ordered_uuid_sql.sql, which make
-- sql-edition writes) by :owner, a role that is not a superuser, cannot
-- create databases, schemas or roles, and owns nothing but that schema.
-- public is closed to it (on 14 too).  pgstattuple is there for
-- index_shape, pg_stat_scan_tables granted to :owner (both editions'
-- index_shape and pgstatindex itself need it).  Every role may use the
-- schema (GRANT USAGE, as doc/sql-edition.md says).  The session ends
-- connected to :db as :owner, search_path unset.
--
SET client_min_messages = warning;
DROP DATABASE IF EXISTS :"db";
DROP ROLE IF EXISTS :"owner";
RESET client_min_messages;
CREATE DATABASE :"db";
CREATE ROLE :"owner" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;
\c :"db"
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
CREATE SCHEMA c_ed;
GRANT USAGE ON SCHEMA c_ed TO PUBLIC;
CREATE EXTENSION ordered_uuid SCHEMA c_ed;
CREATE EXTENSION pgstattuple SCHEMA public;
GRANT pg_stat_scan_tables TO :"owner";
CREATE SCHEMA sqled AUTHORIZATION :"owner";
\c - :"owner"
SET search_path = sqled;
\set ECHO none
\if :{?plainfile}
\else
\set plainfile ordered_uuid_sql.sql
\endif
SET client_min_messages = warning;
\i :plainfile
RESET client_min_messages;
\set ECHO all
RESET search_path;
GRANT USAGE ON SCHEMA sqled TO PUBLIC;
SELECT r.rolsuper, r.rolcreatedb, r.rolcreaterole,
	   has_database_privilege(current_database(), 'CREATE') AS may_create_schemas
  FROM pg_roles r WHERE r.rolname = current_user;
