#!/usr/bin/env bash
# scripts/demo.sh -- `make demo`: build ordered_uuid, start a throwaway
# PostgreSQL (default 18; DEMO_PG=14..18 to choose), and compare primary-key
# generators with one call of bench_insert (scenario S1): a prefilled table
# per generator, then measured single-row inserts committed in batches.
# Prints the comparison table and a reading of it.  About a minute on 2 cores.
#
#   DEMO_ROWS     measured inserts per generator        (default 100000)
#   DEMO_PREFILL  rows already in each table            (default 300000)
#   DEMO_CLIENTS  concurrent inserting workers          (default 2)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$OU_ROOT"

ou_base_deps
pg_config=$(ou_fetch_pg "${DEMO_PG:-$OU_DEFAULT_VERSION}")
export LD_LIBRARY_PATH PATH
LD_LIBRARY_PATH=$(ou_libpath "$pg_config")
PATH=$("$pg_config" --bindir):$PATH

ou_log "build and install into $("$pg_config" --version)"
make -s PG_CONFIG="$pg_config" >/dev/null
ou_sudo make -s install PG_CONFIG="$pg_config" >/dev/null

dir=$(mktemp -d /tmp/ordered_uuid_demo.XXXXXX)
chmod 755 "$dir"
trap 'ou_server_stop "$pg_config" "$dir"; rm -rf "$dir"' EXIT
# a small buffer cache, so that a random key's index outgrows it quickly
ou_server_start "$pg_config" "$dir" $((55800 + RANDOM % 100)) shared_buffers=16MB max_wal_size=4GB

ou_log "bench_insert: ${DEMO_ROWS:-100000} rows per generator into tables of ${DEMO_PREFILL:-300000} rows, ${DEMO_CLIENTS:-2} clients"
psql -qX -v ON_ERROR_STOP=1 \
	-v rows="${DEMO_ROWS:-100000}" -v prefill="${DEMO_PREFILL:-300000}" -v clients="${DEMO_CLIENTS:-2}" <<'SQL'
CREATE EXTENSION ordered_uuid;
\pset footer off
\echo
SELECT format('PostgreSQL %s, shared_buffers %s, %s measured rows per generator, %s clients, tables prefilled with %s rows',
			  current_setting('server_version'), current_setting('shared_buffers'), :rows, :clients, :prefill) AS "setup";
CREATE TEMP TABLE r AS
SELECT * FROM bench_insert(rows => :rows, prefill => :prefill, clients => :clients);
SELECT generator, round(rows_per_sec) AS "rows/s", round(wal_bytes_per_row::numeric) AS "WAL B/row",
	   round(fpi_per_row::numeric, 3) AS "FPI/row", round(leaf_splits_per_1k::numeric, 1) AS "leaf splits/1k",
	   pg_size_pretty(index_bytes) AS "index", round(avg_leaf_density::numeric, 1) AS "leaf density %",
	   round(blks_written_per_row::numeric, 3) AS "blks written/row"
  FROM r;
\pset tuples_only on
\pset format unaligned
-- the reading, computed from the figures above
WITH b AS (SELECT * FROM r WHERE generator = 'bigint'),
	 x AS (SELECT * FROM r WHERE generator = 'gen_random_uuid()'),
	 v AS (SELECT * FROM r WHERE generator = 'uuid_v7_nextval()'),
	 s AS (SELECT * FROM r WHERE generator = 'uuid_sequence_nextval($seq)'),
	 t AS (SELECT * FROM r WHERE generator = 'uuid_time_nextval()')
SELECT E'\nReading: ' || format(
	'gen_random_uuid() puts each new key on a random leaf page: %s rows/s, %s WAL bytes/row, leaves '
	'%s%% full after their splits. After the CHECKPOINT that precedes each measured run, the first '
	'change to a page is logged as a full-page image: random keys caused %s of them, '
	'uuid_v7_nextval() %s (on a large table with regular checkpoints these 8 kB images '
	'become most of the WAL). uuid_v7_nextval() appends at the right edge like the bigint sequence: '
	'%s WAL bytes/row (%sx bigint), %sx the random-UUID insert rate, leaves %s%% full. '
	'The block-prefixed generators write %s (uuid_sequence_nextval) and %s (uuid_time_nextval) WAL '
	'bytes/row, %sx and %sx random; their new rows go to the current block only, but are random inside '
	'it, so their leaves are about %s%% full (a smaller block_size or interval_length helps, see '
	'doc/bench.md).%s The bigint key has the smallest index (%s against %s for random UUIDs).',
	round(x.rows_per_sec), round(x.wal_bytes_per_row), round(x.avg_leaf_density),
	round(x.fpi_per_row * x.rows), round(v.fpi_per_row * v.rows),
	round(v.wal_bytes_per_row), round((v.wal_bytes_per_row / b.wal_bytes_per_row)::numeric, 2),
	round((v.rows_per_sec / x.rows_per_sec)::numeric, 1), round(v.avg_leaf_density),
	round(s.wal_bytes_per_row), round(t.wal_bytes_per_row),
	round((s.wal_bytes_per_row / x.wal_bytes_per_row)::numeric, 2),
	round((t.wal_bytes_per_row / x.wal_bytes_per_row)::numeric, 2),
	round((s.avg_leaf_density + t.avg_leaf_density)::numeric / 2),
	CASE WHEN t.wal_bytes_per_row > 0.8 * x.wal_bytes_per_row THEN
		' This run was shorter than uuid_time_nextval()''s 60-second interval, so its prefill and its '
		'inserts shared one block, inside which keys are as random as gen_random_uuid()''s: it pays off '
		'only over many intervals.' ELSE '' END,
	pg_size_pretty(b.index_bytes), pg_size_pretty(x.index_bytes))
  FROM b, x, v, s, t;
SQL
