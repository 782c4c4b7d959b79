-- ordered_uuid 1.1.1 -> 1.2.0


--
-- The same changes as in extension/*.sql; the upgrade test (sql/upgrade.sql)
-- checks that the catalog becomes that of a fresh install.

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ordered_uuid UPDATE TO '1.2.0'" to load this file. \quit

-- Diagnostics: GRANT decides who calls what (no C check of its own);
-- index_shape keeps pgstatindex's default (pg_stat_scan_tables), and
-- explain_writes gains its note column (a relation file the statement
-- created, or a relation that wrote no WAL).
REVOKE ALL ON FUNCTION index_shape(regclass) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION index_shape(regclass) TO pg_stat_scan_tables;
COMMENT ON FUNCTION index_shape(regclass) IS
'page-level shape of a B-tree index (pgstatindex''s rules), read with a bulk-read buffer ring';

DO $$
DECLARE
	msg text;
	detail text;
BEGIN
	DROP FUNCTION explain_writes(text);
EXCEPTION WHEN dependent_objects_still_exist THEN
	GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
	RAISE EXCEPTION USING ERRCODE = 'dependent_objects_still_exist', MESSAGE = msg, DETAIL = detail,
		HINT = 'This update drops explain_writes() and creates it again with new result columns: drop the objects that depend on it, run ALTER EXTENSION ordered_uuid UPDATE, then create them again.';
END $$;

CREATE FUNCTION explain_writes(statement text)
RETURNS TABLE (relation regclass, relfilenode oid, kind text,
			   wal_records bigint, wal_bytes bigint, wal_fpi bigint,
			   leaf_splits bigint, upper_splits bigint, blocks_added bigint,
			   rows bigint, seconds float8,
			   shared_blks_hit bigint, shared_blks_read bigint,
			   shared_blks_dirtied bigint, shared_blks_written bigint,
			   note text)
AS 'MODULE_PATHNAME', 'explain_writes'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION explain_writes(text) IS
'runs the statement as the caller and returns the WAL it wrote per relation file (records of this transaction and its subtransactions, aborted ones included), the unlogged and temporary relations it changed (no WAL), and a total row (rows, seconds, buffers, this backend''s WAL)';
REVOKE ALL ON FUNCTION explain_writes(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION explain_writes(text) TO pg_read_server_files;

-- heap_locality: a key type without an equality operator (json, point) is a
-- clear error, not the generated query's.
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
	-- Rows are grouped by the key: a type without an equality operator
	-- (json, point) cannot be, and says so (not the generated query).
	BEGIN
		EXECUTE format('SELECT 1 FROM %s WHERE false GROUP BY %I', rel::text, key_column);
	EXCEPTION WHEN undefined_function THEN
		RAISE EXCEPTION 'column "%" of relation "%" cannot be grouped: type % has no equality operator',
			key_column, rel,
			(SELECT pg_catalog.format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
			  WHERE a.attrelid = rel AND a.attname = key_column)
			USING ERRCODE = '42883',
				  HINT = 'heap_locality needs a key column whose values can be compared for equality (uuid, text, numbers, ...).';
	END;
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

-- Collector: collector_info() reports entries evicted apart from samples
-- dropped, split entries pruned with their dropped relations, and the
-- collector's state (running, recovery, stopped); collector_detail_info()
-- the detailed profile's evicted entries.  New OUT columns change the result
-- type, so both functions are dropped and created again: a view of one's
-- own on either must be dropped before the update and created after it,
-- which the error says (DROP ... CASCADE, core's hint, does not apply to an
-- update).
DO $$
DECLARE
	msg text;
	detail text;
BEGIN
	DROP FUNCTION collector_info();
	DROP FUNCTION collector_detail_info();
EXCEPTION WHEN dependent_objects_still_exist THEN
	GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
	RAISE EXCEPTION USING ERRCODE = 'dependent_objects_still_exist', MESSAGE = msg, DETAIL = detail,
		HINT = 'This update drops collector_info() and collector_detail_info() and creates them again with new result columns: drop the objects that depend on them, run ALTER EXTENSION ordered_uuid UPDATE, then create them again.';
END $$;

CREATE FUNCTION collector_info(
	OUT worker_pid integer, OUT worker_started timestamptz,
	OUT stats_reset timestamptz, OUT rounds bigint, OUT max_entries integer,
	OUT profile_entries bigint, OUT profile_dropped bigint,
	OUT extend_entries bigint, OUT extend_dropped bigint,
	OUT split_entries bigint, OUT split_dropped bigint,
	OUT wal_start pg_lsn, OUT wal_reached pg_lsn, OUT wal_records bigint,
	OUT wal_skipped_bytes bigint, OUT profile_evicted bigint,
	OUT extend_evicted bigint, OUT split_evicted bigint,
	OUT split_pruned bigint, OUT state text)
RETURNS record
AS 'MODULE_PATHNAME', 'ordered_uuid_collector_info'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION collector_info() IS
'the collector''s own state: worker pid, sampling rounds, entries used out of max_entries, samples dropped and entries evicted per table, split entries pruned with their dropped relations, WAL followed and skipped, and state (running, recovery, stopped)';

CREATE FUNCTION collector_detail_info(
	OUT profile_queries boolean, OUT profile_pids boolean,
	OUT detail_entries bigint, OUT detail_dropped bigint,
	OUT history_size integer, OUT history_entries bigint,
	OUT history_overwritten bigint, OUT detail_evicted bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'ordered_uuid_collector_detail_info'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION collector_detail_info() IS
'the collector''s optional parts: dimensions of the detailed wait profile, its entries, dropped samples and evicted entries, and the history ring''s size, samples held and samples overwritten since the last reset';
-- end of Collector

-- Benchmarks: they hold background workers and write to the database, so
-- they are no longer PUBLIC's (GRANT EXECUTE to the roles that may run them).
REVOKE ALL ON FUNCTION bench_insert(text[], bigint, int, int, bigint, bool, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_insert_distributed(text[], bigint, int, int, bigint, int, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_bulk_load(int, bigint, int, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_multi_table(int, int, bigint, bool, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_locality(int, int, int, int, int, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_cleanup() FROM PUBLIC;
