#!/usr/bin/env bash
# bench/locality.sh -- scenario S4: one bench_locality() call per PostgreSQL version, checked
# against heap_locality() on the tables it kept, then bench/locality_keys.sql (can an ordered key
# keep a group together?).
#
#   bench/locality.sh
#
# For each version: a fresh server with default settings (shared_buffers 128MB), one call of
# bench_locality(NGROUPS, ROWS_PER_GROUP, ROW_BYTES, CLIENTS, SAMPLE, keep => true), then
# heap_locality(kept table, 'grp') of each variant's table, whose amplification the call's must
# match within 10 % (a line says whether it does), then the kept schema is dropped.
#
# Knobs (environment): VERSIONS ("14 15 16 17 18"), NGROUPS (1000), ROWS_PER_GROUP (2000),
# ROW_BYTES (120), CLIENTS (2), SAMPLE (100), KEYS (1: also run bench/locality_keys.sql, with its
# own defaults of 1000 groups of 500 rows, on the last version; 0: not), OUT (bench/out),
# BENCH_WORK, KEEP_WORK, MACHINE_NOTE.  Writes OUT/locality.txt.
set -euo pipefail
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib.sh
. "$BENCH/../scripts/lib.sh"
# shellcheck source=bench/common.sh
. "$BENCH/common.sh"

VERSIONS=${VERSIONS:-$OU_ALL_VERSIONS}
NGROUPS=${NGROUPS:-1000}
ROWS_PER_GROUP=${ROWS_PER_GROUP:-2000}
ROW_BYTES=${ROW_BYTES:-120}
CLIENTS=${CLIENTS:-2}
SAMPLE=${SAMPLE:-100}
KEYS=${KEYS:-1}
OUT=${OUT:-$BENCH/out}
TXT=$OUT/locality.txt
mkdir -p "$OUT"

ou_base_deps
pg_config=
ou_bench_work ou_locality
export PGOPTIONS='-c client_min_messages=warning'

{
	echo "# ordered_uuid bench/locality.sh, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "# machine: $(ou_bench_machine)"
	echo "# bench_locality(groups => $NGROUPS, rows_per_group => $ROWS_PER_GROUP, row_bytes => $ROW_BYTES," \
		"clients => $CLIENTS, sample_groups => $SAMPLE, keep => true); default server settings"
} >"$TXT"

for v in $VERSIONS; do
	PG_CONFIG= PG_VERSION=$v ou_bench_pg
	ou_server_stop "$pg_config" "$SRV"
	rm -rf "$SRV"
	ou_server_start "$pg_config" "$SRV" $((55000 + RANDOM % 900))
	psql -qX -d postgres -c 'CREATE DATABASE ou_locality'
	export PGDATABASE=ou_locality
	psql -qX -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION ordered_uuid'
	psql -X -v ON_ERROR_STOP=1 <<SQL | tee -a "$TXT"
\\pset footer off
\\echo == PostgreSQL $("$pg_config" --version | sed 's/^PostgreSQL //')
CREATE TEMP TABLE r AS
SELECT * FROM bench_locality($NGROUPS, $ROWS_PER_GROUP, $ROW_BYTES, $CLIENTS, $SAMPLE, keep => true);
SELECT variant, scan, groups_read AS reads, rows_per_group AS rows, heap_blocks_per_group AS heap_blocks,
       index_blocks_per_group AS index_blocks, ideal_blocks_per_group AS ideal, amplification,
       round(groups_per_sec) AS "groups/s", round(insert_rows_per_sec) AS "insert rows/s",
       fix_seconds AS fix_s, pg_size_pretty(table_bytes) AS "table", pg_size_pretty(index_bytes) AS index
  FROM r;
SELECT r.variant, h.blocks_per_key AS heap_locality_blocks, h.amplification AS heap_locality_amplification,
       CASE WHEN r.scan <> 'Bitmap Heap Scan' THEN 'index-only: heap not read'
            WHEN abs(r.amplification - h.amplification) <= 0.1 * h.amplification THEN 'yes'
            ELSE 'NO' END AS within_10_percent
  FROM r, heap_locality(r.kept_table::regclass, 'grp') h;
DO \$\$ BEGIN EXECUTE format('DROP SCHEMA %s CASCADE', (SELECT DISTINCT split_part(kept_table, '.', 1) FROM r)); END \$\$;
SQL
	[ "$KEYS" = 1 ] && [ "$v" = "${VERSIONS##* }" ] && {
		echo "== bench/locality_keys.sql, PostgreSQL $v" | tee -a "$TXT"
		psql -X -f "$BENCH/locality_keys.sql" | tee -a "$TXT"
	}
	ou_server_stop "$pg_config" "$SRV"
done
ou_log "wrote $TXT"
