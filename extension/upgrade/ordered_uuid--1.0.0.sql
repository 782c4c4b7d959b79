-- ordered_uuid 1.0.0: the install script of release 1.0.0, frozen.  It is
-- installed beside the current script so that CREATE EXTENSION ordered_uuid
-- VERSION '1.0.0' works: the upgrade test starts from it.  Never edit it.

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION ordered_uuid" to load this file. \quit
--
-- Generators.  No preload needed.
--
-- The generators are not STRICT: a NULL argument is an error, never a NULL key.

CREATE FUNCTION uuid_sequence_nextval(seq regclass, block_size int DEFAULT 65536,
                                      block_count int DEFAULT 65536)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_sequence_nextval'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION uuid_sequence_nextval(regclass, int, int) IS
'block-prefixed UUID: the block id is (nextval(seq) - 1) / block_size, wrapping after block_count blocks';

CREATE FUNCTION uuid_time_nextval(interval_length int DEFAULT 60,
                                  interval_count int DEFAULT 65536)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_time_nextval'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_nextval(int, int) IS
'block-prefixed UUID: the block id is the Unix time / interval_length seconds, wrapping after interval_count intervals';

CREATE FUNCTION uuid_v7_nextval()
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_v7_nextval'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uuid_v7_nextval() IS
'RFC 9562 version 7 UUID, strictly increasing within a session';

CREATE FUNCTION uuid_block_id(id uuid, block_count int DEFAULT 65536)
RETURNS int
AS 'MODULE_PATHNAME', 'uuid_block_id'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_block_id(uuid, int) IS
'the block id in the prefix of a block-prefixed UUID made with this block_count';

CREATE FUNCTION uuid_v7_time(id uuid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'uuid_v7_time'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_v7_time(uuid) IS
'the millisecond timestamp of a version 7 UUID; NULL for other versions';

-- Time-addressed keys: bounds for scanning and partitioning by time.

CREATE FUNCTION uuid_v7_nextval(shift interval)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_v7_nextval_shift'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uuid_v7_nextval(interval) IS
'RFC 9562 version 7 UUID for the current time moved by shift, from the same per-session clock as uuid_v7_nextval()';

CREATE FUNCTION uuid_v7_min(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_v7_min'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_v7_min(timestamptz) IS
'the smallest version 7 UUID of the millisecond of ts';

CREATE FUNCTION uuid_v7_max(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_v7_max'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_v7_max(timestamptz) IS
'the largest version 7 UUID of the millisecond of ts';

CREATE FUNCTION uuid_v7_from_time(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_v7_from_time'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uuid_v7_from_time(timestamptz) IS
'a version 7 UUID of the time ts, with random bits';

CREATE FUNCTION uuid_time_block_id(ts timestamptz, interval_length int DEFAULT 60,
                                   interval_count int DEFAULT 65536)
RETURNS int
AS 'MODULE_PATHNAME', 'uuid_time_block_id'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_block_id(timestamptz, int, int) IS
'the block id uuid_time_nextval(interval_length, interval_count) uses at the time ts';

CREATE FUNCTION uuid_time_block_range(block int, interval_length int DEFAULT 60,
                                      interval_count int DEFAULT 65536,
                                      reference timestamptz DEFAULT now())
RETURNS tstzrange
AS 'MODULE_PATHNAME', 'uuid_time_block_range'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_block_range(int, int, int, timestamptz) IS
'the time range in which uuid_time_nextval(interval_length, interval_count) last used the block id, starting at or before reference';

CREATE FUNCTION uuid_block_min(block int, block_count int DEFAULT 65536)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_block_min'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_block_min(int, int) IS
'the smallest block-prefixed UUID of a block id made with this block_count';

CREATE FUNCTION uuid_block_max(block int, block_count int DEFAULT 65536)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_block_max'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_block_max(int, int) IS
'the largest block-prefixed UUID of a block id made with this block_count';
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
-- ignored.  Partitions are told apart by tableoid.
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
--
-- The collector: needs shared_preload_libraries =
-- 'ordered_uuid'.  Without it every function here raises SQLSTATE 55000
-- (object_not_in_prerequisite_state) with a hint naming
-- shared_preload_libraries.
--
-- Visibility: rows of a database the caller may not CONNECT to are shown
-- only to members of pg_read_all_stats (checked in C, so calling the
-- functions directly shows no more than the views).  ordered_uuid_reset()
-- is superuser-only, like pg_stat_statements_reset(): EXECUTE is revoked
-- from PUBLIC and may be granted by a superuser.

CREATE FUNCTION ordered_uuid_wait_profile(
    OUT database name, OUT backend_type text, OUT wait_event_type text,
    OUT wait_event text, OUT samples bigint, OUT est_time interval,
    OUT datid oid)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ordered_uuid_wait_profile'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ordered_uuid_wait_profile() IS
'the collector''s wait profile: samples per database, backend type and wait event (CPU = running, not waiting); the rows of the view wait_profile';

CREATE VIEW wait_profile AS
    SELECT database, backend_type, wait_event_type, wait_event, samples, est_time, datid
      FROM @extschema@.ordered_uuid_wait_profile();

COMMENT ON VIEW wait_profile IS
'where every process spent its time since the last reset, sampled every ordered_uuid.sample_interval ms (est_time = samples x interval)';

CREATE FUNCTION ordered_uuid_extend_lock_stats(
    OUT relation regclass, OUT waits bigint, OUT samples bigint,
    OUT est_wait_time interval, OUT max_waiters integer,
    OUT last_wait timestamptz, OUT database name, OUT datid oid, OUT relid oid)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ordered_uuid_extend_lock_stats'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ordered_uuid_extend_lock_stats() IS
'the collector''s relation extension lock statistics per relation; the rows of the view extend_lock_stats';

CREATE VIEW extend_lock_stats AS
    SELECT relation, waits, samples, est_wait_time, max_waiters, last_wait, database, datid, relid
      FROM @extschema@.ordered_uuid_extend_lock_stats();

COMMENT ON VIEW extend_lock_stats IS
'relation extension lock waits per relation since the last reset (relation is NULL for other databases and dropped relations: see datid, relid)';

CREATE FUNCTION ordered_uuid_index_split_stats(
    OUT index regclass, OUT leaf_splits bigint, OUT upper_splits bigint,
    OUT root_splits bigint, OUT database name, OUT datid oid,
    OUT tablespace oid, OUT relfilenode oid)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ordered_uuid_index_split_stats'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ordered_uuid_index_split_stats() IS
'the collector''s cumulative B-tree split counts per index, from following the WAL; the rows of the view index_split_stats';

CREATE VIEW index_split_stats AS
    SELECT index, leaf_splits, upper_splits, root_splits, database, datid, tablespace, relfilenode
      FROM @extschema@.ordered_uuid_index_split_stats();

COMMENT ON VIEW index_split_stats IS
'B-tree page splits per index since the last reset (index is NULL for other databases and for relfilenodes that no longer map: see datid, relfilenode)';

CREATE FUNCTION collector_info(
    OUT worker_pid integer, OUT worker_started timestamptz,
    OUT stats_reset timestamptz, OUT rounds bigint, OUT max_entries integer,
    OUT profile_entries bigint, OUT profile_dropped bigint,
    OUT extend_entries bigint, OUT extend_dropped bigint,
    OUT split_entries bigint, OUT split_dropped bigint,
    OUT wal_start pg_lsn, OUT wal_reached pg_lsn, OUT wal_records bigint,
    OUT wal_skipped_bytes bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'ordered_uuid_collector_info'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION collector_info() IS
'the collector''s own state: worker pid, sampling rounds, entries used out of max_entries and samples dropped per table, WAL followed and skipped';

CREATE FUNCTION ordered_uuid_reset()
RETURNS void
AS 'MODULE_PATHNAME', 'ordered_uuid_reset'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION ordered_uuid_reset() IS
'clear the collector''s statistics (wait_profile, extend_lock_stats, index_split_stats and the dropped counters); superuser only unless granted';

REVOKE ALL ON FUNCTION ordered_uuid_reset() FROM PUBLIC;

-- readable by everyone, like pg_stat_activity (the rows are filtered in C)
GRANT SELECT ON wait_profile, extend_lock_stats, index_split_stats TO PUBLIC;
--
-- In-database benchmarks.  No preload needed.
--
-- The benchmarks run their SQL in dynamic background workers connected as the
-- calling role (never SECURITY DEFINER), within that role's connection limits.
-- Each run creates a scratch schema of its own, as the calling role
-- (ordered_uuid_run_<random hex>; CREATE on the database is needed), which
-- is not part of the extension and is dropped at the end of the run unless
-- keep => true renames it ordered_uuid_kept_<hex>.  Runs whose leader died
-- leave theirs behind: the next benchmark in the database, or
-- bench_cleanup(), drops them.  REVOKE EXECUTE on the bench_* functions to
-- restrict who may run benchmarks.

-- bench_insert's result row.  A type rather than OUT parameters: the
-- argument "rows" and the column "rows" share a name.
CREATE TYPE bench_insert_result AS (
	generator text,
	rows bigint,
	seconds float8,
	rows_per_sec float8,
	wal_bytes_per_row float8,
	fpi_per_row float8,
	leaf_splits_per_1k float8,
	index_bytes bigint,
	avg_leaf_density float8,
	blks_dirtied_per_row float8,
	blks_written_per_row float8,
	top_wait_events text,
	kept_table text
);

CREATE FUNCTION bench_insert(
	generators text[] DEFAULT ARRAY['uuid_v7_nextval()', 'uuid_time_nextval()',
									'uuid_sequence_nextval($seq)', 'gen_random_uuid()', 'bigint'],
	rows bigint DEFAULT 1000000,
	clients int DEFAULT 1,
	rows_per_xact int DEFAULT 1000,
	prefill bigint DEFAULT 0,
	unlogged bool DEFAULT false,
	keep bool DEFAULT false)
RETURNS SETOF bench_insert_result
AS 'MODULE_PATHNAME', 'bench_insert'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_insert(text[], bigint, int, int, bigint, bool, bool) IS
'S1: inserts rows into a fresh table per primary-key generator ($seq = a scratch sequence, bigint = a bigint sequence) and reports rows/s, WAL and full-page images per row, leaf splits, index size and leaf density';

CREATE TYPE bench_bulk_load_result AS (
	clients int,
	rows bigint,
	seconds float8,
	rows_per_sec float8,
	mb_per_sec float8,
	extend_waits bigint,
	extend_wait_time interval,
	samples bigint,
	top_wait_events text,
	kept_table text
);

CREATE FUNCTION bench_bulk_load(
	clients int DEFAULT 8,
	rows_per_client bigint DEFAULT 200000,
	row_bytes int DEFAULT 455,
	keep bool DEFAULT false)
RETURNS bench_bulk_load_result
AS 'MODULE_PATHNAME', 'bench_bulk_load'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_bulk_load(int, bigint, int, bool) IS
'S2: concurrent COPY-like batches into one unindexed table; rows/s, MB/s, relation extension lock waits and the top wait events, sampled by the leader';

CREATE TYPE bench_multi_table_result AS (
	tables int,
	clients int,
	unlogged bool,
	rows bigint,
	seconds float8,
	rows_per_sec float8,
	wal_bytes_per_row float8,
	samples bigint,
	top_wait_events text,
	kept_tables text
);

CREATE FUNCTION bench_multi_table(
	tables int DEFAULT 128,
	clients int DEFAULT 8,
	rows bigint DEFAULT 200000,
	unlogged bool DEFAULT false,
	keep bool DEFAULT false)
RETURNS bench_multi_table_result
AS 'MODULE_PATHNAME', 'bench_multi_table'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_multi_table(int, int, bigint, bool, bool) IS
'S3: single-row transactions spread over many tables (logged or unlogged); rows/s, WAL per row and the top wait events, sampled by the leader';

CREATE FUNCTION bench_cleanup()
RETURNS bigint
AS 'MODULE_PATHNAME', 'bench_cleanup'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_cleanup() IS
'drops the scratch schemas (ordered_uuid_run_*) of benchmark runs whose leader is gone, of roles whose privileges the caller has; returns how many';
