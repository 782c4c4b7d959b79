--
-- index_shape() against pgstatindex; heap_locality() against a plain SQL
-- count over ctid, before and after CLUSTER.
--
\set VERBOSITY sqlstate
SET client_min_messages = warning;	-- whether or not an earlier suite made it
CREATE EXTENSION IF NOT EXISTS pgstattuple;
RESET client_min_messages;

CREATE TABLE sh_t (id uuid, k int, pad text) WITH (autovacuum_enabled = off);
CREATE INDEX sh_rand_idx ON sh_t (id);
CREATE INDEX sh_k_idx ON sh_t (k);
CREATE INDEX sh_hash_idx ON sh_t USING hash (k);
CREATE INDEX sh_empty_idx ON sh_t (pad) WHERE pad IS NULL;
-- Interleaved keys: every key's rows spread over the whole heap.
INSERT INTO sh_t SELECT gen_random_uuid(), g % 100, repeat('x', 50) FROM generate_series(1, 20000) AS g;

-- index_shape and pgstatindex agree (the same counting rules).
CREATE FUNCTION pg_temp.shape_agrees(idx regclass) RETURNS TABLE (
	pages_ok boolean, levels_ok boolean, density_ok boolean, fragmentation_ok boolean, deleted_ok boolean)
LANGUAGE sql AS $$
	SELECT s.leaf_pages = p.leaf_pages AND s.internal_pages = p.internal_pages,
		   s.levels = CASE WHEN p.root_block_no = 0 THEN 0 ELSE p.tree_level + 1 END,
		   -- pgstatindex before PG18 leaves one line pointer per page out
		   -- of the free space (<= 0.05 points); both round to 2 decimals.
		   coalesce(abs(s.avg_leaf_density::numeric -
			 (CASE WHEN p.avg_leaf_density = 'NaN' THEN NULL ELSE p.avg_leaf_density::numeric END)) <= 0.06
			 AND s.avg_leaf_density::numeric = round(s.avg_leaf_density::numeric, 2),
			 s.avg_leaf_density IS NULL AND p.avg_leaf_density = 'NaN'),
		   round(s.leaf_fragmentation::numeric, 2) IS NOT DISTINCT FROM
			 (CASE WHEN p.leaf_fragmentation = 'NaN' THEN NULL ELSE round(p.leaf_fragmentation::numeric, 2) END),
		   s.deleted_pages = p.deleted_pages AND s.empty_pages = p.empty_pages
	FROM index_shape(idx) AS s, pgstatindex(idx::text) AS p
$$;
SELECT 'sh_rand_idx' AS index, * FROM pg_temp.shape_agrees('sh_rand_idx')
UNION ALL SELECT 'sh_k_idx', * FROM pg_temp.shape_agrees('sh_k_idx')
UNION ALL SELECT 'sh_empty_idx', * FROM pg_temp.shape_agrees('sh_empty_idx');
-- Random keys: pages ~70% full and scattered; a fresh build: full and in order.
CREATE INDEX sh_built_idx ON sh_t (id);
SELECT r.levels >= 2 AS rand_levels,
	   r.avg_leaf_density < b.avg_leaf_density AS rand_less_dense,
	   r.leaf_fragmentation > 20 AND b.leaf_fragmentation = 0 AS rand_fragmented,
	   e.leaf_pages = 0 AND e.levels = 0 AND e.avg_leaf_density IS NULL AS empty_ok
FROM index_shape('sh_rand_idx') AS r, index_shape('sh_built_idx') AS b, index_shape('sh_empty_idx') AS e;
-- Deleted pages after VACUUM.
DELETE FROM sh_t WHERE k < 90;
VACUUM sh_t;
SELECT 'after vacuum' AS state, * FROM pg_temp.shape_agrees('sh_k_idx');

-- Errors: not a B-tree, NULL, no privilege.  GRANT decides who may call
-- it: by default pg_stat_scan_tables (as pgstatindex), not an index's
-- owner; an explicit GRANT EXECUTE lets a role in, and no C check
-- overrides it.
SELECT * FROM index_shape('sh_hash_idx');
SELECT * FROM index_shape('sh_t');
SELECT * FROM index_shape(NULL);
SELECT * FROM index_shape(0);
CREATE ROLE regress_diag_shape;
CREATE ROLE regress_diag_scan IN ROLE pg_stat_scan_tables;
SET ROLE regress_diag_shape;
SELECT * FROM index_shape('sh_k_idx');
RESET ROLE;
SET ROLE regress_diag_scan;
SELECT leaf_pages > 0 AS scanner_can FROM index_shape('sh_k_idx');
RESET ROLE;
CREATE TABLE sh_owned (id int);
CREATE INDEX sh_owned_idx ON sh_owned (id);
ALTER TABLE sh_owned OWNER TO regress_diag_shape;
SET ROLE regress_diag_shape;
SELECT levels FROM index_shape('sh_owned_idx');
RESET ROLE;
SELECT leaf_pages AS sh_k_leaf_pages FROM pgstatindex('sh_k_idx') \gset
GRANT EXECUTE ON FUNCTION index_shape(regclass) TO regress_diag_shape;
SET ROLE regress_diag_shape;
SELECT levels FROM index_shape('sh_owned_idx');
SELECT leaf_pages = :sh_k_leaf_pages AS granted_can FROM index_shape('sh_k_idx');
RESET ROLE;
REVOKE EXECUTE ON FUNCTION index_shape(regclass) FROM regress_diag_shape;
-- The error is core's, with a hint: the roles that hold EXECUTE and the
-- GRANTs that would let the caller in (execute_privilege_support, the
-- function's planner support, makes core's check while the call is planned).
-- It follows the GRANTs: a second role is named too, and a role given
-- EXECUTE is let in as before.
\set VERBOSITY default
SET ROLE regress_diag_shape;
SELECT * FROM index_shape('sh_k_idx');
SELECT (index_shape('sh_k_idx')).levels;
RESET ROLE;
GRANT EXECUTE ON FUNCTION index_shape(regclass) TO regress_diag_scan;
SET ROLE regress_diag_shape;
SELECT leaf_pages FROM index_shape('sh_k_idx');
RESET ROLE;
REVOKE EXECUTE ON FUNCTION index_shape(regclass) FROM regress_diag_scan;
-- a call the planner folds away is never made, and core never checks it:
-- neither does the hint
SET ROLE regress_diag_shape;
SELECT (index_shape('sh_k_idx')).levels > 0 AND false AS folded_away;
RESET ROLE;
-- a plan made for a role with EXECUTE, run by one without: core's error
PREPARE sh_shape AS SELECT leaf_pages > 0 AS has_pages FROM index_shape('sh_k_idx');
EXECUTE sh_shape;
SET ROLE regress_diag_shape;
EXECUTE sh_shape;
RESET ROLE;
DEALLOCATE sh_shape;
\set VERBOSITY sqlstate
-- A partitioned index has no pages: the error says what it is and where to
-- look, and the index of each partition answers as pgstatindex does.
-- heap_locality() counts the rows of every partition of a partitioned table.
CREATE TABLE sh_part (id int PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE sh_part_1 PARTITION OF sh_part FOR VALUES FROM (0) TO (1000);
CREATE TABLE sh_part_2 PARTITION OF sh_part FOR VALUES FROM (1000) TO (2000);
INSERT INTO sh_part SELECT generate_series(0, 1999);
\set VERBOSITY default
SELECT * FROM index_shape('sh_part_pkey');
\set VERBOSITY sqlstate
SELECT t.relid AS partition_index, s.leaf_pages = p.leaf_pages AS agrees
  FROM pg_partition_tree('sh_part_pkey') AS t
 CROSS JOIN LATERAL index_shape(t.relid) AS s
 CROSS JOIN LATERAL pgstatindex(t.relid::text) AS p
 WHERE t.isleaf ORDER BY t.relid::text COLLATE "C";
SELECT keys, rows FROM heap_locality('sh_part', 'id');
DROP TABLE sh_part;

-- heap_locality: the same numbers by hand.
TRUNCATE sh_t;
INSERT INTO sh_t SELECT gen_random_uuid(), g % 100, repeat('x', 50) FROM generate_series(1, 20000) AS g;
INSERT INTO sh_t SELECT gen_random_uuid(), NULL, 'null key' FROM generate_series(1, 10);
CREATE FUNCTION pg_temp.by_hand(OUT keys bigint, OUT rows bigint, OUT blocks_per_key numeric,
								OUT ideal numeric) LANGUAGE sql AS $$
	WITH r AS (SELECT k, (ctid::text::point)[0] AS blk FROM sh_t WHERE k IS NOT NULL),
		 per AS (SELECT k, count(*) AS n, count(DISTINCT blk) AS nb FROM r GROUP BY k),
		 tpp AS (SELECT count(*)::numeric / count(DISTINCT blk) AS tpp FROM r)
	SELECT count(*), sum(n), avg(nb), avg(ceil(n / tpp)) FROM per, tpp
$$;
-- the ratios are rounded to two decimals for the reader
CREATE FUNCTION pg_temp.two_decimals(VARIADIC x float8[]) RETURNS boolean LANGUAGE sql AS $$
	SELECT bool_and(v::numeric = round(v::numeric, 2)) FROM unnest(x) AS v
$$;
SELECT 'before cluster' AS state, l.keys = h.keys AS keys_ok, l.rows = h.rows AS rows_ok,
	   abs(l.blocks_per_key::numeric - h.blocks_per_key) <= 0.005 AS blocks_ok,
	   abs(l.ideal_blocks_per_key::numeric - h.ideal) <= 0.005 AS ideal_ok,
	   l.rows_per_key = 200 AS rows_per_key_ok,
	   l.amplification > 20 AS scattered,
	   pg_temp.two_decimals(l.blocks_per_key, l.ideal_blocks_per_key, l.amplification,
							l.tuples_per_page) AS two_decimals
FROM heap_locality('sh_t', 'k') AS l, pg_temp.by_hand() AS h;
CLUSTER sh_t USING sh_k_idx;
SELECT 'after cluster' AS state, l.keys = h.keys AS keys_ok, l.rows = h.rows AS rows_ok,
	   abs(l.blocks_per_key::numeric - h.blocks_per_key) <= 0.005 AS blocks_ok,
	   abs(l.ideal_blocks_per_key::numeric - h.ideal) <= 0.005 AS ideal_ok,
	   l.rows_per_key = 200 AS rows_per_key_ok,
	   l.amplification < 1.5 AS packed,
	   pg_temp.two_decimals(l.blocks_per_key, l.ideal_blocks_per_key, l.amplification,
							l.tuples_per_page) AS two_decimals
FROM heap_locality('sh_t', 'k') AS l, pg_temp.by_hand() AS h;
-- An empty table; errors.
CREATE TABLE sh_none (k int);
SELECT * FROM heap_locality('sh_none', 'k');
SELECT * FROM heap_locality('sh_t', 'no_such_column');
SELECT * FROM heap_locality('sh_k_idx', 'k');
SELECT * FROM heap_locality('sh_t', NULL);
-- A key without an equality operator cannot be grouped: a clear error
-- (42883), not the query heap_locality generates.
CREATE TABLE sh_odd (j json, p point);
INSERT INTO sh_odd VALUES ('{"a": 1}', point(1, 2));
\set VERBOSITY default
SELECT * FROM heap_locality('sh_odd', 'j');
SELECT * FROM heap_locality('sh_odd', 'p');
\set VERBOSITY sqlstate
DROP TABLE sh_odd;
-- The caller's privileges: SELECT on the table is needed.
SET ROLE regress_diag_shape;
SELECT * FROM heap_locality('sh_t', 'k');
RESET ROLE;

DROP TABLE sh_t, sh_owned, sh_none;
DROP ROLE regress_diag_shape;
DROP ROLE regress_diag_scan;
