--
-- Diagnostics that need no library: what a managed service lets any role
-- read.  heap_locality and extend_lock_waits are the C edition's own SQL,
-- shared as they are; index_shape reads pgstattuple's pgstatindex() and says
-- so.  The WAL readers, the page readers in C (index_key_scatter,
-- index_newest_pages) and the report stay with the C edition.

-- ou:c-only index_splits(pg_lsn, pg_lsn)

-- ou:replace index_shape(regclass)
-- pgstatindex() of the extension pgstattuple (whose counting rules the C
-- edition's index_shape follows), found where that extension is installed,
-- whatever the search_path; source names it and its version.  Before
-- PostgreSQL 18 pgstatindex counts one line pointer less of free space a
-- page (up to 0.05 points denser than the C edition's figure).  Without
-- pgstattuple: 55000, saying how to get it.  The errors on a bad argument are
-- the C edition's.
CREATE FUNCTION @extschema@.index_shape(index regclass,
										OUT leaf_pages bigint, OUT internal_pages bigint,
										OUT levels int, OUT avg_leaf_density float8,
										OUT leaf_fragmentation float8,
										OUT deleted_pages bigint, OUT empty_pages bigint,
										OUT source text)
RETURNS record
LANGUAGE plpgsql VOLATILE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	c record;
	nsp text;
	ver text;
	st record;
BEGIN
	IF index IS NULL THEN
		RAISE EXCEPTION 'index must not be null' USING ERRCODE = '22004';
	END IF;
	SELECT r.relname, r.relkind, r.relpersistence, a.amname,
		   r.relnamespace = pg_my_temp_schema() AS mine
	  INTO c
	  FROM pg_class r LEFT JOIN pg_am a ON a.oid = r.relam
	 WHERE r.oid = index;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'relation with OID % does not exist', index::oid USING ERRCODE = '42P01';
	END IF;
	IF c.relkind = 'I' AND c.amname = 'btree' THEN
		RAISE EXCEPTION '"%" is a partitioned index', c.relname
			USING ERRCODE = '42809',
				  DETAIL = 'A partitioned index holds no entries: each partition has an index of its own.',
				  HINT = 'Call index_shape() on the index of each partition: pg_partition_tree() of this index lists them.';
	END IF;
	IF c.relkind <> 'i' OR c.amname IS DISTINCT FROM 'btree' THEN
		RAISE EXCEPTION '"%" is not a B-tree index', c.relname USING ERRCODE = '42809';
	END IF;
	IF c.relpersistence = 't' AND NOT c.mine THEN
		RAISE EXCEPTION 'cannot access temporary indexes of other sessions' USING ERRCODE = '0A000';
	END IF;
	SELECT n.nspname, e.extversion INTO nsp, ver
	  FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
	 WHERE e.extname = 'pgstattuple';
	IF NOT FOUND THEN
		RAISE EXCEPTION 'index_shape() needs the extension pgstattuple'
			USING ERRCODE = '55000',
				  DETAIL = 'The SQL edition reads the pages of an index through pgstattuple''s pgstatindex().',
				  HINT = 'CREATE EXTENSION pgstattuple; (on a managed service, as its administrator role).';
	END IF;
	EXECUTE format('SELECT * FROM %I.pgstatindex($1)', nsp) INTO st USING index;
	leaf_pages := st.leaf_pages;
	internal_pages := st.internal_pages;
	levels := CASE WHEN st.root_block_no = 0 THEN 0 ELSE st.tree_level + 1 END;
	avg_leaf_density := CASE WHEN st.leaf_pages > 0 THEN st.avg_leaf_density END;
	leaf_fragmentation := CASE WHEN st.leaf_pages > 0 THEN st.leaf_fragmentation END;
	deleted_pages := st.deleted_pages;
	empty_pages := st.empty_pages;
	source := format('pgstatindex() of pgstattuple %s', ver);
END
$fn$;

COMMENT ON FUNCTION @extschema@.index_shape(regclass) IS
'page-level shape of a B-tree index, from pgstattuple''s pgstatindex() (source says so)';

-- ou:c-only explain_writes(text)

-- ou:shared heap_locality(regclass, name)

-- ou:shared view extend_lock_waits

-- ou:c-only index_key_scatter(regclass, integer, bigint)

-- ou:c-only index_newest_pages(regclass, uuid, integer)

-- ou:c-only write_path_report()
