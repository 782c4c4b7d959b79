--
-- Write-path diagnostics.  No preload needed.
--
-- The WAL readers (index_splits, explain_writes) expose every session's
-- data: EXECUTE is revoked from PUBLIC and granted to pg_read_server_files,
-- and the C code checks the same rule (superuser or pg_read_server_files).

CREATE FUNCTION index_splits(start_lsn pg_lsn, end_lsn pg_lsn DEFAULT NULL)
RETURNS TABLE (index regclass, relfilenode oid,
			   leaf_splits bigint, upper_splits bigint, root_splits bigint)
AS 'MODULE_PATHNAME', 'index_splits'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION index_splits(pg_lsn, pg_lsn) IS
'exact B-tree split counts per index (leaf, upper, root) from the WAL records that start at or after start_lsn and end at or before end_lsn (NULL: the flush position)';

REVOKE ALL ON FUNCTION index_splits(pg_lsn, pg_lsn) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION index_splits(pg_lsn, pg_lsn) TO pg_read_server_files;

CREATE FUNCTION index_shape(index regclass,
							OUT leaf_pages bigint, OUT internal_pages bigint,
							OUT levels int, OUT avg_leaf_density float8,
							OUT leaf_fragmentation float8,
							OUT deleted_pages bigint, OUT empty_pages bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'index_shape'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION index_shape(regclass) IS
'page-level shape of a B-tree index (pgstatindex''s rules), read with a bulk-read buffer ring; superuser, pg_stat_scan_tables or the index owner';

CREATE FUNCTION explain_writes(statement text)
RETURNS TABLE (relation regclass, relfilenode oid, kind text,
			   wal_records bigint, wal_bytes bigint, wal_fpi bigint,
			   leaf_splits bigint, upper_splits bigint, blocks_added bigint,
			   rows bigint, seconds float8,
			   shared_blks_hit bigint, shared_blks_read bigint,
			   shared_blks_dirtied bigint, shared_blks_written bigint)
AS 'MODULE_PATHNAME', 'explain_writes'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION explain_writes(text) IS
'runs the statement as the caller and returns the WAL it wrote per relation (records of this transaction) and a total row (rows, seconds, buffers, this backend''s WAL)';

REVOKE ALL ON FUNCTION explain_writes(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION explain_writes(text) TO pg_read_server_files;

-- heap_locality: plain SQL over ctid, run with the caller's privileges (SELECT
-- on the table is needed).  Both aggregations sort (count(DISTINCT) forces a
-- sorted GroupAggregate), so memory stays within work_mem on any table size.
-- "Ideal": a key's rows packed together, tuples_per_page rows to a block,
-- where tuples_per_page = rows / heap blocks holding rows; a key with n rows
-- then needs ceil(n / tuples_per_page) blocks.  Rows with a NULL key are
-- ignored.  Partitions are told apart by tableoid.  The ratios are rounded to
-- two decimals (amplification from the unrounded averages).
CREATE FUNCTION heap_locality(rel regclass, key_column name,
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
	amplification := blocks_per_key / ideal_blocks_per_key;

	-- two decimals, as a person reads them (still float8)
	rows_per_key := round(rows_per_key::numeric, 2);
	blocks_per_key := round(blocks_per_key::numeric, 2);
	ideal_blocks_per_key := round(ideal_blocks_per_key::numeric, 2);
	amplification := round(amplification::numeric, 2);
	tuples_per_page := round(tuples_per_page::numeric, 2);
END
$fn$;

COMMENT ON FUNCTION heap_locality(regclass, name) IS
'how scattered each key''s rows are over the heap: average distinct heap blocks per key, the ideal (ceil(rows_per_key / tuples_per_page)) and their ratio';

-- extend_lock_waits: built on pg_locks and pg_stat_activity, so query (and
-- backend_type) follow pg_stat_activity's visibility rules for the caller.
-- Only waits in the current database (relation is a regclass).
CREATE VIEW extend_lock_waits AS
SELECT l.pid,
	   l.relation::pg_catalog.regclass AS relation,
	   pg_catalog.clock_timestamp() OPERATOR(pg_catalog.-) l.waitstart AS waiting,
	   pg_catalog.pg_blocking_pids(l.pid) AS blocked_by,
	   a.backend_type,
	   a.wait_event_type,
	   a.wait_event,
	   a.query
FROM pg_catalog.pg_locks AS l
LEFT JOIN pg_catalog.pg_stat_activity AS a ON a.pid OPERATOR(pg_catalog.=) l.pid
WHERE l.locktype OPERATOR(pg_catalog.=) 'extend'
  AND NOT l.granted
  AND l.database OPERATOR(pg_catalog.=) (SELECT d.oid FROM pg_catalog.pg_database AS d
										  WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database());

COMMENT ON VIEW extend_lock_waits IS
'backends of this database waiting right now on a relation extension lock: since when, blocked by whom, running what (query visible as in pg_stat_activity)';

GRANT SELECT ON extend_lock_waits TO PUBLIC;
