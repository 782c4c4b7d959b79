-- scripts/demo.sql -- what the demo prints (run by scripts/demo.sh).
\pset footer off
SET client_min_messages = warning;
CREATE EXTENSION ordered_uuid;

-- prose is wrapped to 80 columns, tables stay within 100
CREATE FUNCTION pg_temp.wrap(t text) RETURNS text LANGUAGE sql AS
$$ SELECT rtrim(regexp_replace(t, '(.{1,79})( +|$)', E'\\1\n', 'g'), E'\n') $$;

\echo
\echo '== 1. The generators ========================================================='
\echo 'uuid_striped_nextval() is the default we recommend on one server.  Its key is'
\echo 'RFC 9562 version 8: the start of the current hour first, then a stripe of its'
\echo 'own for each session, then a slot that keeps the index pages full.  So keys of'
\echo 'one hour sort together, and concurrent sessions insert into different leaf pages.'
\echo
WITH k AS MATERIALIZED (SELECT n, uuid_striped_nextval() AS id FROM generate_series(1, 6) AS n)
SELECT n, id AS "uuid_striped_nextval()", uuid_time(id) AS "uuid_time(id)", uuid_version(id) AS version
FROM k ORDER BY n;
\echo 'uuid_v7_nextval() is RFC 9562 version 7: a millisecond timestamp first, strictly'
\echo 'increasing within a session.  gen_random_uuid() is version 4: random throughout.'
\echo
SELECT n, uuid_v7_nextval() AS "uuid_v7_nextval()", gen_random_uuid() AS "gen_random_uuid() (random)"
FROM generate_series(1, 6) AS n;
\echo 'uuid_sequence_nextval() and uuid_time_nextval() make the keys of the'
\echo 'sequential-uuids extension, for tables that continue them (doc/migrating.md).'

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
SELECT * FROM bench_insert(ARRAY['uuid_striped_nextval()', 'uuid_v7_nextval()', 'gen_random_uuid()'],
						   rows => :rows, prefill => :prefill, clients => :clients);
SELECT generator, round(rows_per_sec::numeric) AS "rows/s",
	   round(wal_bytes_per_row::numeric) AS "WAL B/row", round(fpi_per_row::numeric, 3) AS "FPI/row",
	   round(leaf_splits_per_1k::numeric, 1) AS "splits/1k", pg_size_pretty(index_bytes) AS "index",
	   round(avg_leaf_density::numeric, 1) AS "density %"
  FROM r;
\pset tuples_only on
\pset format unaligned
-- the reading, computed from the figures above and rounded as the table is
-- (numeric: half away from zero; float8's round() would round 146.5 to 146)
WITH x AS (SELECT * FROM r WHERE generator = 'gen_random_uuid()'),
	 s AS (SELECT * FROM r WHERE generator = 'uuid_striped_nextval()'),
	 v AS (SELECT * FROM r WHERE generator = 'uuid_v7_nextval()')
SELECT E'\n' || pg_temp.wrap('Reading: ' || format(
	'gen_random_uuid() puts each new key on a random leaf page: %s WAL bytes/row, leaves %s%% full '
	'after their splits. After the CHECKPOINT that precedes each measured run, the first change to '
	'a page is logged as a full-page image: random keys caused %s of them, uuid_striped_nextval() '
	'%s and uuid_v7_nextval() %s (on a large table with regular checkpoints these 8 kB images become '
	'most of the WAL). The two ordered keys insert where the last keys went: %s and %s WAL bytes/row '
	'(%sx and %sx random''s), leaves %s%% and %s%% full, %sx and %sx the random-UUID insert rate in '
	'this run. %s',
	round(x.wal_bytes_per_row::numeric), round(x.avg_leaf_density::numeric),
	round((x.fpi_per_row * x.rows)::numeric), round((s.fpi_per_row * s.rows)::numeric),
	round((v.fpi_per_row * v.rows)::numeric),
	round(s.wal_bytes_per_row::numeric), round(v.wal_bytes_per_row::numeric),
	round((s.wal_bytes_per_row / x.wal_bytes_per_row)::numeric, 2),
	round((v.wal_bytes_per_row / x.wal_bytes_per_row)::numeric, 2),
	round(s.avg_leaf_density::numeric), round(v.avg_leaf_density::numeric),
	round((s.rows_per_sec / x.rows_per_sec)::numeric, 1), round((v.rows_per_sec / x.rows_per_sec)::numeric, 1),
	-- one run on a shared machine varies by a third: compare the two ordered
	-- keys only as the repeated runs of doc/results.md do (level at 1-8
	-- clients on 2 cores)
	'Between the two ordered keys, one run says little: measured in repeated runs on 2 cores they '
	'are level at 1 to 8 clients (doc/results.md). The stripes pay off when many sessions insert at '
	'once: the sessions of uuid_v7_nextval() then queue for the one rightmost leaf page of the '
	'index, while each striped session has its own. At 16 clients on 16 cores the striped key '
	'inserted 2.0x and 2.7x as many rows a second as uuid_v7_nextval() (two runs). That is why it '
	'is the default; uuid_v7_nextval() is for the cases in the README''s table "Choosing a '
	'generator".'))
  FROM x, s, v;
