--
-- One upgrade case of sql/upgrade.sql: install release :from, use it as a
-- user would (generators as primary-key defaults, views of one's own on the
-- extension's views), update to the default version, and compare the catalog
-- with a fresh install's (fresh_catalog); then check the defaults still work.
--
CREATE EXTENSION ordered_uuid VERSION :'from';
SELECT extversion AS installed FROM pg_catalog.pg_extension WHERE extname = 'ordered_uuid';
CREATE SEQUENCE s;
CREATE TABLE t_v7 (id uuid PRIMARY KEY DEFAULT uuid_v7_nextval(), n int);
CREATE TABLE t_time (id uuid PRIMARY KEY DEFAULT uuid_time_nextval(), n int);
CREATE TABLE t_seq (id uuid PRIMARY KEY DEFAULT uuid_sequence_nextval('s'::regclass, 4, 256), n int);
CREATE TABLE t_named (id uuid PRIMARY KEY DEFAULT uuid_time_nextval(interval_length => 3600, interval_count => 256), n int);
INSERT INTO t_v7 (n) SELECT g FROM generate_series(1, 100) g;
INSERT INTO t_time (n) SELECT g FROM generate_series(1, 100) g;
INSERT INTO t_seq (n) SELECT g FROM generate_series(1, 100) g;
INSERT INTO t_named (n) SELECT g FROM generate_series(1, 100) g;
-- a striped default, from the first release that has the generator (1.1.0)
SELECT pg_catalog.to_regprocedure('uuid_striped_nextval(integer)') IS NOT NULL AS has_striped \gset
\if :has_striped
CREATE TABLE t_striped (id uuid PRIMARY KEY DEFAULT uuid_striped_nextval(), n int);
INSERT INTO t_striped (n) SELECT g FROM generate_series(1, 100) g;
\endif
CREATE VIEW my_waits AS SELECT pid, relation FROM extend_lock_waits;
CREATE VIEW my_profile AS SELECT database, samples FROM wait_profile;
CREATE VIEW my_splits AS SELECT index, leaf_splits FROM index_split_stats;
CREATE VIEW my_extend AS SELECT relation, waits FROM extend_lock_stats;
-- a view on a function the update replaces (same signature and result)
CREATE VIEW my_locality AS SELECT keys, amplification FROM heap_locality('t_v7', 'id');
SELECT count(*) AS waiting_now FROM my_waits;

-- The library is installed before ALTER EXTENSION ... UPDATE runs: until
-- then it serves the functions as this release declares them, with their
-- arguments (bench_insert without repeats before 1.3.0) and their result
-- columns (13 of bench_insert before 1.3.0, 15 of explain_writes before
-- 1.2.0), and must give the same answers.  Each generator's 50 keys fit in
-- one leaf page: no split, a metapage and a leaf.
SET client_min_messages = warning;
SELECT b.generator, b.rows, (SELECT count(*) FROM json_object_keys(row_to_json(b))) AS columns,
	   b.leaf_splits_per_1k, b.index_bytes, b.rows_per_sec > 0 AS timed,
	   b.wal_bytes_per_row > 0 AS wal_counted, b.avg_leaf_density > 0 AS density,
	   b.kept_table IS NULL AS dropped
  FROM bench_insert(ARRAY['bigint', 'uuid_v7_nextval()'], 50, 1, 10) AS b;
RESET client_min_messages;
CREATE TABLE t_ew (n int);
SELECT w.kind, CASE w.kind WHEN 'total' THEN w.wal_records >= 100 ELSE w.wal_records = 100 END AS records,
	   w.rows,
	   (SELECT count(*) FROM json_object_keys(row_to_json(w))) AS columns
  FROM explain_writes('INSERT INTO t_ew SELECT pg_catalog.generate_series(1, 100)') AS w
 WHERE w.relation = 't_ew'::regclass OR w.kind = 'total'
 ORDER BY w.kind COLLATE "C";
DROP TABLE t_ew;

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
-- 1.6.0 adds uuid_striped_nextval(interval_length, right_edge) beside the
-- one-argument form: a default made before still calls the one-argument
-- form, and a call without right_edge still resolves to it
\if :has_striped
INSERT INTO t_striped (n) SELECT g FROM generate_series(101, 200) g;
SELECT count(*) = 200 AND bool_and(uuid_version(id) = 8) AS striped_default_works,
	   (SELECT pg_catalog.pg_describe_object(d.refclassid, d.refobjid, 0)
		  FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_attrdef ad ON ad.oid = d.objid
		 WHERE d.classid = 'pg_catalog.pg_attrdef'::regclass AND ad.adrelid = 't_striped'::regclass
		   AND d.refclassid = 'pg_catalog.pg_proc'::regclass) AS striped_default_calls
  FROM t_striped;
\else
SELECT true AS striped_default_works, 'function uuid_striped_nextval(integer)' AS striped_default_calls;
\endif
SELECT uuid_version(uuid_striped_nextval()) = 8 AND uuid_version(uuid_striped_nextval(60)) = 8 AND
	   uuid_version(uuid_striped_nextval(3600, right_edge => false)) = 8 AS striped_forms_resolve;
-- v7 keys increase with insertion order within a session
SELECT bool_and(ordered) AS v7_increasing
  FROM (SELECT id > lag(id) OVER (ORDER BY n) AS ordered FROM t_v7) o WHERE ordered IS NOT NULL;
-- block ids of the sequence generator: 4 values per block, continuing across the update
SELECT bool_and(uuid_block_id(id, 256) = (n - 1) / 4) AS seq_blocks_continue FROM t_seq;
SELECT count(*) AS waiting_now FROM my_waits;


-- leave the database as this file found it, for the next case
SELECT keys AS locality_keys FROM my_locality;
DROP VIEW my_waits, my_profile, my_splits, my_extend, my_locality;
DROP TABLE t_v7, t_time, t_seq, t_named;
\if :has_striped
DROP TABLE t_striped;
\endif
DROP SEQUENCE s;
DROP EXTENSION ordered_uuid;
