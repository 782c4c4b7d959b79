-- ordered_uuid_sql 1.6.0 -> 1.6.1: the update step of the SQL edition
-- (scripts/sql_edition.py puts it into the plain file and the pg_tle
-- package).  write_path_report() is shared with the C edition
-- (sql-edition/20_diag.sql, ou:shared): the same change as
-- extension/upgrade/ordered_uuid--1.6.0--1.6.1.sql, which says what it is;
-- sql/sql_edition_upgrade.sql checks that 1.6.0 updated holds what a fresh
-- install holds.

CREATE OR REPLACE FUNCTION write_path_report(
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
	np record;
	err_state text;
	err_msg text;
	s5 record;
	s5_failures numeric;
	s5_last timestamptz;
	s5_found boolean := false;
	sql_edition boolean := false;
	w_rows jsonb;			-- S1's figures per index
	w_source text;
	w_splits text;
	walinspect text;
	wal_from pg_lsn;
	wal_to pg_lsn;
	others int := 0;		-- S4: tables of other owners (SQL edition)
	over_budget int := 0;	-- S4: tables past the SQL edition's lock budget
BEGIN
	-- the schema of this function, as its install script named it (the C
	-- edition and the SQL edition alike, extension or plain file)
	ext := quote_ident((parse_ident('@extschema@.write_path_report'))[1]);

	-- the collector: loaded, running, and for how long it has counted
	BEGIN
		SELECT * INTO info FROM @extschema@.collector_info();
		running := info.state = 'running';
	EXCEPTION WHEN object_not_in_prerequisite_state THEN
		info := NULL;
	WHEN undefined_function THEN
		-- the SQL edition, which has no collector
		info := NULL;
		sql_edition := true;
	END;
	IF sql_edition THEN
		blind := blind || jsonb_build_object(
			'finding', 'cannot see S2, S3, S5: the SQL edition has no collector',
			'evidence', 'waits on extension locks, waits for the WAL''s flush and serialization failures are '
						'counted by the C edition''s collector, which samples every backend from a library '
						'loaded at server start',
			'source', 'the SQL edition',
			'change', 'the C edition with shared_preload_libraries = ''ordered_uuid'', where the server lets you load it');
	ELSIF info IS NULL THEN
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
				'change', 'ALTER SYSTEM SET ordered_uuid.track_splits = on; SELECT pg_catalog.pg_reload_conf();');
		END IF;
	END IF;

	-- S1's figures per index: the collector's WAL per relation, or, in the
	-- SQL edition, pg_walinspect's blocks of the WAL since the last
	-- checkpoint (PostgreSQL 16 and later: pg_get_wal_block_info), each
	-- record's bytes to the relation of its first block, as the collector
	-- counts them
	IF running THEN
		SELECT jsonb_agg(jsonb_build_object('idx', w.idx::oid, 'records', w.records, 'wal_bytes', w.wal_bytes,
											'fpis', w.fpis, 'fpi_bytes', w.fpi_bytes,
											'splits', coalesce(sp.leaf, 0)))
		  INTO w_rows
		  FROM (SELECT x.relation AS idx, sum(x.records) AS records, sum(x.wal_bytes) AS wal_bytes,
					   sum(x.fpis) AS fpis, sum(x.fpi_bytes) AS fpi_bytes
				  FROM @extschema@.relation_wal_stats x
				 WHERE x.relation IS NOT NULL AND x.fork = 'main'
				 GROUP BY x.relation) w
		  LEFT JOIN (SELECT x.index, sum(x.leaf_splits) AS leaf
					   FROM @extschema@.index_split_stats x GROUP BY x.index) sp ON sp.index = w.idx;
		w_source := format('relation_wal_stats, index_split_stats since %s', info.stats_reset);
		w_splits := 'leaf splits';
	ELSIF sql_edition THEN
		SELECT quote_ident(n.nspname) INTO walinspect
		  FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
		 WHERE e.extname = 'pg_walinspect' AND e.extversion >= '1.1';
		IF walinspect IS NULL THEN
			blind := blind || jsonb_build_object(
				'finding', 'cannot see S1: pg_walinspect 1.1 is not installed',
				'evidence', 'the SQL edition reads the WAL''s full-page images of each index with pg_walinspect''s '
							'pg_get_wal_block_info(), of PostgreSQL 16 and later',
				'source', 'pg_extension',
				'change', CASE WHEN current_setting('server_version_num')::int >= 160000
							   THEN 'CREATE EXTENSION pg_walinspect' ELSE 'PostgreSQL 16 or later, with pg_walinspect' END);
		ELSIF NOT has_function_privilege(walinspect || '.pg_get_wal_block_info(pg_lsn, pg_lsn, boolean)', 'EXECUTE')
			  OR NOT has_function_privilege('pg_control_checkpoint()', 'EXECUTE') THEN
			blind := blind || jsonb_build_object(
				'finding', 'cannot see S1: this role may not read the WAL',
				'evidence', format('%I may not call pg_get_wal_block_info() or pg_control_checkpoint(): the WAL holds '
								   'every session''s data', current_user),
				'source', 'pg_walinspect',
				'change', format('GRANT pg_read_server_files, pg_monitor TO %I; -- or EXECUTE on those two functions',
								 current_user));
		ELSE
			-- the WAL since the last checkpoint's redo point, its last 256 MB at most
			SELECT c.redo_lsn INTO wal_from FROM pg_control_checkpoint() c;
			wal_to := CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_flush_lsn() END;
			IF pg_wal_lsn_diff(wal_to, wal_from) > 268435456 THEN
				wal_from := wal_to - 268435456::numeric;
			END IF;
			EXECUTE format(
				'SELECT jsonb_agg(jsonb_build_object(''idx'', w.idx::oid, ''records'', w.records, ''wal_bytes'', w.wal_bytes,'
				'                 ''fpis'', w.fpis, ''fpi_bytes'', w.fpi_bytes, ''splits'', w.splits))'
				'  FROM (SELECT pg_filenode_relation(b.reltablespace, b.relfilenode) AS idx,'
				'               count(*) FILTER (WHERE b.first) AS records,'
				'               coalesce(sum(b.record_length) FILTER (WHERE b.first), 0) AS wal_bytes,'
				'               count(*) FILTER (WHERE b.block_fpi_length > 0) AS fpis,'
				'               coalesce(sum(b.block_fpi_length), 0) AS fpi_bytes,'
				'               count(*) FILTER (WHERE b.first AND b.resource_manager = ''Btree'''
				'                                AND b.record_type IN (''SPLIT_L'', ''SPLIT_R'')) AS splits'
				'          FROM (SELECT x.*, x.block_id = min(x.block_id) OVER (PARTITION BY x.start_lsn) AS first'
				'                  FROM %s.pg_get_wal_block_info($1, $2, false) x) b'
				'         WHERE b.relforknumber = 0 AND b.reldatabase IN (0, (SELECT d.oid FROM pg_database d'
				'                                           WHERE d.datname = current_database()))'
				'         GROUP BY b.reltablespace, b.relfilenode) w'
				' WHERE w.idx IS NOT NULL', walinspect)
			INTO w_rows USING wal_from, wal_to;
			w_source := format('pg_walinspect''s pg_get_wal_block_info() from %s to %s (the WAL since the last '
							   'checkpoint)', wal_from, wal_to);
			w_splits := 'page splits';
		END IF;
	END IF;

	-- S1: a B-tree on a random key, its WAL mostly full-page images.  The
	-- default is deparsed without its table (pg_get_expr(..., 0), which
	-- takes no lock); only the index's size needs one.
	FOR r IN
		SELECT w.idx::regclass AS idx, w.records, w.wal_bytes, w.fpis, w.fpi_bytes, w.splits AS leaf,
			   i.indrelid AS tbl, a.attname, a.atttypid, format_type(a.atttypid, a.atttypmod) AS typ,
			   CASE WHEN d.adbin IS NULL THEN NULL
					WHEN a.attgenerated <> '' THEN 'a generated column'
					ELSE pg_get_expr(d.adbin, 0) END AS dflt
		  FROM jsonb_to_recordset(coalesce(w_rows, '[]')) AS w(idx oid, records numeric, wal_bytes numeric,
															  fpis numeric, fpi_bytes numeric, splits numeric)
		  JOIN pg_index i ON i.indexrelid = w.idx
		  JOIN pg_class ic ON ic.oid = i.indexrelid
		  JOIN pg_am am ON am.oid = ic.relam AND am.amname = 'btree'
		  JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
		  LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
		 WHERE w.fpis >= 100 AND w.wal_bytes > 0 AND w.fpi_bytes >= 0.3 * w.wal_bytes
		   AND a.atttypid IN ('uuid'::regtype, 'text'::regtype, 'varchar'::regtype, 'bpchar'::regtype)
		   AND has_column_privilege(i.indrelid, a.attnum, 'SELECT')
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
			'value', round(r.fpi_bytes / r.wal_bytes, 2), 'threshold', 0.3,
			'evidence', format('%s WAL records, %s bytes, %s full-page images (%s bytes); %s %s; '
							   'index %s, shared_buffers %s; key %I %s, default %s',
							   r.records, r.wal_bytes, r.fpis, r.fpi_bytes, r.leaf, w_splits, idx_size,
							   current_setting('shared_buffers'), r.attname, r.typ,
							   coalesce(r.dflt, 'none (keys made by the application)')),
			'source', w_source || '; pg_attribute, pg_attrdef',
			-- right_edge => false (1.6.0): the random keys the index holds lie
			-- above the new keys too, so every session must make fill keys
			-- the cast to a column of text: pg_catalog's type, whatever the
			-- search_path (character and character varying are SQL's keywords,
			-- always pg_catalog's)
			'change', format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s.uuid_striped_nextval(3600, right_edge => false)%s',
							 r.tbl::regclass, r.attname, ext,
							 CASE r.atttypid WHEN 'uuid'::regtype THEN '' WHEN 'text'::regtype THEN '::pg_catalog.text'
											 ELSE '::' || r.typ END)
					  || CASE WHEN r.dflt IS NULL THEN '; -- and stop sending keys from the application' ELSE '' END,
			'measured', 'bench_insert, 1M rows into fresh tables, 2 clients: uuid_striped_nextval() 2.72x '
						'the rows/s of gen_random_uuid() (medians of 5 runs, per pair 1.13-3.97x), 1 client 1.69x '
						'(1.57-1.87x); 146.6 WAL bytes a row and 90.0 % leaf density (doc/results.md, '
						'Figures with spread); a table of 1M gen_random_uuid() keys, then 500k rows: the index grew '
						'1.80x a fresh table''s pages with uuid_striped_nextval() or uuid_v7_nextval(), 0.94x with '
						'uuid_striped_nextval(3600, right_edge => false) (doc/results.md, Switching a table from random keys)',
			'verify', CASE WHEN sql_edition THEN
				format('SELECT pg_catalog.round(pg_catalog.sum(b.block_fpi_length)::pg_catalog.numeric OPERATOR(pg_catalog./) '
					   'GREATEST(pg_catalog.sum(b.record_length) FILTER (WHERE b.block_id OPERATOR(pg_catalog.=) 0), 1), 2) '
					   'AS fpi_share FROM %1$s.pg_get_wal_block_info((SELECT redo_lsn FROM pg_catalog.pg_control_checkpoint()), '
					   'pg_catalog.pg_current_wal_flush_lsn(), false) b '
					   'WHERE b.relfilenode OPERATOR(pg_catalog.=) pg_catalog.pg_relation_filenode(%2$L::pg_catalog.regclass) '
					   'AND b.relforknumber OPERATOR(pg_catalog.=) 0; -- after the change, once two checkpoints have passed: under 0.3, '
					   'about 0.01 for ordered keys (doc/sql-edition.md, The report)',
					   walinspect, r.idx::regclass::text)
			ELSE
				format('SELECT pg_catalog.round(pg_catalog.sum(fpi_bytes) OPERATOR(pg_catalog./) '
					   'GREATEST(pg_catalog.sum(wal_bytes), 1), 2) AS fpi_share, '
					   'pg_catalog.sum(fpi_bytes) AS fpi_bytes, pg_catalog.sum(wal_bytes) AS wal_bytes, '
					   'pg_catalog.sum(records) AS records, (SELECT pg_catalog.sum(leaf_splits) FROM %1$s.index_split_stats '
					   'WHERE index OPERATOR(pg_catalog.=) %2$L::pg_catalog.regclass) AS leaf_splits '
					   'FROM %1$s.relation_wal_stats WHERE relation OPERATOR(pg_catalog.=) %2$L::pg_catalog.regclass '
					   'AND fork OPERATOR(pg_catalog.=) ''main''; -- after the change, now and again '
					   'after the next two checkpoints: fpi_bytes grows by under 0.3 of wal_bytes'' growth, '
					   'and leaf_splits by under 0.0045 of records'' growth (after ordered_uuid_reset(), the '
					   'sums alone say it; doc/diag.md, After the change)',
					   ext, r.idx::regclass::text) END);
	END LOOP;

	IF running THEN

		-- S1, a table switched the old way (1.6.0): a uuid B-tree written since
		-- the reset whose default makes time-ordered keys that skip fill keys
		-- at the right edge (uuid_v7_nextval, uuidv7, uuid_striped_nextval
		-- without right_edge => false), while the index holds keys above the
		-- newest (the random keys of before the switch): every split there is
		-- 50:50 and the new keys' pages end half full.  index_newest_pages()
		-- reads the 64 leaf pages behind the newest key, through the index
		-- alone, and only if the caller may read the column; not other
		-- sessions' temporary tables.
		FOR r IN
			SELECT w.idx, w.records, coalesce(sp.leaf, 0) AS leaf, i.indrelid AS tbl, a.attname,
				   pg_get_expr(d.adbin, 0) AS dflt
			  FROM (SELECT x.relation AS idx, sum(x.records) AS records
					  FROM @extschema@.relation_wal_stats x
					 WHERE x.relation IS NOT NULL AND x.fork = 'main'
					 GROUP BY x.relation) w
			  JOIN pg_index i ON i.indexrelid = w.idx
			  JOIN pg_class ic ON ic.oid = i.indexrelid
			  JOIN pg_am am ON am.oid = ic.relam AND am.amname = 'btree'
			  JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
			  JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
			  LEFT JOIN (SELECT x.index, sum(x.leaf_splits) AS leaf
						   FROM @extschema@.index_split_stats x GROUP BY x.index) sp ON sp.index = w.idx
			 WHERE w.records >= 1000 AND a.atttypid = 'uuid'::regtype AND a.attgenerated = ''
			   AND (ic.relpersistence <> 't' OR ic.relnamespace = pg_my_temp_schema())
			   AND has_column_privilege(i.indrelid, a.attnum, 'SELECT')
			 ORDER BY w.idx
		LOOP
			CONTINUE WHEN r.dflt !~ '(uuid_striped_nextval|uuid_v7_nextval|uuidv7)\('
					   OR r.dflt ~ 'uuid_striped_nextval\([^()]*false\)';
			BEGIN
				SELECT * INTO np FROM @extschema@.index_newest_pages(r.idx);
			EXCEPTION WHEN OTHERS THEN
				CONTINUE WHEN NOT EXISTS (SELECT FROM pg_index i WHERE i.indexrelid = r.idx);  -- dropped meanwhile
				GET STACKED DIAGNOSTICS err_state = RETURNED_SQLSTATE, err_msg = MESSAGE_TEXT;
				blind := blind || jsonb_build_object(
					'relation', r.idx::oid,
					'finding', 'cannot see S1 (ordered keys among random ones): reading the index failed',
					'evidence', format('%s (SQLSTATE %s)', err_msg, err_state),
					'source', 'index_newest_pages()');
				CONTINUE;
			END;
			IF np.state IN ('locked', 'hidden') THEN
				blind := blind || jsonb_build_object(
					'relation', r.idx::oid,
					'finding', 'cannot see S1 (ordered keys among random ones): ' ||
							   CASE np.state WHEN 'locked' THEN 'the table or its index is locked by another session'
									ELSE 'row-level security hides the table''s rows from this role' END,
					'evidence', format('index_newest_pages() state %L', np.state),
					'source', 'index_newest_pages()');
				CONTINUE;
			END IF;
			CONTINUE WHEN np.state <> 'ok' OR NOT np.keys_above OR np.leaf_pages < 16
					   OR np.avg_leaf_density <= 0 OR 90 / np.avg_leaf_density < 1.3;
			acc := acc || jsonb_build_object(
				'scenario', 'S1', 'relation', r.idx::oid,
				'finding', 'ordered keys among random ones: the pages behind the newest keys are left half full',
				'metric', 'pages the newest keys take / pages they would take at the right edge (90 % full)',
				'value', round((90 / np.avg_leaf_density)::numeric, 2), 'threshold', 1.3,
				'evidence', format('the %s leaf pages behind the newest key (of %s) are %s %% full, %s of '
								   'their %s entries time-ordered; the index holds keys above them, so every split '
								   'there is a 50:50 split; %s leaf splits in %s WAL records of the index; key %I, '
								   'default %s',
								   np.leaf_pages, np.newest_time, round(np.avg_leaf_density::numeric, 1),
								   np.ordered_tuples, np.tuples, r.leaf, r.records, r.attname, r.dflt),
				'source', format('index_newest_pages(); relation_wal_stats, index_split_stats since %s; '
								 'pg_attrdef', info.stats_reset),
				'change', format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s.uuid_striped_nextval(%s, right_edge => false)',
								 r.tbl::regclass, r.attname, ext,
								 coalesce(substring(r.dflt FROM 'uuid_striped_nextval\((\d+)'), '3600')),
				'measured', 'a table of 1M gen_random_uuid() keys, then 500k rows: the index grew 1.80x a fresh '
							'table''s pages with uuid_striped_nextval() or uuid_v7_nextval(), 0.94x with '
							'uuid_striped_nextval(3600, right_edge => false); a version 7 key cannot fill the pages '
							'it leaves behind without breaking its order (doc/results.md, Switching a table from '
							'random keys; doc/migrating.md)',
				'verify', format('SELECT pg_catalog.sum(records) AS records, (SELECT pg_catalog.sum(leaf_splits) '
								 'FROM %1$s.index_split_stats WHERE index OPERATOR(pg_catalog.=) %2$L::pg_catalog.regclass) '
								 'AS leaf_splits FROM %1$s.relation_wal_stats WHERE relation OPERATOR(pg_catalog.=) '
								 '%2$L::pg_catalog.regclass AND fork OPERATOR(pg_catalog.=) ''main''; -- now and again after 20,000 '
								 'new rows: leaf_splits grows by under 0.0045 of records'' growth (half-full pages split '
								 'about 7 times in 1,000 keys, the change''s 95 %% full ones under 4; after '
								 'ordered_uuid_reset(), the sums alone say it).  The pages written before the change '
								 'stay half full until REINDEX INDEX CONCURRENTLY %3$s, which rewrites the index, not '
								 'the rows (doc/diag.md, After the change)',
								 ext, r.idx::regclass::text, r.idx::regclass));
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
				'verify', format('SELECT waits, est_wait_time, max_waiters FROM %s.extend_lock_stats '
								 'WHERE relation OPERATOR(pg_catalog.=) %L::pg_catalog.regclass; '
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
				'verify', format('SELECT pg_catalog.sum(samples) FILTER (WHERE pg_catalog.lower(wait_event) '
								 'OPERATOR(pg_catalog.=) ANY (ARRAY[''walsync'', ''walwrite''])) AS flush, '
								 'pg_catalog.sum(samples) AS active FROM %s.wait_profile '
								 'WHERE database OPERATOR(pg_catalog.=) pg_catalog.current_database() '
								 'AND backend_type OPERATOR(pg_catalog.=) ''client backend'' '
								 'AND NOT wait_event_type OPERATOR(pg_catalog.=) ANY (ARRAY[''Client'', ''Activity'']); '
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
		ELSIF s.state = 'owned by another role' AND s.table_pages >= 128 THEN
			others := others + 1;	-- the SQL edition reads only the caller's own tables
		ELSIF s.state = 'lock budget spent' AND s.table_pages >= 128 THEN
			over_budget := over_budget + 1;
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
				'source', CASE WHEN sql_edition
							   THEN format('the table''s rows of those keys, read by a query (the table is %I''s own); '
										   'pg_stats; pg_class', current_user)
							   ELSE format('the table''s rows of those keys, read through index %s without the planner; '
										   'pg_statistic; pg_class', r.idx::regclass) END,
				'change', format('CLUSTER %s USING %s; -- an ACCESS EXCLUSIVE lock while it runs; rows written later are not ordered',
								 r.tbl::regclass, quote_ident(r.idxname)),
				'measured', 'bench_locality, 1000 groups of 2,000 rows (amplification 64.5): groups/s as written '
							'-> after CLUSTER 353 -> 2,474 on PostgreSQL 14 (7.0x), 73 -> 2,545 on 18 (34.7x) '
							'(doc/results.md, S4)',
				'verify', format('ANALYZE %s; SELECT pg_catalog.round(heap_blocks::pg_catalog.numeric OPERATOR(pg_catalog./) '
								 'GREATEST(packed_blocks, 1), 2) AS amplification '
								 'FROM %s.index_key_scatter(%L::pg_catalog.regclass); -- after the change: under 4',
								 r.tbl::regclass, ext, r.idx::regclass::text));
		END IF;
	END LOOP;

	IF others > 0 THEN
		blind := blind || jsonb_build_object(
			'finding', 'cannot see S4 on ' || CASE WHEN others = 1 THEN 'a table of another role'
												   ELSE format('%s tables of other roles', others) END,
			'evidence', format('a query over a table runs code its owner chose (index expressions, predicates, '
							   'statistics, policies) as the role that runs it; the SQL edition reads only the '
							   'tables of %I, the C edition every table, without running any owner''s code', current_user),
			'source', 'index_key_scatter() of the SQL edition',
			'change', 'run write_path_report() as each table''s owner');
	END IF;
	IF over_budget > 0 THEN
		blind := blind || jsonb_build_object(
			'finding', 'cannot see S4 on ' || CASE WHEN over_budget = 1 THEN 'one more table'
												   ELSE format('%s more tables', over_budget) END
					   || ': the SQL edition reads at most 500 a transaction',
			'evidence', 'each table read keeps its lock to the end of the transaction, as any query''s does',
			'source', 'index_key_scatter() of the SQL edition',
			'change', 'run write_path_report() again in a new transaction');
	END IF;

	-- S5 (1.6.0): SERIALIZABLE transactions that insert and read back by key
	-- fail with 40001 when they all read and write the same leaf page of an
	-- index, the last one of an ascending key.  Evidence: this database's SSI
	-- failures (serialization_failure_stats, counted as the server logs them)
	-- and, per index, the collector's samples of its SIREAD page locks, most
	-- of them on pages that two or more sessions held at once.  An index whose
	-- key has a random or striped default is not judged: its pages are not
	-- shared for the key's sake.
	IF sql_edition THEN
		NULL;	-- said above, with S2 and S3
	ELSIF info IS NULL THEN
		blind := blind || jsonb_build_object(
			'finding', 'cannot see S5: the collector is not loaded',
			'evidence', 'collector_info() raised 55000: the library was not loaded at server start',
			'source', 'collector_info()',
			'change', 'shared_preload_libraries = ''ordered_uuid'' (then restart the server)');
	ELSIF NOT running THEN
		blind := blind || jsonb_build_object(
			'finding', 'cannot see S5: the collector is not running',
			'evidence', format('collector_info().state = %L', info.state),
			'source', 'collector_info()');
	ELSE
		SELECT * INTO s5 FROM @extschema@.serialization_info();
		SELECT coalesce(sum(f.ssi_failures), 0), max(f.last_failure) INTO s5_failures, s5_last
		  FROM @extschema@.serialization_failure_stats f
		 WHERE f.database = current_database();
		IF current_setting('log_min_messages') IN ('fatal', 'panic') THEN
			blind := blind || jsonb_build_object(
				'finding', 'cannot see S5: serialization failures are not counted',
				'evidence', format('log_min_messages = %s: errors do not reach the server log, where the collector counts them',
								   current_setting('log_min_messages')),
				'source', 'log_min_messages',
				'change', 'ALTER SYSTEM SET log_min_messages = warning; SELECT pg_catalog.pg_reload_conf();');
		END IF;
		IF s5.predicate_lock_interval = interval '0' THEN
			blind := blind || jsonb_build_object(
				'finding', 'cannot see S5: predicate locks are not sampled',
				'evidence', format('ordered_uuid.predicate_lock_interval = 0; %s serialization failures (read/write dependencies) in this database since %s',
								   s5_failures, info.stats_reset),
				'source', 'serialization_info(); serialization_failure_stats',
				'change', 'ALTER SYSTEM SET ordered_uuid.predicate_lock_interval = ''1s''; SELECT pg_catalog.pg_reload_conf();');
		ELSIF s5_failures > 0 THEN
			FOR r IN
				SELECT p.relation AS idx, p.samples, p.page_locks, p.shared_page_locks, p.max_sessions,
					   p.hot_page, i.indrelid AS tbl, a.attname, a.atttypid,
					   format_type(a.atttypid, a.atttypmod) AS typ,
					   CASE WHEN d.adbin IS NULL THEN NULL
							WHEN a.attgenerated <> '' THEN 'a generated column'
							ELSE pg_get_expr(d.adbin, 0) END AS dflt,
					   a.attidentity
				  FROM @extschema@.predicate_lock_stats p
				  JOIN pg_index i ON i.indexrelid = p.relation
				  JOIN pg_class ic ON ic.oid = i.indexrelid
				  JOIN pg_am am ON am.oid = ic.relam AND am.amname = 'btree'
				  JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
				  LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
				 WHERE p.relation IS NOT NULL AND p.samples >= 10 AND p.page_locks >= 20
				   AND p.shared_page_locks >= 0.5 * p.page_locks
				 ORDER BY p.relation
			LOOP
				CONTINUE WHEN r.dflt ~ '(uuid_striped_nextval|gen_random_uuid|uuid_generate_v4)\(';
				acc := acc || jsonb_build_object(
					'scenario', 'S5', 'relation', r.idx::oid,
					'finding', 'SERIALIZABLE transactions read and write the same leaf page of the index: their predicate locks overlap and fail them with 40001',
					'metric', 'share of sampled SIREAD page locks on pages that two or more sessions held at once',
					'value', round(r.shared_page_locks::numeric / r.page_locks, 2), 'threshold', 0.5,
					'evidence', format('%s of %s SIREAD page locks (page, session) in %s samples on shared pages, up to %s sessions '
									   'on one page (block %s in the latest sample); %s serialization failures of read/write '
									   'dependencies in this database, the last %s; %s commits; key %I %s, %s',
									   r.shared_page_locks, r.page_locks, r.samples, r.max_sessions,
									   coalesce(r.hot_page::text, 'unknown'), s5_failures, s5_last,
									   (SELECT sd.xact_commit FROM pg_stat_database sd WHERE sd.datname = current_database()),
									   r.attname, r.typ,
									   CASE WHEN r.attidentity <> '' THEN 'an identity column (ascending)'
											ELSE 'default ' || coalesce(r.dflt, 'none (keys made by the application)') END),
					'source', format('predicate_lock_stats, serialization_failure_stats since %s; pg_stat_database; pg_attribute, pg_attrdef',
									 info.stats_reset),
					'change', CASE WHEN r.atttypid = 'uuid'::regtype
								   THEN format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s.uuid_striped_nextval()',
											   r.tbl::regclass, r.attname, ext)
										|| CASE WHEN r.dflt IS NULL THEN '; -- and stop sending keys from the application: '
												ELSE '; -- ' END
										|| 'each session then inserts into a leaf page of its own'
								   ELSE format('the key %I of %s ascends, so every transaction inserts into its last leaf page: '
											   'a uuid key with DEFAULT %s.uuid_striped_nextval() gives each session a leaf page of its own',
											   r.attname, r.tbl::regclass, ext) END,
					'measured', 'bench_serializable, transactions that insert a row and read it back by key, 8 clients on 2 cores: '
								'uuid_v7_nextval() failed 20.8 % of attempts (19.4-22.3), uuid_striped_nextval() 0 %, '
								'gen_random_uuid() 0.0029 %; at 16 clients 42.5 %, 0 % and 0.0281 %, the striped key 10.8x '
								'the v7 key''s rows/s (medians of 3 runs; doc/results.md, S5)',
					'verify', format('SELECT ssi_failures FROM %1$s.serialization_failure_stats '
									 'WHERE database OPERATOR(pg_catalog.=) pg_catalog.current_database(); '
									 'SELECT pg_catalog.round(shared_page_locks::pg_catalog.numeric OPERATOR(pg_catalog./) '
									 'GREATEST(page_locks, 1), 2) AS shared_share FROM %1$s.predicate_lock_stats '
									 'WHERE relation OPERATOR(pg_catalog.=) %2$L::pg_catalog.regclass; -- now and again after an hour '
									 'of the changed workload: ssi_failures grows far slower, and the new samples put under 0.5 of '
									 'their page locks on shared pages (after ordered_uuid_reset(), shared_share alone says it; '
									 'doc/diag.md, After the change)', ext, r.idx::regclass::text));
				s5_found := true;
			END LOOP;
			IF NOT s5_found AND s5_failures >= 10 THEN
				blind := blind || jsonb_build_object(
					'finding', 'cannot see S5''s cause: serialization failures, but no index whose SIREAD locks concentrate',
					'metric', 'serialization failures of read/write dependencies in this database',
					'value', s5_failures, 'threshold', 10,
					'evidence', format('%s failures since %s, the last %s; %s predicate lock samples, none with most of an index''s page locks on shared pages',
									   s5_failures, info.stats_reset, s5_last, s5.lock_samples),
					'source', 'serialization_failure_stats; predicate_lock_stats; serialization_info()');
			END IF;
		END IF;
	END IF;

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
