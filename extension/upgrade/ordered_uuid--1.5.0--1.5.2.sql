-- ordered_uuid 1.5.0 -> 1.5.2
--
-- The same changes as in extension/*.sql; the upgrade test (sql/upgrade.sql)
-- checks that the catalog becomes that of a fresh install.  (1.5.1 changed
-- the library alone: its SQL version is 1.5.0.)

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ordered_uuid UPDATE TO '1.5.2'" to load this file. \quit

--------------------------------------------------------------------------------
-- Diagnostics (extension/20_diag.sql): write_path_report() runs no code of a
-- table's owner, stays linear in the number of tables and holds no lock past
-- each read; S4 reads through index_key_scatter(), new.  Its result gains
-- verify (how to see that a change worked), so it is dropped and created
-- again: a view of one's own on it must be dropped before the update and
-- created after it, which the error says (DROP ... CASCADE, core's hint, does
-- not apply to an update).  It comes first, so that an update that stops here
-- has done nothing else.
--------------------------------------------------------------------------------
DO $$
DECLARE
	msg text;
	detail text;
BEGIN
	DROP FUNCTION write_path_report();
EXCEPTION WHEN dependent_objects_still_exist THEN
	GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
	RAISE EXCEPTION USING ERRCODE = 'dependent_objects_still_exist', MESSAGE = msg, DETAIL = detail,
		HINT = 'This update drops write_path_report() and creates it again with a new result column: drop the objects that depend on it, run ALTER EXTENSION ordered_uuid UPDATE, then create them again.';
END $$;

-- index_key_scatter (1.5.2): how scattered over the heap the rows of an
-- index's most common keys lie, read through the index in C without the
-- planner, so that no code of the table's owner runs (src/diag_scatter.c).
-- The keys are the most common values in pg_statistic, up to max_keys while
-- their estimated rows stay within max_rows (the first always); at most
-- max_rows index entries are read, whatever the estimate.  It reads what
-- pg_stats would show the caller (SELECT on the column; nothing of a table
-- whose row-level security applies to the caller), takes its locks only if
-- it can at once ('locked' otherwise) and releases them before it returns.
CREATE FUNCTION index_key_scatter(index regclass, max_keys integer DEFAULT 5,
								  max_rows bigint DEFAULT 50000,
								  OUT state text, OUT table_pages bigint, OUT rows_per_page float8,
								  OUT n_distinct real, OUT correlation real, OUT keys integer,
								  OUT rows bigint, OUT heap_blocks bigint, OUT packed_blocks bigint,
								  OUT capped boolean)
RETURNS record
AS 'MODULE_PATHNAME', 'index_key_scatter'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION index_key_scatter(regclass, integer, bigint) IS
'the heap blocks that the rows of a B-tree''s most common keys lie on, against the blocks they would fill packed, read through the index without running code of the table''s owner; state says why not when it cannot read them (locked, statistics hidden, no statistics, empty, no common keys)';

-- write_path_report (1.5.0; 1.5.2 runs no owner code, stays linear in the
-- number of tables and holds no lock past each read): the write-path
-- scenarios S1-S4 of doc/scenarios.md found in what is already measured,
-- ranked, each with its figures, their source, the threshold they passed,
-- the change to make and how to see that it worked.
-- It runs as the caller and reads views that filter by the caller's rights:
-- the collector's (rows of databases the caller may not CONNECT to are
-- hidden in C), the catalog, and for S4 index_key_scatter(), which reads
-- at most 50,000 index entries of a candidate table through the index, no
-- query over the table: planning one would run its owner's code (index
-- expressions, partial-index predicates, expression statistics).  It waits
-- for no lock: index_key_scatter() locks only if it can at once, and
-- lock_timeout bounds the rest (an index locked by another session is a row
-- saying so).  What it cannot see (the collector not loaded or not running,
-- its statistics reset less than an hour ago, a table never analyzed, a
-- table locked or whose statistics row-level security hides) is a row of
-- its own, after the findings.  severity (value / threshold) ranks the
-- findings; a table has one S4 row at most.
CREATE FUNCTION write_path_report(
	OUT rank integer, OUT scenario text, OUT relation regclass, OUT finding text,
	OUT metric text, OUT value numeric, OUT threshold numeric, OUT evidence text,
	OUT source text, OUT change text, OUT measured text, OUT verify text)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
SET lock_timeout = '100ms'
AS $fn$
DECLARE
	ext text;
	info record;
	running boolean := false;
	acc jsonb[] := '{}';	-- arrays: appending to a local array does not copy it
	blind jsonb[] := '{}';
	history numeric;
	r record;
	s record;
	idx_size text;
	amp numeric;
	err_state text;
	err_msg text;
BEGIN
	SELECT quote_ident(n.nspname) INTO ext
	  FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
	 WHERE e.extname = 'ordered_uuid';

	-- the collector: loaded, running, and for how long it has counted
	BEGIN
		SELECT * INTO info FROM @extschema@.collector_info();
		running := info.state = 'running';
	EXCEPTION WHEN object_not_in_prerequisite_state THEN
		info := NULL;
	END;
	IF info IS NULL THEN
		blind := blind || jsonb_build_object(
			'finding', 'cannot see S1, S2, S3: the collector is not loaded',
			'evidence', 'collector_info() raised 55000: the library was not loaded at server start',
			'source', 'collector_info()',
			'change', 'shared_preload_libraries = ''ordered_uuid'' (then restart the server)');
	ELSIF info.state <> 'running' THEN
		blind := blind || jsonb_build_object(
			'finding', 'cannot see S1, S2, S3: the collector is not running',
			'evidence', format('collector_info().state = %L', info.state),
			'source', 'collector_info()');
	ELSE
		-- whole seconds, the same in value and evidence
		history := round(extract(epoch FROM now() - info.stats_reset));
		IF history < 3600 THEN
			blind := blind || jsonb_build_object(
				'finding', 'too little history: the collector''s figures cover less than an hour',
				'metric', 'seconds since the collector''s statistics began',
				'value', history, 'threshold', 3600,
				'evidence', format('stats_reset = %s: S1, S2 and S3 are judged on %s of history',
								   info.stats_reset, make_interval(secs => history::float8)),
				'source', 'collector_info()');
		END IF;
		IF info.wal_start IS NULL THEN
			blind := blind || jsonb_build_object(
				'finding', 'cannot see S1: the collector does not follow the WAL',
				'evidence', format('ordered_uuid.track_splits = %s, wal_retention = %s',
								   current_setting('ordered_uuid.track_splits', true),
								   coalesce(info.wal_retention, 'NULL')),
				'source', 'collector_info()',
				'change', 'ALTER SYSTEM SET ordered_uuid.track_splits = on; SELECT pg_reload_conf();');
		END IF;
	END IF;

	IF running THEN
		-- S1: a B-tree on a random key, its WAL mostly full-page images.  The
		-- default is deparsed without its table (pg_get_expr(..., 0), which
		-- takes no lock); only the index's size needs one.
		FOR r IN
			SELECT w.idx, w.records, w.wal_bytes, w.fpis, w.fpi_bytes, coalesce(sp.leaf, 0) AS leaf,
				   i.indrelid AS tbl, a.attname, a.atttypid, format_type(a.atttypid, a.atttypmod) AS typ,
				   CASE WHEN d.adbin IS NULL THEN NULL
						WHEN a.attgenerated <> '' THEN 'a generated column'
						ELSE pg_get_expr(d.adbin, 0) END AS dflt
			  FROM (SELECT x.relation AS idx, sum(x.records) AS records, sum(x.wal_bytes) AS wal_bytes,
						   sum(x.fpis) AS fpis, sum(x.fpi_bytes) AS fpi_bytes
					  FROM @extschema@.relation_wal_stats x
					 WHERE x.relation IS NOT NULL AND x.fork = 'main'
					 GROUP BY x.relation) w
			  JOIN pg_index i ON i.indexrelid = w.idx
			  JOIN pg_class ic ON ic.oid = i.indexrelid
			  JOIN pg_am am ON am.oid = ic.relam AND am.amname = 'btree'
			  JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
			  LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
			  LEFT JOIN (SELECT x.index, sum(x.leaf_splits) AS leaf
						   FROM @extschema@.index_split_stats x GROUP BY x.index) sp ON sp.index = w.idx
			 WHERE w.fpis >= 100 AND w.wal_bytes > 0 AND w.fpi_bytes >= 0.3 * w.wal_bytes
			   AND a.atttypid IN ('uuid'::regtype, 'text'::regtype, 'varchar'::regtype, 'bpchar'::regtype)
			 ORDER BY w.idx
		LOOP
			CONTINUE WHEN r.dflt ~ '(uuid_striped_nextval|uuid_v7_nextval|uuid_time_nextval|uuid_sequence_nextval|uuidv7)\(';
			BEGIN
				idx_size := pg_size_pretty(pg_relation_size(r.idx));
			EXCEPTION WHEN lock_not_available THEN
				idx_size := 'of unknown size (locked by another session)';
			END;
			acc := acc || jsonb_build_object(
				'scenario', 'S1', 'relation', r.idx::oid,
				'finding', 'random keys: the index writes a full-page image of most pages it touches after each checkpoint',
				'metric', 'fpi_bytes / wal_bytes of the index',
				'value', round(r.fpi_bytes::numeric / r.wal_bytes, 2), 'threshold', 0.3,
				'evidence', format('%s WAL records, %s bytes, %s full-page images (%s bytes); %s leaf splits; '
								   'index %s, shared_buffers %s; key %I %s, default %s',
								   r.records, r.wal_bytes, r.fpis, r.fpi_bytes, r.leaf, idx_size,
								   current_setting('shared_buffers'), r.attname, r.typ,
								   coalesce(r.dflt, 'none (keys made by the application)')),
				'source', format('relation_wal_stats, index_split_stats since %s; pg_attribute, pg_attrdef',
								 info.stats_reset),
				'change', format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s.uuid_striped_nextval()%s',
								 r.tbl::regclass, r.attname, ext,
								 CASE WHEN r.atttypid = 'uuid'::regtype THEN '' ELSE '::' || r.typ END)
						  || CASE WHEN r.dflt IS NULL THEN ' (and stop sending keys from the application)' ELSE '' END,
				'measured', 'bench_insert, 1M rows into fresh tables, 2 clients: uuid_striped_nextval() 2.72x '
							'the rows/s of gen_random_uuid() (medians of 5 runs, per pair 1.13-3.97x), 1 client 1.69x '
							'(1.57-1.87x); 146.6 WAL bytes a row and 90.0 % leaf density (doc/results.md, '
							'Figures with spread)',
				'verify', format('SELECT round(sum(fpi_bytes) / nullif(sum(wal_bytes), 0), 2) AS fpi_share, '
								 'sum(fpi_bytes) AS fpi_bytes, sum(wal_bytes) AS wal_bytes FROM %s.relation_wal_stats '
								 'WHERE relation = %L::regclass AND fork = ''main''; -- after the change, now and again '
								 'after the next two checkpoints: fpi_bytes grows by under 0.3 of wal_bytes'' growth '
								 '(after ordered_uuid_reset(), fpi_share alone says it; doc/diag.md, After the change)',
								 ext, r.idx::regclass::text));
		END LOOP;

		-- S2: loaders queued on a relation's extension lock
		acc := acc || coalesce((
			SELECT array_agg(jsonb_build_object(
				'scenario', 'S2', 'relation', e.relation::oid,
				'finding', 'concurrent loads queue on the relation extension lock',
				'metric', 'est_wait_time in seconds',
				'value', round(extract(epoch FROM e.est_wait_time), 1), 'threshold', 1,
				'evidence', format('%s waits, %s waiter-samples, %s waited in all, up to %s waiters at once, last %s',
								   e.waits, e.samples, e.est_wait_time, e.max_waiters, e.last_wait),
				'source', format('extend_lock_stats since %s', info.stats_reset),
				'change', CASE WHEN current_setting('server_version_num')::int >= 160000
							   THEN 'load with COPY instead of INSERT batches: since PostgreSQL 16 COPY extends a table by up to 64 pages at a time'
							   ELSE 'upgrade to PostgreSQL 16 or later and load with COPY, which extends a table by up to 64 pages at a time' END,
				'measured', '8 concurrent writers of 455-byte rows (pgbench): Lock:extend 50.1 % of the samples '
							'with COPY on PostgreSQL 15, 11.8 % on 18, where INSERT ... SELECT still waits 27.6 % '
							'(doc/results.md, S2 and S3)',
				'verify', format('SELECT waits, est_wait_time, max_waiters FROM %s.extend_lock_stats WHERE relation = %L::regclass; '
								 '-- now and again after the next loads: est_wait_time grows by less than 1 s a load '
								 '(doc/diag.md, After the change)', ext, e.relation::text)))
			  FROM @extschema@.extend_lock_stats e
			 WHERE e.relation IS NOT NULL AND e.database = current_database()
			   AND e.max_waiters >= 2 AND e.est_wait_time >= interval '1 second'),
			'{}');

		-- S3: this database's client backends mostly wait for the WAL's flush
		acc := acc || coalesce((
			SELECT array_agg(jsonb_build_object(
				'scenario', 'S3', 'relation', NULL,
				'finding', 'transactions wait for their commit''s WAL flush more than they work',
				'metric', 'share of active client samples waiting for the WAL flush',
				'value', round(p.flush::numeric / p.active, 2), 'threshold', 0.3,
				'evidence', format('%s of %s samples of this database''s active client backends in '
								   'IO:WALSync, IO:WALWrite or LWLock:WALWrite; %s commits for %s rows '
								   'inserted, updated or deleted (pg_stat_database)',
								   p.flush, p.active, sd.xact_commit,
								   sd.tup_inserted + sd.tup_updated + sd.tup_deleted),
				'source', format('wait_profile since %s; pg_stat_database', info.stats_reset),
				'change', 'commit several rows per transaction; where losing the last commits in a crash '
						  'is acceptable (never corruption): SET synchronous_commit = off in those sessions',
				'measured', 'bench_multi_table, 8 clients, one single-row INSERT a transaction: 87-91 % of the '
							'samples waited for the WAL; 29,865-33,093 rows/s logged, 321,877-358,685 rows/s '
							'unlogged, whose commits wait for no flush (doc/results.md, S2 and S3)',
				'verify', format('SELECT sum(samples) FILTER (WHERE lower(wait_event) IN (''walsync'', ''walwrite'')) AS flush, '
								 'sum(samples) AS active FROM %s.wait_profile WHERE database = current_database() '
								 'AND backend_type = ''client backend'' AND wait_event_type NOT IN (''Client'', ''Activity''); '
								 '-- now and again after an hour of the changed workload: the growth in flush is under 0.3 '
								 'of the growth in active (doc/diag.md, After the change)', ext)))
			  FROM (SELECT sum(wp.samples) FILTER (WHERE wp.wait_event_type IN ('IO', 'LWLock')
						   AND lower(wp.wait_event) IN ('walsync', 'walwrite')) AS flush,
						   sum(wp.samples) AS active
					  FROM @extschema@.wait_profile wp
					 WHERE wp.database = current_database() AND wp.backend_type = 'client backend'
					   AND wp.wait_event_type NOT IN ('Client', 'Activity')) p,
				   pg_stat_database sd
			 WHERE sd.datname = current_database()
			   AND p.active >= 100 AND p.flush >= 0.3 * p.active),
			'{}');
	END IF;

	-- S4: tables last measured at 128 pages or more (or never measured),
	-- with a non-unique B-tree of every row whose first column is a plain
	-- column of a core base type with a core operator class (the ones
	-- index_key_scatter() reads), one index a column, the caller allowed to
	-- read that column; not other sessions' temporary tables
	FOR r IN
		SELECT DISTINCT ON (i.indrelid, i.indkey[0])
			   i.indrelid AS tbl, i.indexrelid AS idx, ic.relname AS idxname, a.attname, c.relpages
		  FROM pg_index i
		  JOIN pg_class ic ON ic.oid = i.indexrelid
		  JOIN pg_am am ON am.oid = ic.relam AND am.amname = 'btree'
		  JOIN pg_class c ON c.oid = i.indrelid AND c.relkind IN ('r', 'm')
		  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = i.indkey[0]
		  JOIN pg_type t ON t.oid = a.atttypid AND t.typtype = 'b'
					   AND t.typnamespace = 'pg_catalog'::regnamespace
		  JOIN pg_opclass oc ON oc.oid = i.indclass[0] AND oc.opcintype = a.atttypid
						   AND oc.opcnamespace = 'pg_catalog'::regnamespace
		 WHERE NOT i.indisunique AND i.indisvalid AND i.indpred IS NULL
		   AND c.relnamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
		   AND (c.relpersistence <> 't' OR c.relnamespace = pg_my_temp_schema())
		   AND (c.relpages >= 128 OR c.reltuples < 0)
		   AND has_column_privilege(c.oid, a.attnum, 'SELECT')
		 ORDER BY i.indrelid, i.indkey[0], i.indexrelid
	LOOP
		BEGIN
			SELECT * INTO s FROM @extschema@.index_key_scatter(r.idx);
		EXCEPTION WHEN OTHERS THEN
			CONTINUE WHEN NOT EXISTS (SELECT FROM pg_index i WHERE i.indexrelid = r.idx);  -- dropped meanwhile
			GET STACKED DIAGNOSTICS err_state = RETURNED_SQLSTATE, err_msg = MESSAGE_TEXT;
			blind := blind || jsonb_build_object(
				'relation', r.tbl,
				'finding', 'cannot see S4: reading the key''s rows failed',
				'evidence', format('index %s: %s (SQLSTATE %s)', r.idx::regclass, err_msg, err_state),
				'source', 'index_key_scatter()');
			CONTINUE;
		END;
		IF s.state = 'locked' AND r.relpages >= 128 THEN
			blind := blind || jsonb_build_object(
				'relation', r.tbl,
				'finding', 'cannot see S4: the table or its index is locked by another session',
				'evidence', format('index %s, %s pages when last measured: ACCESS SHARE could not be taken at once',
								   r.idx::regclass, r.relpages),
				'source', 'index_key_scatter(); pg_class');
		ELSIF s.state = 'statistics hidden' AND s.table_pages >= 128 THEN
			blind := blind || jsonb_build_object(
				'relation', r.tbl,
				'finding', 'cannot see S4: row-level security hides the table''s statistics and rows from this role',
				'evidence', format('%s pages; its policies apply to %I, so pg_stats shows nothing of column %I '
								   'and its rows are not read', s.table_pages, current_user, r.attname),
				'source', 'index_key_scatter(); pg_class.relrowsecurity',
				'change', 'run the report as the table''s owner or a role with BYPASSRLS');
		ELSIF s.state = 'no statistics' AND s.table_pages >= 128 THEN
			blind := blind || jsonb_build_object(
				'relation', r.tbl,
				'finding', 'cannot see S4: no statistics of the key column',
				'evidence', format('%s pages, no statistics of column %I (index %s)',
								   s.table_pages, r.attname, r.idx::regclass),
				'source', 'pg_statistic',
				'change', format('ANALYZE %s', r.tbl::regclass));
		ELSIF s.state = 'ok' AND s.table_pages >= 128 AND s.packed_blocks > 0 THEN
			-- the sampled keys' blocks, against the blocks they would fill packed
			amp := round(s.heap_blocks::numeric / s.packed_blocks, 2);
			CONTINUE WHEN amp < 4;
			acc := acc || jsonb_build_object(
				'scenario', 'S4', 'relation', r.tbl,
				'finding', format('the rows of one %I are scattered over the heap', r.attname),
				'metric', 'heap blocks per key / blocks its rows fill packed',
				'value', amp, 'threshold', 4,
				'evidence', format('the %s most common keys of %I: %s rows in %s heap blocks (a key''s blocks '
								   'counted for each key) where packed they would fill %s%s; '
								   'correlation %s, %s pages, about %s rows a page',
								   s.keys, r.attname, s.rows, s.heap_blocks, s.packed_blocks,
								   CASE WHEN s.capped THEN ' (reading stopped at 50000 index entries)' ELSE '' END,
								   coalesce(round(s.correlation::numeric, 2)::text, 'unknown'), s.table_pages,
								   round(s.rows_per_page::numeric)),
				'source', format('the table''s rows of those keys, read through index %s without the planner; '
								 'pg_statistic; pg_class', r.idx::regclass),
				'change', format('CLUSTER %s USING %s (an ACCESS EXCLUSIVE lock while it runs; rows written later are not ordered)',
								 r.tbl::regclass, quote_ident(r.idxname)),
				'measured', 'bench_locality, 1000 groups of 2,000 rows (amplification 64.5): groups/s as written '
							'-> after CLUSTER 353 -> 2,474 on PostgreSQL 14 (7.0x), 73 -> 2,545 on 18 (34.7x) '
							'(doc/results.md, S4)',
				'verify', format('ANALYZE %s; SELECT round(heap_blocks::numeric / packed_blocks, 2) AS amplification '
								 'FROM %s.index_key_scatter(%L::regclass); -- after the change: under 4',
								 r.tbl::regclass, ext, r.idx::regclass::text));
		END IF;
	END LOOP;

	-- findings first, worst first; one row a table and scenario (the worst)
	RETURN QUERY
	SELECT (row_number() OVER (ORDER BY f.blind, f.severity DESC NULLS LAST, f.scenario, f.relation))::integer,
		   f.scenario, f.relation::regclass, f.finding, f.metric, f.value, f.threshold, f.evidence,
		   f.source, f.change, f.measured, f.verify
	  FROM (SELECT DISTINCT ON (u.blind, u.scenario, u.relation, CASE WHEN u.blind THEN u.finding END) u.*
			  FROM (SELECT x.*, false AS blind, x.value / x.threshold AS severity
					  FROM jsonb_to_recordset(to_jsonb(acc)) AS x(scenario text, relation oid, finding text, metric text,
													   value numeric, threshold numeric, evidence text,
													   source text, change text, measured text, verify text)
					UNION ALL
					SELECT y.*, true, NULL
					  FROM jsonb_to_recordset(to_jsonb(blind)) AS y(scenario text, relation oid, finding text, metric text,
														 value numeric, threshold numeric, evidence text,
														 source text, change text, measured text, verify text)) u
			 ORDER BY u.blind, u.scenario, u.relation, CASE WHEN u.blind THEN u.finding END,
					  u.severity DESC NULLS LAST) f
	 ORDER BY 1;
END
$fn$;

COMMENT ON FUNCTION write_path_report() IS
'the write-path problems S1-S4 found in what the collector, the statistics and the catalog already measured, ranked: figures, their source, the threshold passed, the change to make and how to see it worked; then what it cannot see';

--------------------------------------------------------------------------------
-- Collector (extension/30_collector.sql): relation_wal_info() keeps the counts
-- of the relation_wal_stats entries evicted for lack of room
-- (evicted_records, evicted_bytes, evicted_fpis, evicted_fpi_bytes) beside
-- the pruned ones, and the records as the rows count them
-- (relation_records), so that the rows and the totals add up to the WAL read
-- after any eviction.  New OUT columns change the result type, so the
-- function is dropped and created again: a view of one's own on it must be
-- dropped before the update and created after it, which the error says
-- (DROP ... CASCADE, core's hint, does not apply to an update).  Until the
-- update, the new library answers the old declaration with its first 15
-- columns.
--------------------------------------------------------------------------------
DO $$
DECLARE
	msg text;
	detail text;
BEGIN
	DROP FUNCTION relation_wal_info();
EXCEPTION WHEN dependent_objects_still_exist THEN
	GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
	RAISE EXCEPTION USING ERRCODE = 'dependent_objects_still_exist', MESSAGE = msg, DETAIL = detail,
		HINT = 'This update drops relation_wal_info() and creates it again with new result columns: drop the objects that depend on it, run ALTER EXTENSION ordered_uuid UPDATE, then create them again.';
END $$;

CREATE FUNCTION relation_wal_info(
	OUT wal_start pg_lsn, OUT wal_reached pg_lsn, OUT records bigint,
	OUT wal_bytes bigint, OUT fpis bigint, OUT fpi_bytes bigint,
	OUT no_block_records bigint, OUT no_block_bytes bigint,
	OUT pruned_records bigint, OUT pruned_bytes bigint,
	OUT pruned_fpis bigint, OUT pruned_fpi_bytes bigint,
	OUT entries bigint, OUT evicted bigint, OUT dropped_records bigint,
	OUT evicted_records bigint, OUT evicted_bytes bigint,
	OUT evicted_fpis bigint, OUT evicted_fpi_bytes bigint,
	OUT relation_records bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'ordered_uuid_relation_wal_info'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION relation_wal_info() IS
'the WAL the collector read since the last reset and how relation_wal_stats adds up to it: records without block references, counts pruned with their dropped relations and evicted for lack of room, entries used, evicted, records dropped, and the records as the rows count them (once per relation fork)';

-- The hint for a caller without EXECUTE (extension/05_privileges.sql): the
-- planner support function of every function that is not PUBLIC's.
CREATE FUNCTION execute_privilege_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'execute_privilege_support'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION execute_privilege_support(internal) IS
'planner support of the functions that are not PUBLIC''s: a caller without EXECUTE gets core''s permission error with a hint naming the roles that hold it';

ALTER FUNCTION index_splits(pg_lsn, pg_lsn) SUPPORT execute_privilege_support;
ALTER FUNCTION index_shape(regclass) SUPPORT execute_privilege_support;
ALTER FUNCTION explain_writes(text) SUPPORT execute_privilege_support;
ALTER FUNCTION ordered_uuid_reset() SUPPORT execute_privilege_support;
ALTER FUNCTION bench_insert(text[], bigint, int, int, bigint, bool, bool, int) SUPPORT execute_privilege_support;
ALTER FUNCTION bench_insert_distributed(text[], bigint, int, int, bigint, int, bool) SUPPORT execute_privilege_support;
ALTER FUNCTION bench_bulk_load(int, bigint, int, bool) SUPPORT execute_privilege_support;
ALTER FUNCTION bench_multi_table(int, int, bigint, bool, bool) SUPPORT execute_privilege_support;
ALTER FUNCTION bench_locality(int, int, int, int, int, bool) SUPPORT execute_privilege_support;
ALTER FUNCTION bench_cleanup() SUPPORT execute_privilege_support;
