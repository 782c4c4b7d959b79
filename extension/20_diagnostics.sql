--
-- Write-path diagnostics (DESIGN section 2).  No preload needed.
--
-- The WAL readers (index_splits, explain_writes) expose every session's
-- data: EXECUTE is revoked from PUBLIC and granted to pg_read_server_files,
-- and the C code checks the same rule (superuser or pg_read_server_files).

CREATE FUNCTION index_splits(start_lsn pg_lsn, end_lsn pg_lsn DEFAULT NULL,
                             OUT index regclass, OUT relfilenode oid,
                             OUT leaf_splits bigint, OUT upper_splits bigint,
                             OUT root_splits bigint)
RETURNS SETOF record
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

CREATE FUNCTION explain_writes(statement text,
                               OUT relation regclass, OUT relfilenode oid, OUT kind text,
                               OUT wal_records bigint, OUT wal_bytes bigint, OUT wal_fpi bigint,
                               OUT leaf_splits bigint, OUT upper_splits bigint,
                               OUT blocks_added bigint, OUT rows bigint, OUT seconds float8,
                               OUT shared_blks_hit bigint, OUT shared_blks_read bigint,
                               OUT shared_blks_dirtied bigint, OUT shared_blks_written bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'explain_writes'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION explain_writes(text) IS
'runs the statement as the caller and returns the WAL it wrote per relation (records of this transaction) and a total row (rows, seconds, buffers, this backend''s WAL)';

REVOKE ALL ON FUNCTION explain_writes(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION explain_writes(text) TO pg_read_server_files;
