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
