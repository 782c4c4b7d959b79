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
-- security, settings, C symbol or body, grants and comment; views with their
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
                   'src ' || p.prosrc, 'acl ' || p.proacl::text)
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

-- 0.1.0, used as a user would: generators as primary-key defaults, user
-- views on top of the extension's views, the views read
CREATE EXTENSION ordered_uuid VERSION '0.1.0';
CREATE SEQUENCE s;
CREATE TABLE t_v7 (id uuid PRIMARY KEY DEFAULT uuid_v7_nextval(), n int);
CREATE TABLE t_time (id uuid PRIMARY KEY DEFAULT uuid_time_nextval(), n int);
CREATE TABLE t_seq (id uuid PRIMARY KEY DEFAULT uuid_sequence_nextval('s'::regclass, 4, 256), n int);
CREATE TABLE t_named (id uuid PRIMARY KEY DEFAULT uuid_time_nextval(interval_length => 3600, interval_count => 256), n int);
INSERT INTO t_v7 (n) SELECT g FROM generate_series(1, 100) g;
INSERT INTO t_time (n) SELECT g FROM generate_series(1, 100) g;
INSERT INTO t_seq (n) SELECT g FROM generate_series(1, 100) g;
INSERT INTO t_named (n) SELECT g FROM generate_series(1, 100) g;
CREATE VIEW my_waits AS SELECT pid, relation FROM extend_lock_waits;
CREATE VIEW my_profile AS SELECT database, samples FROM wait_profile;
CREATE VIEW my_splits AS SELECT index, leaf_splits FROM index_split_stats;
CREATE VIEW my_extend AS SELECT relation, waits FROM extend_lock_stats;
SELECT count(*) AS waiting_now FROM my_waits;

-- the update: every step of the chain, by default to the newest version
ALTER EXTENSION ordered_uuid UPDATE;
SELECT e.extversion = (SELECT v.default_version FROM pg_catalog.pg_available_extensions v
                        WHERE v.name = 'ordered_uuid') AS updated_to_default
  FROM pg_catalog.pg_extension e WHERE e.extname = 'ordered_uuid';

-- no difference allowed, either way
SELECT * FROM (
    SELECT 'only after update' AS side, * FROM (SELECT * FROM ext_catalog EXCEPT SELECT * FROM fresh_catalog) a
    UNION ALL
    SELECT 'only in fresh install', * FROM (SELECT * FROM fresh_catalog EXCEPT SELECT * FROM ext_catalog) b) d
ORDER BY object COLLATE "C", side COLLATE "C";

-- the defaults still work, and keep their order across the update
INSERT INTO t_v7 (n) SELECT g FROM generate_series(101, 200) g;
INSERT INTO t_time (n) SELECT g FROM generate_series(101, 200) g;
INSERT INTO t_seq (n) SELECT g FROM generate_series(101, 200) g;
INSERT INTO t_named (n) SELECT g FROM generate_series(101, 200) g;
SELECT (SELECT count(*) FROM t_v7) AS v7_rows,
       (SELECT count(*) FROM t_time) AS time_rows,
       (SELECT count(*) FROM t_seq) AS seq_rows,
       (SELECT count(*) FROM t_named) AS named_rows;
-- v7 keys increase with insertion order within a session
SELECT bool_and(ordered) AS v7_increasing
  FROM (SELECT id > lag(id) OVER (ORDER BY n) AS ordered FROM t_v7) o WHERE ordered IS NOT NULL;
-- block ids of the sequence generator: 4 values per block, continuing across the update
SELECT bool_and(uuid_block_id(id, 256) = (n - 1) / 4) AS seq_blocks_continue FROM t_seq;
SELECT count(*) AS waiting_now FROM my_waits;

\c :origdb
DROP DATABASE regress_ou_upgrade;
