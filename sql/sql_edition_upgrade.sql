--
-- Updating the plain-file SQL edition in place.  make
-- installcheck-sql-edition writes a synthetic earlier version, 1.5.99
-- (tmp_check/sql-edition/prev/: this version without uuid_time_decoder), and
-- this version's files with the update step from it (tmp_check/sql-edition/
-- next/: the frozen-script scheme of sql-edition/upgrade/, with that step as
-- its only frozen script), by scripts/sql_edition.py.  Running the newer
-- plain file where the older one is installed runs the step: the schema then
-- holds what a fresh install holds, and a table whose defaults call the
-- edition keeps working, its keys as they were.  The same file again
-- changes nothing; an older file, another role or a schema it cannot
-- install into is refused.  Then the real steps, from the last release
-- (SQL_EDITION_RELEASED in the Makefile).
--
SELECT current_database() AS regress_db, current_user AS superuser \gset
\set db regress_ou_sqled_upgrade
\set owner regress_ou_sqled_upgrade_owner
\set plainfile tmp_check/sql-edition/prev/ordered_uuid_sql.sql
\i sql/include/sql_edition_setup.sql
SELECT sqled.ordered_uuid_sql_version();
SELECT to_regprocedure('sqled.uuid_time_decoder(text)') IS NULL AS decoder_not_there_yet;
-- a fresh install of this version beside it, to compare with
\c - :superuser
CREATE SCHEMA sqled_fresh AUTHORIZATION :owner;
CREATE SCHEMA sqled_released AUTHORIZATION :owner;
\c - :owner
SET search_path = sqled_fresh;
SET client_min_messages = warning;
\set ECHO none
\i tmp_check/sql-edition/next/ordered_uuid_sql.sql
\set ECHO all
RESET client_min_messages;
RESET search_path;
\i sql/include/sql_edition_catalog.sql

-- A table whose defaults call the older version.
CREATE TABLE sqled.t (id uuid PRIMARY KEY DEFAULT sqled.uuid_striped_nextval(), v7 uuid DEFAULT sqled.uuid_v7_nextval(), n int);
INSERT INTO sqled.t (n) SELECT g FROM generate_series(1, 1000) g;
CREATE TEMP TABLE t_before AS SELECT * FROM sqled.t;

-- The update: the newer file where the older is installed.
SET search_path = sqled;
SET client_min_messages = warning;
\set ECHO none
\i tmp_check/sql-edition/next/ordered_uuid_sql.sql
\set ECHO all
RESET client_min_messages;
RESET search_path;
SELECT sqled.ordered_uuid_sql_version();
SELECT count(*) AS objects, (SELECT count(*) FROM pg_temp.catalog_diff('sqled', 'sqled_fresh')) AS differences
  FROM pg_temp.catalog('sqled');
SELECT * FROM pg_temp.catalog_diff('sqled', 'sqled_fresh');
-- the table: its keys as they were, its defaults still working
INSERT INTO sqled.t (n) SELECT g FROM generate_series(1001, 2000) g;
SELECT count(*) AS rows, count(DISTINCT id) AS distinct_ids,
	   (SELECT count(*) FROM t_before b JOIN sqled.t USING (id, v7, n)) AS kept,
	   count(*) FILTER (WHERE sqled.uuid_time_decoder(id::text) = sqled.uuid_time(id)) AS decoded
  FROM sqled.t;

-- The same file again: nothing to do (no error).  An older file: refused.
-- (The refused runs below are the files' text run as one statement, so that
-- their errors print without the file's line numbers.)
SET search_path = sqled;
SET client_min_messages = warning;
\set ECHO none
\i tmp_check/sql-edition/next/ordered_uuid_sql.sql
\set ECHO all
RESET client_min_messages;
\i sql/include/err.sql
\set next `cat tmp_check/sql-edition/next/ordered_uuid_sql.sql`
\set prev `cat tmp_check/sql-edition/prev/ordered_uuid_sql.sql`
SELECT pg_temp.err(:'prev') AS older_file;
-- The real steps (sql-edition/upgrade/): the last released version, as its
-- plain file installed it (tmp_check/sql-edition/released/), then this
-- version's plain file as make sql-edition writes it: the schema holds what
-- a fresh install holds.
SET search_path = sqled_released;
SET client_min_messages = warning;
\set ECHO none
\i tmp_check/sql-edition/released/ordered_uuid_sql.sql
\set ECHO all
SELECT sqled_released.ordered_uuid_sql_version() AS released;
\set ECHO none
\i tmp_check/sql-edition/this/ordered_uuid_sql.sql
\set ECHO all
RESET client_min_messages;
RESET search_path;
SELECT sqled_released.ordered_uuid_sql_version() = sqled_fresh.ordered_uuid_sql_version() AS updated,
	   (SELECT count(*) FROM pg_temp.catalog_diff('sqled_released', 'sqled_fresh')) AS differences;
SELECT * FROM pg_temp.catalog_diff('sqled_released', 'sqled_fresh');
-- Another role, into the same schema (which it may use, not create in).
\c - :superuser
CREATE ROLE regress_ou_sqled_upgrade_other LOGIN;
\c - regress_ou_sqled_upgrade_other
\i sql/include/err.sql
SET search_path = sqled;
SELECT pg_temp.err(:'next') AS another_role;
-- No schema to install into, one of the system's, or a name the functions
-- cannot hold.
SET search_path = no_such_schema;
SELECT pg_temp.err(:'next') AS no_schema;
SET search_path = pg_catalog;
SELECT pg_temp.err(:'next') AS pg_catalog;
\c - :superuser
CREATE SCHEMA "it's" AUTHORIZATION regress_ou_sqled_upgrade_other;
\c - regress_ou_sqled_upgrade_other
\i sql/include/err.sql
SET search_path = "it's";
SELECT pg_temp.err(:'next') AS quote_in_name;
SELECT count(*) AS created_by_the_refused_runs FROM pg_proc p
 WHERE p.proowner = 'regress_ou_sqled_upgrade_other'::regrole AND p.pronamespace <> pg_my_temp_schema();

\c :regress_db :superuser
DROP DATABASE regress_ou_sqled_upgrade;
DROP ROLE regress_ou_sqled_upgrade_owner, regress_ou_sqled_upgrade_other;
