--
-- index_splits(): exact split counts from the WAL, checked against
-- independent counts: pgstatindex's page counts on indexes that never
-- deleted a page (leaf_pages = 1 + leaf splits, internal_pages = upper + root
-- splits, tree_level = root splits) and pg_walinspect's SPLIT_L/SPLIT_R
-- records for the same range (PG15: pg_get_wal_records_info, PG16+:
-- pg_get_wal_block_info; PG14 has no pg_walinspect and checks pgstatindex).
--
\set VERBOSITY sqlstate
CREATE EXTENSION IF NOT EXISTS pgstattuple;
DO $$
BEGIN
	IF current_setting('server_version_num')::int >= 150000 THEN
		CREATE EXTENSION IF NOT EXISTS pg_walinspect;
	END IF;
END
$$;

-- Fresh tables, autovacuum off: no page is ever deleted or recycled.
CREATE TABLE diag_rand (id uuid) WITH (autovacuum_enabled = off);
CREATE INDEX diag_rand_idx ON diag_rand (id);
CREATE TABLE diag_mono (id uuid) WITH (autovacuum_enabled = off);
CREATE INDEX diag_mono_idx ON diag_mono (id);
-- Wide keys: a deep tree (several root splits, upper-level splits).
CREATE TABLE diag_wide (k text) WITH (autovacuum_enabled = off);
CREATE INDEX diag_wide_idx ON diag_wide (k);

SELECT pg_current_wal_insert_lsn() AS s \gset
INSERT INTO diag_rand SELECT gen_random_uuid() FROM generate_series(1, 30000);
INSERT INTO diag_mono SELECT uuid_v7_nextval() FROM generate_series(1, 30000);
INSERT INTO diag_wide
SELECT repeat(md5(g::text), 8) FROM generate_series(1, 6000) AS g;
SELECT pg_current_wal_insert_lsn() AS e \gset

-- The identity, per index.
SELECT p.relname AS index,
	   s.leaf_splits = st.leaf_pages - 1 AS leaf_ok,
	   s.upper_splits + s.root_splits = st.internal_pages AS internal_ok,
	   s.root_splits = st.tree_level AS level_ok,
	   s.relfilenode = pg_relation_filenode(s.index) AS relfilenode_ok
FROM index_splits(:'s', :'e') AS s
JOIN pg_class AS p ON p.oid = s.index
CROSS JOIN LATERAL pgstatindex(s.index::text) AS st
WHERE p.relname LIKE 'diag\_%'
ORDER BY 1;

-- The wide index really has upper splits and grew more than once; random
-- keys split more than monotonic ones (pages left ~70% vs ~90% full).
SELECT w.upper_splits > 0 AS wide_upper, w.root_splits >= 2 AS wide_grew_twice,
	   r.leaf_splits > m.leaf_splits * 1.15 AS random_splits_more
FROM index_splits(:'s', :'e') AS w, index_splits(:'s', :'e') AS r, index_splits(:'s', :'e') AS m
WHERE w.index = 'diag_wide_idx'::regclass AND r.index = 'diag_rand_idx'::regclass
  AND m.index = 'diag_mono_idx'::regclass;

-- pg_walinspect's count of split records (block 0 = the split page) for the
-- same range equals leaf + upper splits.
CREATE FUNCTION pg_temp.walinspect_splits(s pg_lsn, e pg_lsn, idx regclass) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	v int := current_setting('server_version_num')::int;
	n bigint;
BEGIN
	IF v >= 160000 THEN
		EXECUTE $q$SELECT count(*) FROM pg_get_wal_block_info($1, $2)
				   WHERE block_id = 0 AND relfilenode = pg_relation_filenode($3)
					 AND record_type IN ('SPLIT_L', 'SPLIT_R')$q$
			INTO n USING s, e, idx;
	ELSIF v >= 150000 THEN
		EXECUTE $q$SELECT count(*) FROM pg_get_wal_records_info($1, $2)
				   WHERE resource_manager = 'Btree' AND record_type IN ('SPLIT_L', 'SPLIT_R')
					 AND block_ref LIKE format('blkref #0: rel %s/%s/%s %%',
						   (SELECT dattablespace FROM pg_database WHERE datname = current_database()),
						   (SELECT oid FROM pg_database WHERE datname = current_database()),
						   pg_relation_filenode($3))$q$
			INTO n USING s, e, idx;
	ELSE
		-- PG14: no pg_walinspect; pgstatindex's pages made by splits.
		SELECT leaf_pages - 1 + internal_pages - tree_level INTO n FROM pgstatindex(idx::text);
	END IF;
	RETURN n;
END
$$;
SELECT s.index, pg_temp.walinspect_splits(:'s', :'e', s.index) = s.leaf_splits + s.upper_splits AS walinspect_agrees
FROM index_splits(:'s', :'e') AS s
WHERE s.index::text LIKE 'diag\_%'
ORDER BY 1;

-- A sub-range: nothing split between e and now in our indexes; end_lsn NULL
-- means "up to the flush position".
SELECT count(*) AS splits_after_e FROM index_splits(:'e') WHERE index::text LIKE 'diag\_%';
SELECT count(*) = 3 AS three_indexes FROM index_splits(:'s') WHERE index::text LIKE 'diag\_%';
-- Empty range.
SELECT count(*) AS empty_range FROM index_splits(:'s', :'s');

-- A relfilenode that no longer maps (TRUNCATE gives the index a new one):
-- the row stays, index NULL, relfilenode set.
SELECT pg_relation_filenode('diag_wide_idx') AS old_filenode \gset
TRUNCATE diag_wide;
SELECT index IS NULL AS unmapped, leaf_splits > 0 AS counted
FROM index_splits(:'s', :'e') WHERE relfilenode = :old_filenode;

-- Bad ranges.
SELECT * FROM index_splits(:'e', :'s');
SELECT * FROM index_splits('FFFFFFFF/0');
SELECT * FROM index_splits(NULL);
-- WAL that is not there any more (segment 0 never exists after initdb).
SELECT * FROM index_splits('0/10');

-- Privileges: GRANT decides.  By default EXECUTE is revoked from PUBLIC and
-- granted to pg_read_server_files; an explicit GRANT EXECUTE lets a role in
-- (pg_walinspect's and pgstattuple's way: no C check overrides it).
CREATE ROLE regress_diag_plain;
CREATE ROLE regress_diag_reader IN ROLE pg_read_server_files;
SELECT sum(leaf_splits) AS leaf_splits_seen FROM index_splits(:'s', :'e') \gset
SET ROLE regress_diag_plain;
SELECT * FROM index_splits(:'s', :'e');
SELECT * FROM explain_writes('SELECT 1');
-- with the hint of the roles that hold EXECUTE (execute_privilege_support)
\set VERBOSITY default
SELECT * FROM explain_writes('SELECT 1');
\set VERBOSITY sqlstate
RESET ROLE;
GRANT EXECUTE ON FUNCTION index_splits(pg_lsn, pg_lsn) TO regress_diag_plain;
GRANT EXECUTE ON FUNCTION explain_writes(text) TO regress_diag_plain;
SET ROLE regress_diag_plain;
SELECT sum(leaf_splits) = :leaf_splits_seen AS granted_can_count FROM index_splits(:'s', :'e');
SELECT rows FROM explain_writes('SELECT 1') WHERE kind = 'total';
RESET ROLE;
SET ROLE regress_diag_reader;
SELECT count(*) > 0 AS reader_can FROM index_splits(:'s', :'e');
SELECT rows FROM explain_writes('SELECT 1') WHERE kind = 'total';
RESET ROLE;
-- explain_writes holds the statement's WAL with a replication slot only for
-- a caller that may create one (superuser or REPLICATION, as core checks);
-- the statement below records whether the slot existed while it ran.
CREATE TABLE diag_slot_seen (who text, slots bigint);
GRANT INSERT ON diag_slot_seen TO regress_diag_plain, regress_diag_reader;
SELECT kind FROM explain_writes($$INSERT INTO diag_slot_seen SELECT 'superuser', count(*) FROM pg_replication_slots
								 WHERE slot_name = 'ordered_uuid_explain_writes_' || pg_backend_pid()$$)
 WHERE kind = 'total';
SET ROLE regress_diag_reader;
SELECT kind FROM explain_writes($$INSERT INTO diag_slot_seen SELECT 'reader', count(*) FROM pg_replication_slots
								 WHERE slot_name = 'ordered_uuid_explain_writes_' || pg_backend_pid()$$)
 WHERE kind = 'total';
RESET ROLE;
ALTER ROLE regress_diag_reader REPLICATION;
SET ROLE regress_diag_reader;
SELECT kind FROM explain_writes($$INSERT INTO diag_slot_seen SELECT 'reader with REPLICATION', count(*) FROM pg_replication_slots
								 WHERE slot_name = 'ordered_uuid_explain_writes_' || pg_backend_pid()$$)
 WHERE kind = 'total';
RESET ROLE;
SELECT * FROM diag_slot_seen ORDER BY who;
SELECT count(*) AS slots_left FROM pg_replication_slots WHERE slot_name LIKE 'ordered\_uuid\_explain\_writes\_%';
DROP TABLE diag_slot_seen;
REVOKE EXECUTE ON FUNCTION index_splits(pg_lsn, pg_lsn) FROM regress_diag_plain;
REVOKE EXECUTE ON FUNCTION explain_writes(text) FROM regress_diag_plain;
DROP ROLE regress_diag_plain;
DROP ROLE regress_diag_reader;
DROP TABLE diag_rand, diag_mono, diag_wide;

-- start_lsn may be any position up to the WAL inserted so far (the WAL not
-- yet flushed is flushed first), and a position before the oldest WAL on
-- disk is an error that says where the WAL starts.
SELECT count(*) AS splits_since_now FROM index_splits(pg_current_wal_insert_lsn());
CREATE FUNCTION pg_temp.splits_error(start pg_lsn) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	d text;
BEGIN
	PERFORM * FROM index_splits(start);
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL;
	RETURN SQLSTATE || ': ' || SQLERRM || ' / ' || regexp_replace(d, '[0-9A-F]+/[0-9A-F]+', 'X/X', 'g');
END $$;
SELECT pg_temp.splits_error('0/0');
SELECT pg_current_wal_insert_lsn() + 1000000 AS future \gset
SELECT count(*) FROM index_splits(:'future');

-- A start inside the zeroed pages that follow a WAL switch record (they
-- have no page header): the records after it, as a reader starting at the
-- next segment finds them, and as many leaf splits as pgstatindex counts.
CREATE TABLE diag_switch (id int PRIMARY KEY);
SELECT pg_switch_wal() AS sw, setting::bigint AS segsize FROM pg_settings WHERE name = 'wal_segment_size' \gset
SELECT :'sw'::pg_lsn - file_offset + :segsize AS next_segment FROM pg_walfile_name_offset(:'sw') \gset
SELECT count(*) AS splits_in_padding FROM index_splits(:'sw'::pg_lsn + 8192);
INSERT INTO diag_switch SELECT generate_series(1, 5000);
SELECT pg_current_wal_insert_lsn() AS switch_end \gset
SELECT start, s.leaf_splits = st.leaf_pages - 1 AS leaf_exact, s.root_splits = st.tree_level AS root_exact
FROM (VALUES ('switch point', :'sw'::pg_lsn), ('a page after it', :'sw'::pg_lsn + 8192),
			 ('the padding''s last byte', :'next_segment'::pg_lsn - 1), ('the next segment', :'next_segment'::pg_lsn)) AS v(start, lsn)
CROSS JOIN LATERAL index_splits(v.lsn, :'switch_end') AS s
CROSS JOIN pgstatindex('diag_switch_pkey') AS st
WHERE s.index = 'diag_switch_pkey'::regclass;
DROP TABLE diag_switch;
