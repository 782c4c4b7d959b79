--
-- The SQL edition as a pg_tle package (needs pg_tle preloaded and
-- installed: scripts/test-sql-edition.sh builds it from its source when it
-- has it).  A role that is no superuser, a member of pgtle_admin, owning a
-- schema: it runs the package of the synthetic earlier version (make
-- installcheck-sql-edition writes it), creates the extension in its schema,
-- then runs this version's package and updates the extension: the same
-- objects as the plain file installs, all members of the extension, the
-- sequence's value dumped with the data, a table whose defaults call them
-- still working.  The package again changes nothing; a role outside
-- pgtle_admin cannot register it.
--
SELECT current_database() AS regress_db, current_user AS superuser \gset
SET client_min_messages = warning;
DROP DATABASE IF EXISTS regress_ou_sqled_pgtle;
DROP ROLE IF EXISTS regress_ou_sqled_tle, regress_ou_sqled_tle_other;
RESET client_min_messages;
CREATE DATABASE regress_ou_sqled_pgtle;
CREATE ROLE regress_ou_sqled_tle LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;
CREATE ROLE regress_ou_sqled_tle_other LOGIN;
\c regress_ou_sqled_pgtle
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
SET client_min_messages = warning;
CREATE EXTENSION pg_tle;
RESET client_min_messages;
GRANT pgtle_admin TO regress_ou_sqled_tle;
CREATE SCHEMA tle AUTHORIZATION regress_ou_sqled_tle;
CREATE SCHEMA plain AUTHORIZATION regress_ou_sqled_tle;
\c - regress_ou_sqled_tle
SELECT r.rolsuper, pg_has_role('pgtle_admin', 'MEMBER') AS pgtle_admin
  FROM pg_roles r WHERE r.rolname = current_user;

-- 1. The earlier version's package; CREATE EXTENSION into the role's schema.
SET client_min_messages = warning;
\set ECHO none
\i tmp_check/sql-edition/prev/ordered_uuid_sql.pgtle.sql
\set ECHO all
RESET client_min_messages;
CREATE EXTENSION ordered_uuid_sql SCHEMA tle;
SELECT e.extversion, e.extnamespace::regnamespace AS schema, tle.ordered_uuid_sql_version()
  FROM pg_extension e WHERE e.extname = 'ordered_uuid_sql';
CREATE TABLE tle.t (id uuid PRIMARY KEY DEFAULT tle.uuid_striped_nextval(), v7 uuid DEFAULT tle.uuid_v7_nextval(), n int);
INSERT INTO tle.t (n) SELECT g FROM generate_series(1, 1000) g;
CREATE TEMP TABLE t_before AS SELECT * FROM tle.t;

-- 2. This version's package: the version and the update path; then the
-- update.
SET client_min_messages = warning;
\set ECHO none
\i tmp_check/sql-edition/next/ordered_uuid_sql.pgtle.sql
\set ECHO all
RESET client_min_messages;
SELECT a.default_version FROM pgtle.available_extensions() a WHERE a.name = 'ordered_uuid_sql';
SELECT u.source, u.target, u.path FROM pgtle.extension_update_paths('ordered_uuid_sql') u
 WHERE u.path IS NOT NULL ORDER BY 1, 2;
ALTER EXTENSION ordered_uuid_sql UPDATE;
SELECT e.extversion, tle.ordered_uuid_sql_version() FROM pg_extension e WHERE e.extname = 'ordered_uuid_sql';
-- the same objects as the plain file's, every one a member of the
-- extension, the sequence's value dumped with the data
SET search_path = plain;
SET client_min_messages = warning;
\set ECHO none
\i ordered_uuid_sql.sql
\set ECHO all
RESET client_min_messages;
RESET search_path;
\i sql/include/sql_edition_catalog.sql
SELECT count(*) AS objects, (SELECT count(*) FROM pg_temp.catalog_diff('tle', 'plain')) AS differences
  FROM pg_temp.catalog('tle');
SELECT * FROM pg_temp.catalog_diff('tle', 'plain');
SELECT count(*) AS objects_in_tle,
	   count(*) FILTER (WHERE EXISTS (SELECT FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
									  WHERE d.objid = o.oid AND d.deptype = 'e' AND e.extname = 'ordered_uuid_sql')) AS members
  FROM (SELECT p.oid FROM pg_proc p WHERE p.pronamespace = 'tle'::regnamespace
		UNION ALL SELECT o.oid FROM pg_operator o WHERE o.oprnamespace = 'tle'::regnamespace
		UNION ALL SELECT c.oid FROM pg_class c WHERE c.relnamespace = 'tle'::regnamespace AND c.relname <> 't'
												 AND c.relkind IN ('S', 'v')) o;
SELECT e.extconfig::regclass[] FROM pg_extension e WHERE e.extname = 'ordered_uuid_sql';
-- the table: its keys as they were, its defaults still working
INSERT INTO tle.t (n) SELECT g FROM generate_series(1001, 2000) g;
SELECT count(*) AS rows, count(DISTINCT id) AS distinct_ids,
	   (SELECT count(*) FROM t_before b JOIN tle.t USING (id, v7, n)) AS kept
  FROM tle.t;

-- 3. The extension cannot go while the table's defaults call it; without
-- the table it goes, and CREATE EXTENSION installs this version at once.
\i sql/include/err.sql
SELECT pg_temp.err('DROP EXTENSION ordered_uuid_sql') AS drop_while_used;
DROP TABLE tle.t;
DROP EXTENSION ordered_uuid_sql;
CREATE EXTENSION ordered_uuid_sql SCHEMA tle;
SELECT e.extversion FROM pg_extension e WHERE e.extname = 'ordered_uuid_sql';
SELECT count(*) AS differences FROM pg_temp.catalog_diff('tle', 'plain');

-- 4. The package again: nothing changes.
SET client_min_messages = warning;
\set ECHO none
\i tmp_check/sql-edition/next/ordered_uuid_sql.pgtle.sql
\set ECHO all
RESET client_min_messages;
SELECT count(*) AS versions FROM pgtle.available_extension_versions() a WHERE a.name = 'ordered_uuid_sql';

-- 5. A role outside pgtle_admin cannot register a package.
\c - regress_ou_sqled_tle_other
\i sql/include/err.sql
SELECT pg_temp.err($$SELECT pgtle.install_extension('regress_x', '1.0', 'x', 'SELECT 1')$$) AS install_extension;

\c - regress_ou_sqled_tle
DROP EXTENSION ordered_uuid_sql;
SELECT pgtle.uninstall_extension('ordered_uuid_sql');
\c :regress_db :superuser
DROP DATABASE regress_ou_sqled_pgtle;
DROP ROLE regress_ou_sqled_tle, regress_ou_sqled_tle_other;
