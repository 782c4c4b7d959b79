--
-- bench_locality (S4 of doc/scenarios.md): structure and invariants with
-- tiny sizes, never timings.  Independent checks: heap_locality() and row
-- counts of the kept tables, the catalog (index columns, leftovers).
--
\i sql/include/bench_helpers.sql
-- progress NOTICEs come every 5 s of a busy machine: not part of the output
SET client_min_messages = warning;

-- 100 groups of 20 rows of 200 bytes (40 to a heap block), every group read,
-- the tables kept.
CREATE TEMP TABLE loc AS
SELECT * FROM bench_locality(groups => 100, rows_per_group => 20, row_bytes => 200, clients => 2,
							 sample_groups => 100, keep => true);
SELECT variant, scan, rows_per_group, groups_read > 0 AND groups_read % 100 = 0 AS whole_passes,
	   index_blocks_per_group >= 1 AS index_read, groups_per_sec > 0 AS rate,
	   (insert_rows_per_sec > 0) IS NOT FALSE AND (insert_rows_per_sec IS NULL) = (variant <> 'interleaved') AS insert_rate,
	   (fix_seconds > 0) IS NOT FALSE AND (fix_seconds IS NULL) = (variant = 'interleaved') AS fix_timed,
	   table_bytes > 0 AND index_bytes > 0 AS sized,
	   kept_table ~ '^ordered_uuid_kept_[0-9a-f]{16}\.(interleaved|clustered|covering)$' AS kept_named
  FROM loc ORDER BY variant;
-- the heap blocks each read fetched agree with heap_locality() on the same
-- table, and so does the amplification (within 10 %); the interleaved rows
-- are scattered, the clustered ones together
SELECT l.variant, h.keys, h.rows, h.rows_per_key,
	   l.ideal_blocks_per_group = h.ideal_blocks_per_key AS same_ideal,
	   abs(l.heap_blocks_per_group - h.blocks_per_key) <= 0.1 * h.blocks_per_key AS same_blocks,
	   abs(l.amplification - h.amplification) <= 0.1 * h.amplification AS same_amplification,
	   h.amplification > 5 AS scattered, h.amplification < 2 AS together
  FROM loc l, heap_locality(l.kept_table::regclass, 'grp') h
 WHERE l.scan = 'Bitmap Heap Scan'
 ORDER BY l.variant;
-- CLUSTER brings each group into one or two blocks; the covering index's
-- reads fetch no heap block holding rows (what they count is the
-- visibility map page, one per read), although its heap is as scattered as
-- the interleaved table's
SELECT (SELECT heap_blocks_per_group FROM loc WHERE variant = 'clustered') * 5 <
	   (SELECT heap_blocks_per_group FROM loc WHERE variant = 'interleaved') AS cluster_reads_fewer_blocks,
	   l.heap_blocks_per_group <= 1 AS covering_reads_no_heap_block,
	   h.amplification > 5 AS covering_heap_scattered,
	   l.ideal_blocks_per_group = h.ideal_blocks_per_key AS same_ideal
  FROM loc l, heap_locality(l.kept_table::regclass, 'grp') h
 WHERE l.variant = 'covering index';
-- what the variants hold: every row of every group, each row_bytes long; an
-- index on (grp, seq), INCLUDE (payload) for the covering one
DO $$
DECLARE
	k record;
	r record;
BEGIN
	FOR k IN SELECT * FROM loc ORDER BY variant LOOP
		EXECUTE format('SELECT count(*) AS n, count(DISTINCT grp) AS g, min(pg_column_size(t.*)) AS minsz,
							   max(pg_column_size(t.*)) AS maxsz, count(DISTINCT seq) AS seqs FROM %s t', k.kept_table) INTO r;
		RAISE WARNING '%: % rows, % groups, % distinct arrivals, row size % .. % bytes', k.variant, r.n, r.g, r.seqs, r.minsz, r.maxsz;
	END LOOP;
END $$;
SELECT c.relname, c.relkind, i.indnkeyatts, i.indnatts,
	   pg_get_indexdef(i.indexrelid) ~ '\(grp, seq\)' AS on_grp_seq
  FROM loc l JOIN pg_class c ON c.oid = l.kept_table::regclass
  JOIN pg_index i ON i.indrelid = c.oid ORDER BY c.relname;
-- the covering variant's pages are all-visible (VACUUM), the others' need not be
SELECT l.variant, c.relallvisible = c.relpages AS all_visible
  FROM loc l JOIN pg_class c ON c.oid = l.kept_table::regclass WHERE l.variant = 'covering index';
DO $$ BEGIN EXECUTE format('DROP SCHEMA %s CASCADE', (SELECT DISTINCT split_part(kept_table, '.', 1) FROM loc)); END $$;
DROP TABLE loc;
SELECT * FROM bench_leftovers;

-- keep => false leaves nothing; sample_groups above groups reads every group
SELECT variant, rows_per_group, groups_read % 10 = 0 AS whole_passes, kept_table IS NULL AS dropped
  FROM bench_locality(groups => 10, rows_per_group => 5, clients => 1, sample_groups => 1000)
 ORDER BY variant;
SELECT * FROM bench_leftovers;

-- Cancel stops the workers and drops the tables.
SET statement_timeout = '1s';
SELECT * FROM bench_locality(groups => 1000000, rows_per_group => 1000);
RESET statement_timeout;
SELECT * FROM bench_leftovers;

-- Argument checks.
SELECT pg_temp.err('SELECT bench_locality(groups => 0)');
SELECT pg_temp.err('SELECT bench_locality(rows_per_group => 0)');
SELECT pg_temp.err('SELECT bench_locality(row_bytes => 47)');
SELECT pg_temp.err('SELECT bench_locality(row_bytes => 2001)');
SELECT pg_temp.err('SELECT bench_locality(clients => 0)');
SELECT pg_temp.err('SELECT bench_locality(sample_groups => 0)');
SELECT pg_temp.err('SELECT bench_locality(groups => NULL)');
SELECT pg_temp.err('SELECT bench_locality(rows_per_group => NULL)');
SELECT pg_temp.err('SELECT bench_locality(row_bytes => NULL)');
SELECT pg_temp.err('SELECT bench_locality(clients => NULL)');
SELECT pg_temp.err('SELECT bench_locality(sample_groups => NULL)');
SELECT pg_temp.err('SELECT bench_locality(keep => NULL)');
SELECT pg_temp.err(format('SELECT bench_locality(clients => %s)',
						  current_setting('max_worker_processes')::int + 1));
SELECT * FROM bench_leftovers;

-- A role without CREATE on the database gets permission denied; with it,
-- but with track_counts off (its own setting, which its workers use), the
-- reads cannot be counted: an error, not a figure of 0.
CREATE ROLE regress_locality_carol LOGIN;
GRANT EXECUTE ON FUNCTION bench_locality(int, int, int, int, int, bool) TO regress_locality_carol;
SET ROLE regress_locality_carol;
SELECT pg_temp.err('SELECT bench_locality(10, 5)');
RESET ROLE;
DO $$ BEGIN EXECUTE format('GRANT CREATE ON DATABASE %I TO regress_locality_carol', current_database()); END $$;
ALTER ROLE regress_locality_carol SET track_counts = off;
SET ROLE regress_locality_carol;
SELECT pg_temp.err('SELECT bench_locality(10, 5)');
RESET ROLE;
SELECT * FROM bench_leftovers;
DO $$ BEGIN EXECUTE format('REVOKE CREATE ON DATABASE %I FROM regress_locality_carol', current_database()); END $$;
REVOKE EXECUTE ON FUNCTION bench_locality(int, int, int, int, int, bool) FROM regress_locality_carol;
DROP ROLE regress_locality_carol;
RESET client_min_messages;
DROP VIEW bench_leftovers;
