--
-- explain_writes(): per-relation WAL of one statement, checked against
-- independent counts (pgstatindex, relation sizes, row counts).  That it
-- counts only its own statement's WAL while another session writes is
-- specs/diag_explain_writes_concurrent.spec.
--
SET client_min_messages = warning;	-- whether or not an earlier test made them
CREATE EXTENSION IF NOT EXISTS pgstattuple;
RESET client_min_messages;
\set VERBOSITY sqlstate

-- 1. Fresh tables: random vs monotonic keys.
CREATE TABLE ew_rand (id uuid) WITH (autovacuum_enabled = off);
CREATE INDEX ew_rand_idx ON ew_rand (id);
CREATE TABLE ew_mono (id uuid) WITH (autovacuum_enabled = off);
CREATE INDEX ew_mono_idx ON ew_mono (id);
CREATE TEMP TABLE ew_rand_w AS
SELECT * FROM explain_writes('INSERT INTO ew_rand SELECT gen_random_uuid() FROM generate_series(1, 20000)');
CREATE TEMP TABLE ew_mono_w AS
SELECT * FROM explain_writes('INSERT INTO ew_mono SELECT uuid_v7_nextval() FROM generate_series(1, 20000)');

-- One row per relation, plus the total row (catalogs may show up too: the
-- statement may prune catalog pages it reads, with this transaction's xid).
SELECT relation, kind FROM ew_rand_w WHERE kind <> 'catalog' ORDER BY kind, relation;
-- Heap: one insert record per row; every page was initialised once.
-- Index: leaf_splits = leaf_pages - 1; every page but the metapage was
-- initialised once (new root, right halves of splits).  Total: the rows.
SELECT w.wal_records = 20000 AS heap_records,
	   w.blocks_added = pg_relation_size('ew_rand') / current_setting('block_size')::int AS heap_blocks,
	   i.leaf_splits = p.leaf_pages - 1 AS leaf_splits_ok,
	   i.upper_splits = p.internal_pages - p.tree_level AS upper_splits_ok,
	   i.blocks_added = p.leaf_pages + p.internal_pages AS index_blocks,
	   t.rows = 20000 AS total_rows,
	   t.wal_records >= w.wal_records + i.wal_records AS total_covers,
	   t.wal_bytes >= w.wal_bytes + i.wal_bytes AS total_bytes_cover,
	   t.leaf_splits = i.leaf_splits AS total_splits,
	   t.seconds >= 0 AND t.seconds::numeric = round(t.seconds::numeric, 3) AS seconds_ms,
	   t.shared_blks_dirtied > 0 AS buffers
FROM ew_rand_w AS w, ew_rand_w AS i, ew_rand_w AS t, pgstatindex('ew_rand_idx') AS p
WHERE w.relation = 'ew_rand'::regclass AND i.relation = 'ew_rand_idx'::regclass AND t.kind = 'total';
-- The same for monotonic keys; and random keys split more.
SELECT i.leaf_splits = p.leaf_pages - 1 AS leaf_splits_ok,
	   i.blocks_added = p.leaf_pages + p.internal_pages AS index_blocks,
	   r.leaf_splits > i.leaf_splits AS random_splits_more
FROM ew_mono_w AS i, ew_rand_w AS r, pgstatindex('ew_mono_idx') AS p
WHERE i.relation = 'ew_mono_idx'::regclass AND r.relation = 'ew_rand_idx'::regclass;

-- 2. After a checkpoint, random keys touch every leaf page (one full-page
-- image each), monotonic keys only the rightmost ones.
CHECKPOINT;
CREATE TEMP TABLE ew_rand_fpi AS
SELECT * FROM explain_writes('INSERT INTO ew_rand SELECT gen_random_uuid() FROM generate_series(1, 2000)');
CREATE TEMP TABLE ew_mono_fpi AS
SELECT * FROM explain_writes('INSERT INTO ew_mono SELECT uuid_v7_nextval() FROM generate_series(1, 2000)');
SELECT r.wal_fpi > 10 * greatest(m.wal_fpi, 1) AS random_far_more_fpi,
	   r.wal_fpi >= 20 AS random_fpi_many,
	   rt.wal_fpi >= r.wal_fpi AS total_counts_fpi
FROM ew_rand_fpi AS r, ew_mono_fpi AS m, ew_rand_fpi AS rt
WHERE r.relation = 'ew_rand_idx'::regclass AND m.relation = 'ew_mono_idx'::regclass
  AND rt.kind = 'total';

-- 3. UPDATE, DELETE, COPY FROM a file, SELECT; TOAST relations.
CREATE TABLE ew_toast (id int PRIMARY KEY, doc text) WITH (autovacuum_enabled = off);
ALTER TABLE ew_toast ALTER COLUMN doc SET STORAGE EXTERNAL;
SELECT kind, count(*) AS relations, sum(wal_records) > 0 AS wrote
FROM explain_writes($$INSERT INTO ew_toast SELECT g, repeat('x', 5000) FROM generate_series(1, 100) AS g$$)
WHERE kind <> 'catalog'
GROUP BY kind ORDER BY kind;
SELECT kind, rows FROM explain_writes('UPDATE ew_toast SET id = id + 1000 WHERE id <= 10')
WHERE kind = 'total';
SELECT kind, rows FROM explain_writes('DELETE FROM ew_toast WHERE id > 90') WHERE kind = 'total';
SELECT current_setting('data_directory') || '/ew_copy.csv' AS copyfile \gset
COPY (SELECT g, 'row ' || g FROM generate_series(1, 500) AS g) TO :'copyfile';
CREATE TABLE ew_copy (id int, t text) WITH (autovacuum_enabled = off);
-- COPY inserts in batches: far fewer heap records than rows.
SELECT relation, kind, rows, wal_records BETWEEN 1 AND 50 AS batched
FROM explain_writes(format('COPY ew_copy FROM %L', :'copyfile'))
WHERE kind <> 'catalog'
ORDER BY kind, relation;
SELECT (SELECT count(*) FROM ew_copy) AS copied;
SELECT relation, kind, rows FROM explain_writes('SELECT * FROM ew_rand') WHERE kind = 'total';

-- 4. Errors in the statement propagate unchanged; nothing is returned.
SELECT * FROM explain_writes('SELECT 1/0');
SELECT * FROM explain_writes('INSERT INTO ew_no_such_table VALUES (1)');
SELECT * FROM explain_writes(NULL);
-- What SPI cannot run is an error, not an empty answer.
SELECT * FROM explain_writes('COPY ew_copy FROM STDIN');
-- one statement only
SELECT * FROM explain_writes('INSERT INTO ew_mono VALUES (uuid_v7_nextval()); INSERT INTO ew_mono VALUES (uuid_v7_nextval())');
SELECT * FROM explain_writes('COMMIT');
-- no statement at all is an error too, not an empty measurement
SELECT * FROM explain_writes('');
SELECT * FROM explain_writes('  -- a comment only');
-- Inside a transaction block the statement's writes stay in it.
BEGIN;
SELECT rows FROM explain_writes('DELETE FROM ew_copy') WHERE kind = 'total';
ROLLBACK;
SELECT count(*) AS still_there FROM ew_copy;

DROP TABLE ew_rand, ew_mono, ew_toast, ew_copy;

-- pg_walinspect's view of a relation file in an LSN range (PG 16+:
-- pg_get_wal_block_info): records whose first block is in it, full-page
-- images of its blocks, split records.  NULLs before 16; the independent
-- counts below (pgstatindex, relation sizes) hold on every version.
SET client_min_messages = warning;
DO $$
BEGIN
	IF current_setting('server_version_num')::int >= 160000 THEN
		CREATE EXTENSION IF NOT EXISTS pg_walinspect;
	END IF;
END
$$;
RESET client_min_messages;
CREATE FUNCTION pg_temp.wi(s pg_lsn, e pg_lsn, rel regclass,
						   OUT records bigint, OUT fpi bigint, OUT splits bigint)
LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('server_version_num')::int >= 160000 THEN
		EXECUTE $q$SELECT count(*) FILTER (WHERE block_id = 0),
						  count(*) FILTER (WHERE block_fpi_length > 0),
						  count(*) FILTER (WHERE block_id = 0 AND record_type IN ('SPLIT_L', 'SPLIT_R'))
					 FROM pg_get_wal_block_info($1, $2)
					WHERE relfilenode = pg_relation_filenode($3)$q$
			INTO records, fpi, splits USING s, e, rel;
	END IF;
END
$$;

-- 5. A subtransaction that aborted keeps what it wrote on disk (the heap
-- blocks, the index's splits and its new root stay after the rollback):
-- its records count for their relations, as pg_walinspect and pgstatindex
-- see them.
CREATE TABLE ew_sub (id uuid) WITH (autovacuum_enabled = off);
CREATE INDEX ew_sub_idx ON ew_sub (id);
CREATE FUNCTION pg_temp.fill_and_fail() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	BEGIN
		INSERT INTO ew_sub SELECT gen_random_uuid() FROM generate_series(1, 3000);
		PERFORM 1 / 0;
	EXCEPTION WHEN division_by_zero THEN
		NULL;
	END;
END
$$;
SELECT pg_current_wal_insert_lsn() AS s \gset
CREATE TEMP TABLE ew_sub_w AS SELECT * FROM explain_writes('SELECT pg_temp.fill_and_fail()');
SELECT pg_current_wal_insert_lsn() AS e \gset
SELECT count(*) AS rows_kept FROM ew_sub;
SELECT w.relation,
	   w.wal_records = coalesce(wi.records, w.wal_records) AS records_walinspect,
	   w.leaf_splits = coalesce(wi.splits, w.leaf_splits) AS splits_walinspect,
	   CASE WHEN w.relation = 'ew_sub'::regclass
			THEN w.blocks_added = pg_relation_size('ew_sub') / current_setting('block_size')::int
			ELSE w.leaf_splits = p.leaf_pages - 1 AND p.tree_level = 1
				 AND w.blocks_added = p.leaf_pages + p.internal_pages END AS pgstatindex_agrees
FROM ew_sub_w AS w CROSS JOIN LATERAL pg_temp.wi(:'s', :'e', w.relation) AS wi,
	 pgstatindex('ew_sub_idx') AS p
WHERE w.relation IN ('ew_sub'::regclass, 'ew_sub_idx'::regclass)
ORDER BY 1;
SELECT leaf_splits = (SELECT leaf_splits FROM ew_sub_w WHERE relation = 'ew_sub_idx'::regclass) AS total_splits
FROM ew_sub_w WHERE kind = 'total';

-- 6. Block 0 is a page like any other for full-page images: after a
-- checkpoint one insert writes one image of each page it changes (the hash
-- index's bucket page and metapage, GiST's root, B-tree's leaf, the heap
-- page), and the per-relation images add up to the total's.
CREATE TABLE ew_am (id int, p point) WITH (autovacuum_enabled = off);
CREATE INDEX ew_am_hash ON ew_am USING hash (id);
CREATE INDEX ew_am_gist ON ew_am USING gist (p);
CREATE INDEX ew_am_btree ON ew_am (id);
INSERT INTO ew_am VALUES (1, point(1, 1));
CHECKPOINT;
SELECT pg_current_wal_insert_lsn() AS s \gset
CREATE TEMP TABLE ew_am_w AS SELECT * FROM explain_writes('INSERT INTO ew_am VALUES (2, point(2, 2))');
SELECT pg_current_wal_insert_lsn() AS e \gset
SELECT w.relation, w.wal_fpi, w.wal_fpi = coalesce(wi.fpi, w.wal_fpi) AS walinspect_agrees
FROM ew_am_w AS w CROSS JOIN LATERAL pg_temp.wi(:'s', :'e', w.relation) AS wi
WHERE w.kind IN ('table', 'index')
ORDER BY w.relation::text COLLATE "C";
SELECT sum(wal_fpi) FILTER (WHERE kind <> 'total') = sum(wal_fpi) FILTER (WHERE kind = 'total')
	   AS images_add_up
FROM ew_am_w;

-- 7. Written in bulk: a relation file the statement creates (CREATE INDEX,
-- CLUSTER) started empty, so every block written to it is added, and its
-- row says "new file".
CREATE TABLE ew_bulk (id int, t text) WITH (autovacuum_enabled = off);
INSERT INTO ew_bulk SELECT g, md5(g::text) FROM generate_series(1, 5000) AS g;
SELECT relation, note,
	   blocks_added = pg_relation_size(relation) / current_setting('block_size')::int AS all_blocks
FROM explain_writes('CREATE INDEX ew_bulk_idx ON ew_bulk (t)')
WHERE kind IN ('table', 'index') ORDER BY 1;
SELECT relation, note,
	   blocks_added = pg_relation_size(relation) / current_setting('block_size')::int AS all_blocks
FROM explain_writes('CLUSTER ew_bulk USING ew_bulk_idx')
WHERE kind IN ('table', 'index') ORDER BY relation::text COLLATE "C";

-- 8. Relations that write no WAL still get a row, and a word saying so.
CREATE UNLOGGED TABLE ew_unlogged (id int PRIMARY KEY);
CREATE TEMP TABLE ew_temp (id int);
SELECT relation, kind, wal_records, blocks_added, note
FROM explain_writes('INSERT INTO ew_unlogged SELECT generate_series(1, 100)')
ORDER BY kind, relation::text COLLATE "C";
SELECT relation, kind, wal_records, blocks_added, note
FROM explain_writes('INSERT INTO ew_temp SELECT generate_series(1, 100)')
ORDER BY kind, relation::text COLLATE "C";
-- 9. Every replication slot taken (as when other sessions take the last
-- free ones at the same instant): explain_writes runs without a slot of
-- its own, it never fails because of them.
SELECT count(pg_create_physical_replication_slot('regress_ou_fill_' || g)) AS made_slots
FROM generate_series(1, current_setting('max_replication_slots')::int -
						(SELECT count(*) FROM pg_replication_slots)::int) AS g \gset
SELECT count(*) = current_setting('max_replication_slots')::int AS all_slots_taken FROM pg_replication_slots;
SELECT relation, wal_records
FROM explain_writes('INSERT INTO ew_sub SELECT gen_random_uuid() FROM generate_series(1, 10)')
WHERE relation = 'ew_sub'::regclass;
SELECT count(pg_drop_replication_slot(slot_name)) > 0 AS freed
FROM pg_replication_slots WHERE slot_name LIKE 'regress\_ou\_fill\_%';
DROP TABLE ew_sub, ew_am, ew_bulk, ew_unlogged, ew_temp;

-- A statement that writes more WAL than max_wal_size: checkpoints during it
-- would recycle its WAL before it is read, unless held (by a replication
-- slot of the backend's own, dropped afterwards).
ALTER SYSTEM SET max_wal_size = '32MB';
SELECT pg_reload_conf();
CREATE TABLE ew_big (id bigint PRIMARY KEY, pad text);
SELECT kind, wal_records >= 600000 AS all_rows_counted, wal_bytes > 64 * 1024 * 1024 AS more_than_max_wal_size
  FROM explain_writes($$INSERT INTO ew_big SELECT g, repeat('x', 100) FROM generate_series(1, 600000) g$$)
 WHERE kind IN ('table', 'index', 'total') ORDER BY kind COLLATE "C";
SELECT count(*) AS slots_left FROM pg_replication_slots WHERE slot_name LIKE 'ordered\_uuid\_%';
ALTER SYSTEM RESET max_wal_size;
SELECT pg_reload_conf();
DROP TABLE ew_big;

-- 10. The measured statement may create, use and drop replication slots of
-- its own, and fail: explain_writes' slot holds the WAL meanwhile (the
-- statement sees it in use by this backend), is dropped all the same, and
-- the next call gets one again.
CREATE TABLE ew_seen (slot_name name, ours bool);
SELECT count(*) > 0 AS measured
  FROM explain_writes($$INSERT INTO ew_seen
	SELECT s.slot_name, s.active_pid = pg_backend_pid()
	  FROM pg_create_physical_replication_slot('regress_ou_own', true) AS c, pg_replication_slots AS s$$);
SELECT count(*) AS held_by_explain_writes, bool_and(ours) AS in_use_by_this_backend
  FROM ew_seen WHERE slot_name LIKE 'ordered\_uuid\_explain\_writes\_%';
SELECT slot_name FROM pg_replication_slots ORDER BY slot_name;
SELECT count(*) > 0 AS advanced
  FROM explain_writes($$SELECT pg_replication_slot_advance('regress_ou_own', pg_current_wal_lsn())$$);
SELECT count(*) > 0 AS dropped_own
  FROM explain_writes($$SELECT pg_drop_replication_slot('regress_ou_own')$$);
SELECT * FROM explain_writes($$SELECT pg_create_physical_replication_slot('regress_ou_kept', true),
									  1 / (random() * 0)::int$$);
SELECT slot_name FROM pg_replication_slots ORDER BY slot_name;
SELECT pg_drop_replication_slot('regress_ou_kept');
-- A caught error (PL/pgSQL's EXCEPTION, a savepoint) drops it at once, with
-- the subtransaction, not at the next call or the session's end: no slot
-- holds WAL back once the error is caught, still inside the transaction.
CREATE TEMP TABLE ew_after (slots bigint, holding_wal bigint);
DO $$ BEGIN
	BEGIN
		PERFORM * FROM explain_writes('SELECT 1/0');
	EXCEPTION WHEN division_by_zero THEN NULL;
	END;
	INSERT INTO ew_after SELECT count(*), count(restart_lsn) FROM pg_replication_slots;
END $$;
SELECT slots AS in_the_transaction, holding_wal FROM ew_after;
SELECT count(*) AS left_after_caught_error FROM pg_replication_slots;
BEGIN;
SAVEPOINT s;
SELECT * FROM explain_writes('INSERT INTO ew_no_such_table VALUES (1)');
ROLLBACK TO SAVEPOINT s;
SELECT count(*) AS left_after_rollback_to_savepoint FROM pg_replication_slots;
COMMIT;
-- An error that the statement catches itself aborts a subtransaction of the
-- statement's: the slot stays and holds the WAL until the call ends.
CREATE FUNCTION pg_temp.catch_and_look() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	BEGIN
		PERFORM 1 / 0;
	EXCEPTION WHEN division_by_zero THEN NULL;
	END;
	INSERT INTO ew_seen SELECT slot_name, restart_lsn IS NOT NULL FROM pg_replication_slots;
END
$$;
DELETE FROM ew_seen;
SELECT count(*) > 0 AS measured FROM explain_writes('SELECT pg_temp.catch_and_look()');
SELECT slot_name LIKE 'ordered\_uuid\_explain\_writes\_%' AS ours, ours AS holding_wal FROM ew_seen;
SELECT count(*) AS left_after_statement_caught_its_error FROM pg_replication_slots;
SELECT count(*) > 0 AS measured_again FROM explain_writes($$INSERT INTO ew_seen VALUES ('x', true)$$);
SELECT count(*) AS slots_left FROM pg_replication_slots;
DROP TABLE ew_seen;
