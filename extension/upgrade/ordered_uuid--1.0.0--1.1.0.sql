-- ordered_uuid 1.0.0 -> 1.1.0
--
-- Every SQL change since 1.0.0, so that ALTER EXTENSION ordered_uuid UPDATE
-- gives the same catalog as a fresh 1.1.0 install (checked by the upgrade
-- test, sql/upgrade.sql).  Never drops a generator: tables use them as
-- column defaults.

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ordered_uuid UPDATE TO '1.1.0'" to load this file. \quit

-- heap_locality rounds its ratios to two decimals, and on a Citus table
-- counts the rows in its shards on the nodes and adds up (same signature and
-- result type, so views on it keep working).
CREATE OR REPLACE FUNCTION heap_locality(rel regclass, key_column name,
							  OUT keys bigint, OUT rows bigint,
							  OUT rows_per_key float8, OUT blocks_per_key float8,
							  OUT ideal_blocks_per_key float8, OUT amplification float8,
							  OUT heap_blocks bigint, OUT tuples_per_page float8)
RETURNS record
LANGUAGE plpgsql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	relkind "char";
	src text;
	cmd text;
	citus boolean := false;
	missing bigint;
	shard record;
	f text[];
	key_blocks float8 := 0;
BEGIN
	IF rel IS NULL OR key_column IS NULL THEN
		RAISE EXCEPTION 'rel and key_column must not be NULL' USING ERRCODE = '22004';
	END IF;
	SELECT c.relkind INTO relkind FROM pg_class c WHERE c.oid = rel;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'relation with OID % does not exist', rel::oid USING ERRCODE = '42P01';
	END IF;
	IF relkind NOT IN ('r', 'm', 'p') THEN
		RAISE EXCEPTION '"%" is not a table or materialized view', rel
			USING ERRCODE = '42809';
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_attribute a
				   WHERE a.attrelid = rel AND a.attname = key_column
					 AND a.attnum > 0 AND NOT a.attisdropped) THEN
		RAISE EXCEPTION 'column "%" of relation "%" does not exist', key_column, rel
			USING ERRCODE = '42703';
	END IF;
	-- (pg_dist_partition exists only with Citus: dynamic SQL)
	IF EXISTS (SELECT 1 FROM pg_extension e WHERE e.extname = 'citus') THEN
		EXECUTE 'SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_partition p'
				' WHERE p.logicalrelid::pg_catalog.oid OPERATOR(pg_catalog.=) $1)'
			INTO citus USING rel::oid;
	END IF;

	IF citus THEN
		EXECUTE 'SELECT pg_catalog.count(*) FROM pg_catalog.pg_dist_shard s'
				' WHERE s.logicalrelid::pg_catalog.oid OPERATOR(pg_catalog.=) $1'
				'   AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_placement pl'
				'                   JOIN pg_catalog.pg_dist_node n ON n.groupid OPERATOR(pg_catalog.=) pl.groupid'
				'                  WHERE pl.shardid OPERATOR(pg_catalog.=) s.shardid'
				'                    AND pl.shardstate OPERATOR(pg_catalog.=) 1 AND n.isactive'
				'                    AND n.noderole OPERATOR(pg_catalog.=) ''primary'')'
			INTO missing USING rel::oid;
		IF missing > 0 THEN
			RAISE EXCEPTION 'cannot read % shard(s) of "%": no active placement', missing, rel
				USING ERRCODE = '55000';
		END IF;
		rows := 0;
		heap_blocks := 0;
		-- per shard: rows, heap blocks, and the sum over its keys of their
		-- blocks; %1$s is the shard (format), so a % in the key's name is doubled
		src := 'SELECT t.' || replace(quote_ident(key_column), '%', '%%') || ' AS k,'
			   ' t.tableoid::pg_catalog.oid::pg_catalog.int8 OPERATOR(pg_catalog.*) 4294967296'
			   ' OPERATOR(pg_catalog.+) ((t.ctid::pg_catalog.text)::pg_catalog.point)[0]::pg_catalog.int8 AS b'
			   ' FROM %1$s AS t WHERE t.' || replace(quote_ident(key_column), '%', '%%') || ' IS NOT NULL';
		cmd := 'SELECT pg_catalog.concat_ws('' '', a.n, a.nb, b.snb)'
			   ' FROM (SELECT pg_catalog.count(*) AS n, pg_catalog.count(DISTINCT s.b) AS nb'
			   '         FROM (' || src || ') AS s) AS a,'
			   '      (SELECT COALESCE(pg_catalog.sum(g.nb), 0) AS snb'
			   '         FROM (SELECT pg_catalog.count(DISTINCT s.b) AS nb'
			   '                 FROM (' || src || ') AS s GROUP BY s.k) AS g) AS b';
		FOR shard IN EXECUTE
			'WITH p AS ('
			'  SELECT DISTINCT ON (s.shardid) s.shardid, n.nodename, n.nodeport'
			'    FROM pg_catalog.pg_dist_shard s'
			'    JOIN pg_catalog.pg_dist_placement pl ON pl.shardid OPERATOR(pg_catalog.=) s.shardid'
			'    JOIN pg_catalog.pg_dist_node n ON n.groupid OPERATOR(pg_catalog.=) pl.groupid'
			'   WHERE s.logicalrelid::pg_catalog.oid OPERATOR(pg_catalog.=) $1::pg_catalog.oid'
			'     AND pl.shardstate OPERATOR(pg_catalog.=) 1 AND n.isactive'
			'     AND n.noderole OPERATOR(pg_catalog.=) ''primary'''
			'   ORDER BY s.shardid, n.nodeid),'
			' c AS ('
			'  SELECT pg_catalog.array_agg(p.nodename ORDER BY p.shardid) AS nodes,'
			'         pg_catalog.array_agg(p.nodeport ORDER BY p.shardid) AS ports,'
			'         pg_catalog.array_agg(pg_catalog.format($2,'
			'             pg_catalog.shard_name($1, p.shardid, false)) ORDER BY p.shardid) AS cmds'
			'    FROM p)'
			' SELECT c.nodes[r.ord] AS node, c.ports[r.ord] AS port, r.success, r.result'
			'   FROM c, LATERAL pg_catalog.master_run_on_worker(c.nodes, c.ports, c.cmds, true)'
			'        WITH ORDINALITY AS r(node_name, node_port, success, result, ord)'
			'  ORDER BY r.ord'
			USING rel, cmd
		LOOP
			f := string_to_array(shard.result, ' ');
			IF NOT shard.success OR array_length(f, 1) IS DISTINCT FROM 3 THEN
				RAISE EXCEPTION 'could not read a shard of "%" on node %:%', rel, shard.node, shard.port
					USING ERRCODE = '08000',
						  DETAIL = 'The node answered: ' || COALESCE(shard.result, '(nothing)');
			END IF;
			rows := rows + f[1]::bigint;
			heap_blocks := heap_blocks + f[2]::bigint;
			key_blocks := key_blocks + f[3]::float8;
		END LOOP;
		IF rows = 0 THEN
			keys := 0;
			RETURN;
		END IF;
		tuples_per_page := rows::float8 / heap_blocks;
		-- rows per key over the whole table, through Citus
		EXECUTE format('SELECT count(*), avg(n), avg(ceil(n / $1))'
					   ' FROM (SELECT count(*)::float8 AS n FROM %2$s WHERE %1$I IS NOT NULL'
					   '       GROUP BY %1$I) g', key_column, rel::text)
			INTO keys, rows_per_key, ideal_blocks_per_key
			USING tuples_per_page;
		blocks_per_key := key_blocks / keys;
	ELSE
		-- One row per heap row: its key and its heap block (tableoid, block).
		src := format('SELECT %1$I AS k, tableoid::oid::int8 * 4294967296'
					  ' + ((ctid::text)::point)[0]::int8 AS b FROM %2$s WHERE %1$I IS NOT NULL',
					  key_column, rel::text);

		EXECUTE format('SELECT count(*), count(DISTINCT b) FROM (%s) s', src)
			INTO rows, heap_blocks;
		IF rows = 0 THEN
			keys := 0;
			RETURN;
		END IF;
		tuples_per_page := rows::float8 / heap_blocks;

		EXECUTE format('SELECT count(*), avg(n), avg(nb), avg(ceil(n / $1))'
					   ' FROM (SELECT count(*)::float8 AS n, count(DISTINCT b) AS nb'
					   '       FROM (%s) s GROUP BY k) g', src)
			INTO keys, rows_per_key, blocks_per_key, ideal_blocks_per_key
			USING tuples_per_page;
	END IF;
	amplification := blocks_per_key / ideal_blocks_per_key;

	-- two decimals, as a person reads them (still float8)
	rows_per_key := round(rows_per_key::numeric, 2);
	blocks_per_key := round(blocks_per_key::numeric, 2);
	ideal_blocks_per_key := round(ideal_blocks_per_key::numeric, 2);
	amplification := round(amplification::numeric, 2);
	tuples_per_page := round(tuples_per_page::numeric, 2);
END
$fn$;

-- The benchmarks' comments name their scenario's description.
COMMENT ON FUNCTION bench_insert(text[], bigint, int, int, bigint, bool, bool) IS
'inserts rows into a fresh table per primary-key generator ($seq = a scratch sequence, bigint = a bigint sequence) and reports rows/s, WAL and full-page images per row, leaf splits, index size and leaf density (scenario S1 of the documentation, doc/scenarios.md)';

COMMENT ON FUNCTION bench_bulk_load(int, bigint, int, bool) IS
'concurrent COPY-like batches into one unindexed table; rows/s, MB/s, relation extension lock waits and the top wait events, sampled by the leader (scenario S2 of the documentation, doc/scenarios.md)';

COMMENT ON FUNCTION bench_multi_table(int, int, bigint, bool, bool) IS
'single-row transactions spread over many tables (logged or unlogged); rows/s, WAL per row and the top wait events, sampled by the leader (scenario S3 of the documentation, doc/scenarios.md)';

-- The collector's detailed wait profile and history ring (new objects: the
-- OUT columns of wait_profile's function and of collector_info() are left
-- as they are, so users' views on them keep working).
COMMENT ON FUNCTION ordered_uuid_reset() IS
'clear the collector''s statistics (wait_profile, wait_profile_detail, wait_history, extend_lock_stats, index_split_stats and the dropped counters); superuser only unless granted';

CREATE FUNCTION ordered_uuid_wait_profile_detail(
	OUT database name, OUT backend_type text, OUT wait_event_type text,
	OUT wait_event text, OUT samples bigint, OUT est_time interval,
	OUT datid oid, OUT queryid bigint, OUT pid integer, OUT userid oid)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ordered_uuid_wait_profile_detail'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ordered_uuid_wait_profile_detail() IS
'the collector''s detailed wait profile: samples per database, backend type, wait event, role, and query id and pid when ordered_uuid.profile_queries / profile_pids are on; the rows of the view wait_profile_detail';

CREATE VIEW wait_profile_detail AS
	SELECT database, backend_type, wait_event_type, wait_event, samples, est_time, datid,
		   queryid, pid, userid
	  FROM @extschema@.ordered_uuid_wait_profile_detail();

COMMENT ON VIEW wait_profile_detail IS
'wait_profile per role, query id (joinable to pg_stat_statements.queryid) and process, as ordered_uuid.profile_queries and profile_pids ask at server start';

CREATE FUNCTION ordered_uuid_wait_history(
	OUT sample_time timestamptz, OUT pid integer, OUT database name,
	OUT backend_type text, OUT wait_event_type text, OUT wait_event text,
	OUT queryid bigint, OUT datid oid, OUT userid oid)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ordered_uuid_wait_history'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ordered_uuid_wait_history() IS
'the collector''s history ring: the last ordered_uuid.history_size samples, oldest first; the rows of the view wait_history';

CREATE VIEW wait_history AS
	SELECT sample_time, pid, database, backend_type, wait_event_type, wait_event, queryid,
		   datid, userid
	  FROM @extschema@.ordered_uuid_wait_history();

COMMENT ON VIEW wait_history IS
'the most recent samples of every process''s wait state (ordered_uuid.history_size of them), oldest first';

CREATE FUNCTION collector_detail_info(
	OUT profile_queries boolean, OUT profile_pids boolean,
	OUT detail_entries bigint, OUT detail_dropped bigint,
	OUT history_size integer, OUT history_entries bigint,
	OUT history_overwritten bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'ordered_uuid_collector_detail_info'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION collector_detail_info() IS
'the collector''s optional parts: dimensions of the detailed wait profile, its entries and dropped samples, and the history ring''s size, samples held and samples overwritten since the last reset';

GRANT SELECT ON wait_profile_detail, wait_history TO PUBLIC;
-- uuid_striped_nextval: ordered keys for many concurrent sessions
CREATE FUNCTION uuid_striped_nextval(interval_length int DEFAULT 3600)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_striped_nextval'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uuid_striped_nextval(int) IS
'RFC 9562 version 8 UUID for concurrent inserts: block start (Unix ms, every interval_length seconds), a stripe per session, then front and fill slots that pack the B-tree densely';

-- uuid_version: the version of a UUID on 14-18 (core has it from 17 on)
CREATE FUNCTION uuid_version(id uuid)
RETURNS smallint
AS 'MODULE_PATHNAME', 'uuid_version'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_version(uuid) IS
'the version field of a UUID of the RFC 9562 variant (4 random, 7 time-ordered, 8 uuid_striped_nextval); NULL for other variants, as core''s uuid_extract_version on 17+';

-- bench_insert on a Citus cluster (new objects)
-- bench_insert_distributed's result row: bench_insert's, with the shards and
-- the nodes measured in place of the inserting sessions' buffer counters
-- (the writes happen on the nodes that hold the shards).
CREATE TYPE bench_insert_distributed_result AS (
	generator text,
	rows bigint,
	seconds float8,
	rows_per_sec float8,
	wal_bytes_per_row float8,
	fpi_per_row float8,
	leaf_splits_per_1k float8,
	index_bytes bigint,
	avg_leaf_density float8,
	shards int,
	nodes int,
	top_wait_events text,
	kept_table text
);

-- A function of its own rather than an argument of bench_insert: changing
-- bench_insert's signature would drop the privileges granted or revoked on it.
CREATE FUNCTION bench_insert_distributed(
	generators text[] DEFAULT ARRAY['uuid_v7_nextval()', 'uuid_time_nextval()',
									'uuid_sequence_nextval($seq)', 'gen_random_uuid()', 'bigint'],
	rows bigint DEFAULT 1000000,
	clients int DEFAULT 1,
	rows_per_xact int DEFAULT 1000,
	prefill bigint DEFAULT 0,
	shard_count int DEFAULT 32,
	keep bool DEFAULT false)
RETURNS SETOF bench_insert_distributed_result
AS 'MODULE_PATHNAME', 'bench_insert_distributed'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_insert_distributed(text[], bigint, int, int, bigint, int, bool) IS
'bench_insert on a Citus cluster, run on the coordinator: each scratch table is distributed over shard_count shards, and WAL and full-page images per row add up every node (scenario S1 of the documentation, doc/scenarios.md)';
-- bench_locality: scenario S4 in one call, one result row per variant.  The
-- row is a type rather than OUT parameters: the argument "rows_per_group" and
-- the column "rows_per_group" share a name.
CREATE TYPE bench_locality_result AS (
	variant text,
	scan text,
	groups_read bigint,
	rows_per_group float8,
	heap_blocks_per_group float8,
	index_blocks_per_group float8,
	ideal_blocks_per_group float8,
	amplification float8,
	groups_per_sec float8,
	insert_rows_per_sec float8,
	fix_seconds float8,
	table_bytes bigint,
	index_bytes bigint,
	kept_table text
);

CREATE FUNCTION bench_locality(
	groups int DEFAULT 1000,
	rows_per_group int DEFAULT 2000,
	row_bytes int DEFAULT 120,
	clients int DEFAULT 2,
	sample_groups int DEFAULT 100,
	keep bool DEFAULT false)
RETURNS SETOF bench_locality_result
AS 'MODULE_PATHNAME', 'bench_locality'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_locality(int, int, int, int, int, bool) IS
'concurrent writers append the rows of many groups interleaved; then each group is read through an index as written, after CLUSTER and with a covering index (index-only scan), counting the heap and index blocks each read fetched, their amplification over the blocks the rows would fill packed, groups/s and each fix''s cost (scenario S4 of the documentation, doc/scenarios.md)';
