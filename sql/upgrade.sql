--
-- Upgrade path: ALTER EXTENSION ordered_uuid UPDATE from every earlier
-- release must give exactly the catalog of a fresh install, and must keep
-- working the tables that use the generators as column defaults.
--
-- Runs in a database of its own so that no other test's objects can depend
-- on the extension.
--
SELECT pg_catalog.current_database() AS origdb \gset
SET client_min_messages = warning;
DROP DATABASE IF EXISTS regress_ou_upgrade;
RESET client_min_messages;
CREATE DATABASE regress_ou_upgrade;
\c regress_ou_upgrade

-- Everything of the extension a user or client can see: each member object
-- with its signature, result, volatility, parallel label, strictness,
-- security, settings, C symbol or body, grants, planner support and comment;
-- operators with their function and estimators; views with their
-- definitions; composite types with their attributes.
CREATE VIEW ext_catalog AS
SELECT pg_catalog.pg_describe_object(d.classid, d.objid, 0) AS object,
	   CASE d.classid
	   WHEN 'pg_catalog.pg_proc'::regclass THEN
		   (SELECT pg_catalog.concat_ws(' | ',
				   'args: ' || pg_catalog.pg_get_function_arguments(p.oid),
				   'returns: ' || pg_catalog.pg_get_function_result(p.oid),
				   'kind ' || p.prokind::text, 'volatile ' || p.provolatile::text,
				   'parallel ' || p.proparallel::text, 'strict ' || p.proisstrict::text,
				   'secdef ' || p.prosecdef::text, 'leakproof ' || p.proleakproof::text,
				   'cost ' || p.procost::text, 'rows ' || p.prorows::text,
				   'lang ' || (SELECT l.lanname FROM pg_catalog.pg_language l WHERE l.oid = p.prolang),
				   'config ' || p.proconfig::text, 'bin ' || p.probin,
				   'src ' || p.prosrc, 'acl ' || p.proacl::text,
				   'support ' || p.prosupport::text)
			  FROM pg_catalog.pg_proc p WHERE p.oid = d.objid)
	   WHEN 'pg_catalog.pg_class'::regclass THEN
		   (SELECT pg_catalog.concat_ws(' | ', 'relkind ' || c.relkind::text,
				   'acl ' || c.relacl::text,
				   'columns ' || (SELECT pg_catalog.string_agg(a.attname || ' ' ||
										 pg_catalog.format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum)
									FROM pg_catalog.pg_attribute a
								   WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped),
				   'def ' || pg_catalog.pg_get_viewdef(c.oid))
			  FROM pg_catalog.pg_class c WHERE c.oid = d.objid)
	   WHEN 'pg_catalog.pg_operator'::regclass THEN
		   (SELECT pg_catalog.concat_ws(' | ', 'code ' || o.oprcode::text, 'result ' || o.oprresult::regtype::text,
				   'restrict ' || o.oprrest::text, 'join ' || o.oprjoin::text,
				   'commutator ' || o.oprcom::regoperator::text, 'negator ' || o.oprnegate::regoperator::text)
			  FROM pg_catalog.pg_operator o WHERE o.oid = d.objid)
	   WHEN 'pg_catalog.pg_type'::regclass THEN
		   (SELECT pg_catalog.concat_ws(' | ', 'typtype ' || t.typtype::text, 'acl ' || t.typacl::text)
			  FROM pg_catalog.pg_type t WHERE t.oid = d.objid)
	   WHEN 'pg_catalog.pg_namespace'::regclass THEN
		   (SELECT 'acl ' || n.nspacl::text FROM pg_catalog.pg_namespace n WHERE n.oid = d.objid)
	   END AS properties,
	   (SELECT ds.description FROM pg_catalog.pg_description ds
		 WHERE ds.classoid = d.classid AND ds.objoid = d.objid AND ds.objsubid = 0) AS comment
  FROM pg_catalog.pg_depend d
  JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid
 WHERE d.refclassid = 'pg_catalog.pg_extension'::regclass
   AND d.deptype = 'e' AND e.extname = 'ordered_uuid'
UNION ALL
SELECT 'extension ordered_uuid',
	   pg_catalog.concat_ws(' | ', 'version ' || e.extversion, 'relocatable ' || e.extrelocatable::text,
							'schema ' || e.extnamespace::regnamespace::text,
							'config ' || e.extconfig::text),
	   NULL
  FROM pg_catalog.pg_extension e WHERE e.extname = 'ordered_uuid';

-- the catalog of a fresh install of the current version
CREATE EXTENSION ordered_uuid;
SELECT e.extversion = (SELECT v.default_version FROM pg_catalog.pg_available_extensions v
						WHERE v.name = 'ordered_uuid') AS fresh_is_default
  FROM pg_catalog.pg_extension e WHERE e.extname = 'ordered_uuid';
CREATE TABLE fresh_catalog AS SELECT * FROM ext_catalog;
SELECT count(*) > 20 AS catalog_captured FROM fresh_catalog;
DROP EXTENSION ordered_uuid;

-- The frozen chain itself: 0.1.0 updated to 1.0.0 is a fresh 1.0.0.
CREATE EXTENSION ordered_uuid VERSION '1.0.0';
CREATE TABLE fresh_1_0_0 AS SELECT * FROM ext_catalog;
DROP EXTENSION ordered_uuid;
CREATE EXTENSION ordered_uuid VERSION '0.1.0';
ALTER EXTENSION ordered_uuid UPDATE TO '1.0.0';
SELECT (SELECT count(*) FROM fresh_1_0_0) > 20 AS captured, count(*) AS differences_0_1_0_to_1_0_0 FROM (
	(SELECT * FROM ext_catalog EXCEPT SELECT * FROM fresh_1_0_0)
	UNION ALL
	(SELECT * FROM fresh_1_0_0 EXCEPT SELECT * FROM ext_catalog)) d;
DROP EXTENSION ordered_uuid;

-- from every earlier release to the default version
\set from 0.1.0
\i sql/include/upgrade_from.sql
\set from 1.0.0
\i sql/include/upgrade_from.sql
\set from 1.1.0
\i sql/include/upgrade_from.sql
\set from 1.1.1
\i sql/include/upgrade_from.sql
\set from 1.2.0
\i sql/include/upgrade_from.sql
\set from 1.3.0
\i sql/include/upgrade_from.sql
\set from 1.4.0
\i sql/include/upgrade_from.sql
\set from 1.5.0
\i sql/include/upgrade_from.sql
\set from 1.5.2
\i sql/include/upgrade_from.sql
\set from 1.6.0
\i sql/include/upgrade_from.sql

-- 1.2.0 takes EXECUTE on the benchmarks from PUBLIC: so does the update
CREATE VIEW public_bench AS
SELECT count(*) AS public_bench_functions
  FROM pg_catalog.pg_proc p
 WHERE p.pronamespace = 'public'::regnamespace AND p.proname LIKE 'bench\_%'
   AND (p.proacl IS NULL OR EXISTS (SELECT FROM pg_catalog.aclexplode(p.proacl) a
									 WHERE a.grantee = 0 AND a.privilege_type = 'EXECUTE'));
CREATE EXTENSION ordered_uuid VERSION '1.1.1';
SELECT * FROM public_bench;
ALTER EXTENSION ordered_uuid UPDATE;
SELECT * FROM public_bench;
DROP EXTENSION ordered_uuid;
CREATE EXTENSION ordered_uuid;
SELECT * FROM public_bench;
DROP EXTENSION ordered_uuid;
DROP VIEW public_bench;

-- 1.3.0 gives bench_insert a new argument (repeats): the function is made
-- anew and loses the privileges granted on it, which the update says, naming
-- the grantees and the GRANT that restores them
CREATE ROLE regress_ou_upgrade_bench;
CREATE EXTENSION ordered_uuid VERSION '1.2.0';
GRANT EXECUTE ON FUNCTION bench_insert(text[], bigint, int, int, bigint, bool, bool)
	TO regress_ou_upgrade_bench, PUBLIC;
ALTER EXTENSION ordered_uuid UPDATE;
SELECT has_function_privilege('regress_ou_upgrade_bench',
							  'bench_insert(text[], bigint, int, int, bigint, bool, bool, int)', 'EXECUTE')
	   AS still_granted;
-- nothing to say when nothing was granted
DROP EXTENSION ordered_uuid;
CREATE EXTENSION ordered_uuid VERSION '1.2.0';
ALTER EXTENSION ordered_uuid UPDATE;
DROP EXTENSION ordered_uuid;
DROP ROLE regress_ou_upgrade_bench;

-- The update to 1.3.0 and what it says.  A view on collector_info(), which
-- the update drops and creates again: the update fails, the hint says what
-- to do (not core's DROP ... CASCADE), and no WARNING about privileges comes
-- from an update that rolls back.  (The context, the update script's text,
-- is not shown.)
\set SHOW_CONTEXT never
CREATE ROLE regress_ou_upgrade_grant;
CREATE EXTENSION ordered_uuid VERSION '1.2.0';
GRANT EXECUTE ON FUNCTION bench_insert(text[], bigint, int, int, bigint, bool, bool)
	TO regress_ou_upgrade_grant WITH GRANT OPTION;
CREATE VIEW my_collector AS SELECT rounds FROM collector_info();
ALTER EXTENSION ordered_uuid UPDATE;
SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'ordered_uuid';
-- the way the hint says: drop the view, update, create it again; the
-- WARNING's GRANT keeps WITH GRANT OPTION
DROP VIEW my_collector;
ALTER EXTENSION ordered_uuid UPDATE;
CREATE VIEW my_collector AS SELECT rounds FROM collector_info();
GRANT EXECUTE ON FUNCTION public.bench_insert(text[], bigint, int, int, bigint, bool, bool, int) TO regress_ou_upgrade_grant WITH GRANT OPTION;
SELECT a.privilege_type, a.is_grantable
  FROM pg_catalog.pg_proc p, pg_catalog.aclexplode(p.proacl) a
 WHERE p.oid = 'bench_insert(text[], bigint, int, int, bigint, bool, bool, int)'::regprocedure
   AND a.grantee = 'regress_ou_upgrade_grant'::regrole;
DROP VIEW my_collector;
DROP EXTENSION ordered_uuid;
-- a view on the old bench_insert(): the same
CREATE EXTENSION ordered_uuid VERSION '1.2.0';
CREATE VIEW my_bench AS
SELECT generator FROM bench_insert(ARRAY['bigint'], 1, 1, 1, 0, false, false);
ALTER EXTENSION ordered_uuid UPDATE;
DROP VIEW my_bench;
DROP EXTENSION ordered_uuid;
DROP ROLE regress_ou_upgrade_grant;
-- the update to 1.2.0 says the same of the functions it drops
CREATE EXTENSION ordered_uuid VERSION '1.1.1';
CREATE VIEW my_collector AS SELECT rounds FROM collector_info();
ALTER EXTENSION ordered_uuid UPDATE;
DROP VIEW my_collector;
CREATE VIEW my_writes AS SELECT relation FROM explain_writes('SELECT 1');
ALTER EXTENSION ordered_uuid UPDATE;
DROP VIEW my_writes;
DROP EXTENSION ordered_uuid;
-- the update to 1.5.2 says the same of write_path_report(), whose result
-- gains a column
CREATE EXTENSION ordered_uuid VERSION '1.5.0';
CREATE VIEW my_report AS SELECT rank, finding FROM write_path_report();
ALTER EXTENSION ordered_uuid UPDATE;
SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'ordered_uuid';
DROP VIEW my_report;
ALTER EXTENSION ordered_uuid UPDATE;
DROP EXTENSION ordered_uuid;
-- the update to 1.5.2 says the same of relation_wal_info(), which gains the
-- counts of evicted entries
CREATE EXTENSION ordered_uuid VERSION '1.5.0';
CREATE VIEW my_walrel AS SELECT wal_bytes FROM relation_wal_info();
ALTER EXTENSION ordered_uuid UPDATE;
DROP VIEW my_walrel;
ALTER EXTENSION ordered_uuid UPDATE;
CREATE VIEW my_walrel AS SELECT wal_bytes, evicted_bytes FROM relation_wal_info();
DROP VIEW my_walrel;
DROP EXTENSION ordered_uuid;
\set SHOW_CONTEXT errors

\c :"origdb"
DROP DATABASE regress_ou_upgrade;
