--
-- The collector's WAL per relation (relation_wal_stats, relation_wal_info),
-- on a server with the library preloaded and autovacuum off
-- (sql/collector_walrel.conf).  Every figure is checked against an
-- independent count of the same WAL: pg_walinspect's block references
-- (sql/include/walrel_blocks.sql; PG14 has none: there the rows must add up
-- to the totals, and scripts/test-lifecycle.sh compares with pg_waldump).
--
SET timezone = 'UTC';
\set ON_ERROR_STOP on
CREATE EXTENSION dblink;
\set ON_ERROR_STOP off
\i sql/include/collector_helpers.sql
\i sql/include/walrel_blocks.sql
\i sql/include/walrel_parts.sql

-- pg_walinspect's figures per relation file and fork over what the copy
-- covers: records with a block of it, bytes of the records whose first
-- block is of it, images and their bytes.
CREATE FUNCTION pg_temp.independent()
RETURNS TABLE (spc oid, db oid, rel oid, fork text, records bigint, wal_bytes bigint,
			   fpis bigint, fpi_bytes bigint) LANGUAGE sql AS $$
	WITH b AS (SELECT * FROM pg_temp.wal_blocks((SELECT wal_start FROM snap_info),
												(SELECT wal_reached FROM snap_info))),
	first AS (SELECT start_lsn, min(block_id) AS block_id FROM b GROUP BY start_lsn)
	SELECT b.spc, b.db, b.rel, b.fork, count(DISTINCT b.start_lsn),
		   coalesce(sum(b.record_length) FILTER (WHERE f.start_lsn IS NOT NULL), 0)::bigint,
		   count(b.fpi_length), coalesce(sum(b.fpi_length), 0)::bigint
	  FROM b LEFT JOIN first f ON f.start_lsn = b.start_lsn AND f.block_id = b.block_id
	 GROUP BY 1, 2, 3, 4
$$;

-- the comparison: relation files the view has, the collector's and
-- pg_walinspect's figures equal; those it pruned (dropped in the WAL), their
-- sums equal the pruned totals; on PG14 (no rows) true
CREATE FUNCTION pg_temp.compare(OUT live_equal bool, OUT pruned_equal bool, OUT none_extra bool)
LANGUAGE sql AS $$
	WITH i AS (SELECT * FROM pg_temp.independent() x),
	j AS (SELECT i.*, s.records AS s_records, s.wal_bytes AS s_bytes, s.fpis AS s_fpis,
				 s.fpi_bytes AS s_fpi_bytes, s.relfilenode IS NOT NULL AS live
			FROM i LEFT JOIN snap s ON (s.tablespace, s.datid, s.relfilenode, s.fork) = (i.spc, i.db, i.rel, i.fork))
	SELECT coalesce(bool_and((records, wal_bytes, fpis, fpi_bytes) = (s_records, s_bytes, s_fpis, s_fpi_bytes))
						FILTER (WHERE live), true),
		   (SELECT (coalesce(sum(d.records), 0)::bigint, coalesce(sum(d.wal_bytes), 0)::bigint,
					coalesce(sum(d.fpis), 0)::bigint, coalesce(sum(d.fpi_bytes), 0)::bigint)
				   = (n.pruned_records, n.pruned_bytes, n.pruned_fpis, n.pruned_fpi_bytes)
			  FROM snap_info n LEFT JOIN j d ON NOT d.live
			 GROUP BY n.pruned_records, n.pruned_bytes, n.pruned_fpis, n.pruned_fpi_bytes)
		   OR current_setting('server_version_num')::int < 150000,
		   current_setting('server_version_num')::int < 150000 OR
		   NOT EXISTS (SELECT FROM snap s WHERE NOT EXISTS
						(SELECT FROM i WHERE (s.tablespace, s.datid, s.relfilenode, s.fork) = (i.spc, i.db, i.rel, i.fork)))
	  FROM j
$$;

SELECT ordered_uuid_reset();
SELECT pg_current_wal_flush_lsn() AS lsn0 \gset
SELECT pg_temp.wait_wal(:'lsn0') AS caught_up;

--
-- 1. Random keys under checkpoints (S1): after a checkpoint, the first
-- change of every leaf page writes its image; a TOAST table, a sequence,
-- TRUNCATE, VACUUM FULL and churn of short-lived tables on the way.
--
CREATE SEQUENCE walrel_seq;
CREATE TABLE walrel_t (id uuid PRIMARY KEY, n bigint DEFAULT nextval('walrel_seq'), doc text);
ALTER TABLE walrel_t ALTER doc SET STORAGE EXTERNAL;
INSERT INTO walrel_t (id, doc) SELECT gen_random_uuid(), repeat('d', 3000) FROM generate_series(1, 3000);
CHECKPOINT;
INSERT INTO walrel_t (id) SELECT gen_random_uuid() FROM generate_series(1, 3000);
UPDATE walrel_t SET doc = 'u' WHERE n % 7 = 0;
DO $$
BEGIN
	FOR i IN 1..20 LOOP
		EXECUTE format('CREATE TABLE walrel_churn_%s (id int PRIMARY KEY)', i);
		EXECUTE format('INSERT INTO walrel_churn_%s SELECT generate_series(1, 100)', i);
		EXECUTE format('DROP TABLE walrel_churn_%s', i);
	END LOOP;
END $$;
CREATE TABLE walrel_tr (id int PRIMARY KEY);
INSERT INTO walrel_tr SELECT generate_series(1, 5000);
TRUNCATE walrel_tr;
INSERT INTO walrel_tr SELECT generate_series(1, 500);
VACUUM FULL walrel_t;
VACUUM walrel_t;
CHECKPOINT;
INSERT INTO walrel_t (id) SELECT gen_random_uuid() FROM generate_series(1, 3000);
SELECT pg_current_wal_flush_lsn() AS lsn1 \gset
SELECT pg_temp.wait_wal(:'lsn1') AS caught_up;
SELECT pg_temp.snapshot() AS consistent_copy;

SELECT * FROM pg_temp.compare();
-- the rows, the records without blocks and the pruned counts add up to the
-- WAL read (nothing evicted here: the rows are whole, as compare() says)
SELECT * FROM pg_temp.parts();
-- the dropped and rewritten relation files were pruned, not kept
SELECT pruned_records > 0 AS pruned, entries = (SELECT count(*) FROM snap) AS entries_counted,
	   evicted, dropped_records, evicted_records, evicted_bytes
  FROM snap_info;
SELECT count(*) AS rows_of_dead_files FROM snap
 WHERE datid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND relation IS NULL;

-- named: the table, its index, its TOAST table, the sequence, by fork (the
-- main and visibility map forks: the free space map's WAL differs by version)
SELECT * FROM (
	SELECT CASE WHEN relation = (SELECT reltoastrelid FROM pg_class WHERE oid = 'walrel_t'::regclass)::regclass
				THEN 'toast of walrel_t' ELSE relation::text END AS relation,
		   fork, records > 0 AS written, fpis > 0 AS images,
		   (fpis > 0) = (last_fpi IS NOT NULL) AS last_fpi_set
	  FROM snap
	 WHERE fork IN ('main', 'vm') AND relation IN ('walrel_t'::regclass, 'walrel_t_pkey'::regclass, 'walrel_seq'::regclass,
						'walrel_tr'::regclass, 'walrel_tr_pkey'::regclass,
						(SELECT reltoastrelid FROM pg_class WHERE oid = 'walrel_t'::regclass)::regclass)) r
 ORDER BY relation COLLATE "C", fork COLLATE "C";
-- S1 itself: after a checkpoint, random keys make the index write an image
-- of nearly every leaf page it has, the table's appends only a few (its new
-- pages need none)
SELECT ordered_uuid_reset();
CHECKPOINT;
INSERT INTO walrel_t (id) SELECT gen_random_uuid() FROM generate_series(1, 3000);
SELECT pg_current_wal_flush_lsn() AS lsn2 \gset
SELECT pg_temp.wait_wal(:'lsn2') AS caught_up;
SELECT pg_temp.snapshot() AS consistent_copy;
SELECT i.fpis > 5 * greatest(t.fpis, 1) AS index_writes_the_images,
	   i.fpi_bytes > i.wal_bytes / 2 AS images_are_most_of_its_wal
  FROM snap i, snap t
 WHERE i.relation = 'walrel_t_pkey'::regclass AND i.fork = 'main'
   AND t.relation = 'walrel_t'::regclass AND t.fork = 'main';
SELECT * FROM pg_temp.compare();
SELECT * FROM pg_temp.parts();

--
-- 2. Visibility: the rows of a database the caller may not connect to are
-- hidden, as in index_split_stats.
--
CREATE DATABASE regress_walrel_other;
REVOKE CONNECT ON DATABASE regress_walrel_other FROM PUBLIC;
CREATE ROLE regress_walrel_user;
SELECT dblink_exec('dbname=regress_walrel_other host=' || current_setting('unix_socket_directories') ||
				   ' port=' || current_setting('port'),
				   'CREATE TABLE w (id int PRIMARY KEY); INSERT INTO w SELECT generate_series(1, 1000)');
SELECT pg_current_wal_flush_lsn() AS lsn3 \gset
SELECT pg_temp.wait_wal(:'lsn3') AS caught_up;
SELECT count(*) > 0 AS superuser_sees_other FROM relation_wal_stats WHERE database = 'regress_walrel_other';
SET ROLE regress_walrel_user;
SELECT count(*) AS user_sees_other FROM relation_wal_stats WHERE database = 'regress_walrel_other';
SELECT count(*) > 0 AS user_sees_own FROM relation_wal_stats WHERE relation = 'walrel_t'::regclass;
SELECT ordered_uuid_reset();
RESET ROLE;

--
-- 3. DROP DATABASE prunes its rows; reset empties the view and the totals.
--
DROP DATABASE regress_walrel_other;
SELECT pg_current_wal_flush_lsn() AS lsn4 \gset
SELECT pg_temp.wait_wal(:'lsn4') AS caught_up;
SELECT count(*) AS rows_of_dropped_database FROM relation_wal_stats
 WHERE datid NOT IN (SELECT oid FROM pg_database) AND datid <> 0;
SELECT ordered_uuid_reset();
SELECT count(*) = 0 AS empty_after_reset FROM relation_wal_stats WHERE relation = 'walrel_t'::regclass;
SELECT records < 1000 AS totals_restarted FROM relation_wal_info();

DROP ROLE regress_walrel_user;
DROP TABLE walrel_t, walrel_tr;
DROP SEQUENCE walrel_seq;
