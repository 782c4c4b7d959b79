-- bench/locality_keys.sql -- does an ordered key keep a group's rows together?  (scenario S4)
--
--   psql -X -d DB -f bench/locality_keys.sql        (DB has the extension; it needs SELECT on
--                                                     nothing of yours: it works in a schema of its own)
--
-- The question behind bench_locality(): could the key of the table, rather than CLUSTER or a
-- covering index, keep one group's rows together as they are written?  Three tables get the same
-- rows, written the way bench_locality writes them (arrival n belongs to group (n - 1) % groups,
-- 100 arrivals to an INSERT), each with a different primary key on (grp, <second column>) INCLUDE
-- (payload):
--
--   seq      (grp, seq bigint): the arrival number, an increasing key
--   v7       (grp, id uuid DEFAULT uuid_v7_nextval()): an ordered UUID key
--   random   (grp, id uuid DEFAULT gen_random_uuid()): a random UUID key
--
-- For each: the insert rate, heap_locality() of the table, the primary key's size and leaf density
-- (index_shape()), then after VACUUM the blocks one group's index-only read fetches, counted with
-- pg_stat_get_xact_blocks_fetched() over sample groups (the visibility-map page an index-only scan
-- reads is counted with the heap).  Knobs: -v groups=1000 -v rows_per_group=500 -v row_bytes=120.
\set ON_ERROR_STOP on
\if :{?groups} \else \set groups 1000 \endif
\if :{?rows_per_group} \else \set rows_per_group 500 \endif
\if :{?row_bytes} \else \set row_bytes 120 \endif
\pset footer off
\set QUIET on
SET client_min_messages = warning;
DROP SCHEMA IF EXISTS locality_keys CASCADE;
CREATE SCHEMA locality_keys;
SET search_path = locality_keys, public;
CREATE TABLE result (key text, rows_per_sec float8, amplification float8, index_bytes bigint,
					 avg_leaf_density float8, heap_blocks_per_group float8, index_blocks_per_group float8);

CREATE FUNCTION load(key text, second text, payload int, groups int, total bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
BEGIN
	EXECUTE format('CREATE TABLE %I (grp int NOT NULL, seq bigint NOT NULL, %s payload text,'
				   ' PRIMARY KEY (grp, %s) INCLUDE (payload))',
				   key, CASE WHEN second = 'seq' THEN '' ELSE 'id uuid DEFAULT ' || second || ',' END,
				   CASE WHEN second = 'seq' THEN 'seq' ELSE 'id' END);
	EXECUTE format('ALTER TABLE %I ALTER COLUMN payload SET STORAGE PLAIN', key);
	t0 := clock_timestamp();
	FOR b IN 0 .. (total - 1) / 100 LOOP
		EXECUTE format('INSERT INTO %I (grp, seq, payload) SELECT (n - 1) %% %s, n, repeat(''x'', %s)'
					   ' FROM generate_series($1, least($1 + 99, $2)) n', key, groups, payload)
			USING b * 100 + 1, total;
	END LOOP;
	INSERT INTO result (key, rows_per_sec)
	VALUES (key, round(total / extract(epoch FROM clock_timestamp() - t0))::float8);
END $$;

-- every row of a heap tuple: 24 header, 4 grp, 4 padding, 8 seq, 4 payload header (+ 16 for the uuid)
\o /dev/null
SELECT load('seq', 'seq', :row_bytes - 44, :groups, :groups::bigint * :rows_per_group);
SELECT load('v7', 'uuid_v7_nextval()', :row_bytes - 60, :groups, :groups::bigint * :rows_per_group);
SELECT load('random', 'gen_random_uuid()', :row_bytes - 60, :groups, :groups::bigint * :rows_per_group);
VACUUM (ANALYZE) seq, v7, random;

-- blocks fetched per group by an index-only read of 100 groups, after a pass that warms the cache
CREATE FUNCTION blocks(k text, groups int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	h0 bigint;
	i0 bigint;
	h1 bigint;
	i1 bigint;
	n int := least(100, groups);
BEGIN
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_bitmapscan = off;
	SET LOCAL plan_cache_mode = force_generic_plan;
	FOR pass IN 1 .. 2 LOOP
		h0 := pg_stat_get_xact_blocks_fetched(k::regclass);
		i0 := pg_stat_get_xact_blocks_fetched((k || '_pkey')::regclass);
		FOR g IN 0 .. n - 1 LOOP
			EXECUTE format('SELECT count(*), sum(length(payload)) FROM %I WHERE grp = $1', k)
				USING g * groups / n;
		END LOOP;
	END LOOP;
	h1 := pg_stat_get_xact_blocks_fetched(k::regclass);
	i1 := pg_stat_get_xact_blocks_fetched((k || '_pkey')::regclass);
	UPDATE result SET
		heap_blocks_per_group = round((h1 - h0)::numeric / n, 2),
		index_blocks_per_group = round((i1 - i0)::numeric / n, 2),
		amplification = (SELECT h.amplification FROM heap_locality(k::regclass, 'grp') h),
		index_bytes = pg_relation_size((k || '_pkey')::regclass),
		avg_leaf_density = (SELECT s.avg_leaf_density FROM index_shape((k || '_pkey')::regclass) s)
	WHERE result.key = k;
END $$;
SELECT blocks('seq', :groups);
SELECT blocks('v7', :groups);
SELECT blocks('random', :groups);
\o
EXPLAIN (COSTS OFF) SELECT count(*), sum(length(payload)) FROM v7 WHERE grp = 1;

SELECT current_setting('server_version') AS postgresql, :groups AS groups, :rows_per_group AS rows_per_group,
	   :row_bytes AS row_bytes;
SELECT key, rows_per_sec, amplification, pg_size_pretty(index_bytes) AS index, avg_leaf_density,
	   heap_blocks_per_group, index_blocks_per_group
  FROM result ORDER BY key DESC;
RESET search_path;
DROP SCHEMA locality_keys CASCADE;
