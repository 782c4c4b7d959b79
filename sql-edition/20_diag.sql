--
-- Diagnostics that need no library: what a managed service lets any role
-- read.  heap_locality and extend_lock_waits are the C edition's own SQL,
-- shared as they are; index_shape reads pgstattuple's pgstatindex() and says
-- so.  index_key_scatter reads the caller's own tables with a query, and the
-- report is the C edition's, shared.  The WAL readers and index_newest_pages
-- stay with the C edition.

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

-- ou:body index_key_scatter(regclass, integer, bigint)
-- index_key_scatter() without C: the same checks, states and figures, read
-- with one query over the table.  A query runs its table owner's code (the
-- planner folds the IMMUTABLE functions of index expressions, predicates and
-- expression statistics), so it reads only a table that the caller itself
-- owns; any other table, a superuser's call included (a superuser has every
-- role's privileges, so that test would let every owner's code run as a
-- superuser), is the state 'owned by another role'.
-- The keys are pg_stats' most common values, cast from text to the column's
-- type (a base type of pg_catalog: core's input function).  The query's
-- locks stay to the end of the transaction, as any query's: lock_timeout
-- bounds the wait ('locked'), and at most 500 tables are read a transaction
-- ('lock budget spent' after that).
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
SET lock_timeout = '100ms'
SET enable_seqscan = off
AS $fn$
DECLARE
	ix record;
	st record;
	vals text[];
	read_n int;
BEGIN
	IF max_keys NOT BETWEEN 1 AND 1000 THEN
		RAISE EXCEPTION 'max_keys must be between 1 and 1000' USING ERRCODE = '22023',
			DETAIL = format('The value given was %s.', max_keys);
	END IF;
	IF max_rows NOT BETWEEN 1 AND 100000000 THEN
		RAISE EXCEPTION 'max_rows must be between 1 and 100000000' USING ERRCODE = '22023',
			DETAIL = format('The value given was %s.', max_rows);
	END IF;
	SELECT i.indrelid AS tbl, i.indkey[0] AS attnum, i.indpred IS NOT NULL AS partial,
		   ic.relname AS idxname, am.amname, c.relname, c.relkind, c.relowner, c.reltuples, c.relpages,
		   a.attname, a.atttypid, t.typtype, t.typnamespace, oc.opcnamespace, oc.opcintype
	  INTO ix
	  FROM pg_index i
	  JOIN pg_class ic ON ic.oid = i.indexrelid
	  JOIN pg_am am ON am.oid = ic.relam
	  JOIN pg_class c ON c.oid = i.indrelid
	  LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
	  LEFT JOIN pg_type t ON t.oid = a.atttypid
	  JOIN pg_opclass oc ON oc.oid = i.indclass[0]
	 WHERE i.indexrelid = index;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'relation with OID % is not an index', index::oid USING ERRCODE = '42809';
	END IF;
	IF ix.amname <> 'btree' THEN
		RAISE EXCEPTION '"%" is not a B-tree index', ix.idxname USING ERRCODE = '42809';
	END IF;
	IF ix.relkind NOT IN ('r', 'm') THEN
		RAISE EXCEPTION '"%" is not a table or materialized view', ix.relname USING ERRCODE = '42809';
	END IF;
	IF ix.attnum = 0 OR ix.partial THEN
		RAISE EXCEPTION 'index "%" has a predicate or an expression as its first column', ix.idxname
			USING ERRCODE = '0A000',
				  DETAIL = 'Only an index of every row whose first column is a plain column is read.';
	END IF;
	IF ix.opcnamespace <> 'pg_catalog'::regnamespace OR ix.opcintype <> ix.atttypid
	   OR ix.typtype <> 'b' OR ix.typnamespace <> 'pg_catalog'::regnamespace THEN
		RAISE EXCEPTION 'index "%" is not searched with PostgreSQL''s own operators', ix.idxname
			USING ERRCODE = '0A000',
				  DETAIL = 'Only a column of a base type of pg_catalog, indexed with an operator class of pg_catalog for that type, is read: other types and operator classes run their owner''s code.';
	END IF;
	IF NOT has_column_privilege(ix.tbl, ix.attnum, 'SELECT') THEN
		RAISE EXCEPTION 'permission denied for table %', ix.relname USING ERRCODE = '42501',
			DETAIL = 'index_key_scatter() needs SELECT on the index''s first column.';
	END IF;

	-- another role's table: not even its size is read (pg_class says it)
	IF ix.relowner <> current_user::regrole THEN
		table_pages := ix.relpages;
		state := 'owned by another role';
		RETURN;
	END IF;
	BEGIN
		table_pages := pg_relation_size(ix.tbl) / current_setting('block_size')::bigint;
	EXCEPTION WHEN lock_not_available THEN
		state := 'locked';
		RETURN;
	END;
	IF row_security_active(ix.tbl) THEN
		state := 'statistics hidden';
		RETURN;
	END IF;
	SELECT s.n_distinct, s.correlation, s.most_common_vals::text::text[] AS mcv,
		   s.most_common_freqs AS freqs
	  INTO st
	  FROM pg_stats s
	 WHERE s.schemaname = (SELECT n.nspname FROM pg_class r JOIN pg_namespace n ON n.oid = r.relnamespace
							WHERE r.oid = ix.tbl)
	   AND s.tablename = ix.relname AND s.attname = ix.attname AND NOT s.inherited;
	IF NOT FOUND THEN
		state := 'no statistics';
		RETURN;
	END IF;
	n_distinct := st.n_distinct;
	correlation := st.correlation;
	IF ix.reltuples <= 0 OR ix.relpages <= 0 THEN
		state := 'empty';
		RETURN;
	END IF;
	rows_per_page := round((ix.reltuples / ix.relpages)::numeric, 2);
	IF st.mcv IS NULL THEN
		state := 'no common keys';
		RETURN;
	END IF;
	read_n := coalesce(nullif(current_setting('ordered_uuid_sql.tables_read', true), ''), '0')::int;
	IF read_n >= 500 THEN
		state := 'lock budget spent';
		RETURN;
	END IF;
	PERFORM set_config('ordered_uuid_sql.tables_read', (read_n + 1)::text, true);

	-- the first key always; the next while the estimate stays in bounds
	SELECT array_agg(m.v ORDER BY m.o) INTO vals
	  FROM (SELECT v, o, sum(f) OVER (ORDER BY o) * ix.reltuples AS upto
			  FROM unnest(st.mcv, st.freqs) WITH ORDINALITY AS u(v, f, o)
			 ORDER BY o LIMIT max_keys) m
	 WHERE m.o = 1 OR m.upto <= max_rows;
	BEGIN
		EXECUTE format(
			'SELECT count(*)::int, sum(g.n), sum(g.nb), sum(ceil(g.n / $2)), coalesce(sum(g.n), 0) >= $3'
			'  FROM (SELECT count(*) AS n, count(DISTINCT b) AS nb'
			'          FROM (SELECT %1$I AS k, ((ctid::text)::point)[0]::bigint AS b'
			'                  FROM ONLY %2$s WHERE %1$I = ANY ($1::%3$s[]) LIMIT $3) r'
			'         GROUP BY k) g',
			ix.attname, ix.tbl::regclass, format_type(ix.atttypid, NULL))
		INTO keys, rows, heap_blocks, packed_blocks, capped
		USING vals, ix.reltuples / ix.relpages, max_rows;
	EXCEPTION WHEN lock_not_available THEN
		state := 'locked';
		keys := NULL; rows := NULL; heap_blocks := NULL; packed_blocks := NULL; capped := NULL;
		RETURN;
	END;
	rows := coalesce(rows, 0);
	heap_blocks := coalesce(heap_blocks, 0);
	packed_blocks := coalesce(packed_blocks, 0);
	state := 'ok';
END
$fn$;

-- ou:c-only index_newest_pages(regclass, uuid, integer)

-- ou:shared write_path_report()
-- The C edition's report, written once: without collector_info() (the SQL
-- edition has none) it says so for S2, S3 and S5, reads S1's figures from
-- pg_walinspect, and S4's through the SQL edition's index_key_scatter().
