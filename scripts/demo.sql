-- scripts/demo.sql -- what the demo prints (run by scripts/demo.sh).
\pset footer off
SET client_min_messages = warning;
CREATE EXTENSION ordered_uuid;
CREATE SEQUENCE demo_seq;

-- prose is wrapped to 80 columns, tables stay within 100
CREATE FUNCTION pg_temp.wrap(t text) RETURNS text LANGUAGE sql AS
$$ SELECT rtrim(regexp_replace(t, '(.{1,79})( +|$)', E'\\1\n', 'g'), E'\n') $$;

\echo
\echo '== 1. The generators ========================================================='
\echo 'Block-prefixed UUIDs (sequential-uuids layout): the first bytes are a block id,'
\echo 'the rest is random.  uuid_sequence_nextval takes the block from a sequence (here'
\echo '4 values per block), uuid_time_nextval from the clock (one block per minute by'
\echo 'default).  uuid_v7_nextval is RFC 9562 version 7: a millisecond timestamp first,'
\echo 'strictly increasing within a session.  Consecutive values sort together, so a'
\echo 'B-tree on them is appended to at one place instead of being written all over.'
\echo
SELECT n,
	   uuid_sequence_nextval('demo_seq', 4, 65536) AS "uuid_sequence_nextval(seq, 4)",
	   uuid_time_nextval() AS "uuid_time_nextval()"
FROM generate_series(1, 8) AS n;
SELECT n,
	   uuid_v7_nextval() AS "uuid_v7_nextval()",
	   gen_random_uuid() AS "gen_random_uuid() (random)"
FROM generate_series(1, 8) AS n;

SELECT uuid_v7_time(uuid_v7_nextval()) AS "uuid_v7_time(uuid_v7_nextval())",
	   uuid_block_id(uuid_sequence_nextval('demo_seq', 4, 65536)) AS "uuid_block_id(next value)";

\echo
\echo '== 2. Random vs ordered primary keys, side by side (bench_insert) ============='
\echo 'One call of bench_insert() (scenario S1 of doc/scenarios.md): for each generator'
\echo 'a fresh table with it as the primary-key default, prefilled, then measured'
\echo 'inserts committed in batches by background workers, after a CHECKPOINT so that'
\echo 'full-page images are comparable.'
\echo
\pset tuples_only on
\pset format unaligned
SELECT pg_temp.wrap(format('Setup: PostgreSQL %s, shared_buffers %s, %s measured rows per generator, '
						   '%s clients, tables prefilled with %s rows.',
						   current_setting('server_version'), current_setting('shared_buffers'),
						   :rows, :clients, :prefill));
\pset tuples_only off
\pset format aligned
\echo
CREATE TEMP TABLE r AS
SELECT * FROM bench_insert(rows => :rows, prefill => :prefill, clients => :clients);
SELECT regexp_replace(generator, '\(.*\)$', '') AS generator, round(rows_per_sec::numeric) AS "rows/s",
	   round(wal_bytes_per_row::numeric) AS "WAL B/row", round(fpi_per_row::numeric, 3) AS "FPI/row",
	   round(leaf_splits_per_1k::numeric, 1) AS "splits/1k", pg_size_pretty(index_bytes) AS "index",
	   round(avg_leaf_density::numeric, 1) AS "density %"
  FROM r;
\pset tuples_only on
\pset format unaligned
-- the reading, computed from the figures above and rounded as the table is
-- (numeric: half away from zero; float8's round() would round 146.5 to 146)
WITH b AS (SELECT * FROM r WHERE generator = 'bigint'),
	 x AS (SELECT * FROM r WHERE generator = 'gen_random_uuid()'),
	 v AS (SELECT * FROM r WHERE generator = 'uuid_v7_nextval()'),
	 s AS (SELECT * FROM r WHERE generator = 'uuid_sequence_nextval($seq)'),
	 t AS (SELECT * FROM r WHERE generator = 'uuid_time_nextval()')
SELECT E'\n' || pg_temp.wrap('Reading: ' || format(
	'gen_random_uuid() puts each new key on a random leaf page: %s rows/s, %s WAL bytes/row, leaves '
	'%s%% full after their splits. After the CHECKPOINT that precedes each measured run, the first '
	'change to a page is logged as a full-page image: random keys caused %s of them, '
	'uuid_v7_nextval() %s (on a large table with regular checkpoints these 8 kB images '
	'become most of the WAL). uuid_v7_nextval() appends at the right edge like the bigint sequence: '
	'%s WAL bytes/row (%sx bigint), %sx the random-UUID insert rate, leaves %s%% full. '
	'The block-prefixed generators write %s (uuid_sequence_nextval) and %s (uuid_time_nextval) WAL '
	'bytes/row, %sx and %sx random; their new rows go to the current block only, but are random inside '
	'it, so their leaves are about %s%% full (uuid_sequence_nextval(seq, 16) fills them to ~90%%, see '
	'doc/bench.md).%s The bigint key has the smallest index (%s against %s for random UUIDs).',
	round(x.rows_per_sec::numeric), round(x.wal_bytes_per_row::numeric), round(x.avg_leaf_density::numeric),
	round((x.fpi_per_row * x.rows)::numeric), round((v.fpi_per_row * v.rows)::numeric),
	round(v.wal_bytes_per_row::numeric), round((v.wal_bytes_per_row / b.wal_bytes_per_row)::numeric, 2),
	round((v.rows_per_sec / x.rows_per_sec)::numeric, 1), round(v.avg_leaf_density::numeric),
	round(s.wal_bytes_per_row::numeric), round(t.wal_bytes_per_row::numeric),
	round((s.wal_bytes_per_row / x.wal_bytes_per_row)::numeric, 2),
	round((t.wal_bytes_per_row / x.wal_bytes_per_row)::numeric, 2),
	round((s.avg_leaf_density + t.avg_leaf_density)::numeric / 2),
	CASE WHEN t.wal_bytes_per_row > 0.8 * x.wal_bytes_per_row THEN
		' This run was shorter than uuid_time_nextval()''s 60-second interval, so its prefill and its '
		'inserts shared one block, inside which keys are as random as gen_random_uuid()''s: it pays off '
		'only over many intervals.' ELSE '' END,
	pg_size_pretty(b.index_bytes), pg_size_pretty(x.index_bytes)))
  FROM b, x, v, s, t;
