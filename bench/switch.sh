#!/usr/bin/env bash
# bench/switch.sh -- switching a table that already holds random keys to an ordered default
# (bench_switch, S1 of doc/scenarios.md): for each prefill size, one bench_switch call with
# REPEATS interleaved repetitions of every generator, each into a table of PREFILL
# gen_random_uuid() keys (switched) and into a fresh table with the same key. Prints a markdown
# table per point: the index pages the measured rows added (median, with the switched table's
# growth over the fresh one's and the range of the per-repetition ratios), the leaf density of the
# pages they added, WAL and full-page images per row, rows/s with its minimum and maximum; then the
# run line.
#
#   bench/switch.sh
#
# Knobs (environment):
#   PG_VERSION (18) or PG_CONFIG     PostgreSQL to fetch (14-18) or an installed one
#   PREFILLS ("1000000 5000000")     random keys in the switched table: with the default
#                                    shared_buffers (128MB) the first table and its index fit in
#                                    it, the second does not
#   ROWS (500000), ROWS_PER_XACT (1000), CLIENTS (1), REPEATS (5)
#   GENERATORS                       SQL text[] (default: bench_switch's: v7, striped, striped
#                                    with right_edge => false)
#   SHARED_BUFFERS (128MB)
#   QUICK                            1: PREFILLS "100000 300000", ROWS 50000, REPEATS 3, and
#                                    shared_buffers 16MB (checks the script in a few minutes; its
#                                    figures mean little)
#   NAME (switch-pgNN), OUT (bench/out), MACHINE_NOTE, BENCH_WORK, KEEP_WORK
# Output: OUT/NAME.csv (one line per run) and OUT/NAME.md (the tables). See doc/bench.md.
set -euo pipefail
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib.sh
. "$BENCH/../scripts/lib.sh"
# shellcheck source=bench/common.sh
. "$BENCH/common.sh"

if [ -n "${QUICK:-}" ]; then
	PREFILLS=${PREFILLS:-"100000 300000"} ROWS=${ROWS:-50000} REPEATS=${REPEATS:-3}
	SHARED_BUFFERS=${SHARED_BUFFERS:-16MB}
fi
PREFILLS=${PREFILLS:-"1000000 5000000"}
ROWS=${ROWS:-500000}
ROWS_PER_XACT=${ROWS_PER_XACT:-1000}
CLIENTS=${CLIENTS:-1}
REPEATS=${REPEATS:-5}
SHARED_BUFFERS=${SHARED_BUFFERS:-128MB}
GENERATORS=${GENERATORS:-}

ou_bench_pg
NAME=${NAME:-switch-pg$major}
OUT=${OUT:-$BENCH/out}
mkdir -p "$OUT"
CSV=$OUT/$NAME.csv
MD=$OUT/$NAME.md
ou_bench_work ou_switch
port=$((55000 + RANDOM % 900))
export PGOPTIONS='-c client_min_messages=warning'

args() { # args PREFILL
	echo "${GENERATORS:+generators => $GENERATORS, }prefill => $1, rows => $ROWS, clients => $CLIENTS, rows_per_xact => $ROWS_PER_XACT, repeats => $REPEATS"
}

ou_server_start "$pg_config" "$SRV" "$port" max_worker_processes=16 "shared_buffers=$SHARED_BUFFERS"
psql -qX -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION ordered_uuid'
{
	echo "# run: $(for k in PREFILLS ROWS ROWS_PER_XACT CLIENTS REPEATS SHARED_BUFFERS GENERATORS QUICK; do
		[ -z "${!k:-}" ] || printf '%s="%s" ' "$k" "${!k}"; done)bench/switch.sh"
	echo "# machine: $(ou_bench_machine)"
	echo "# server: PostgreSQL $(psql -qAtX -c 'SHOW server_version'), shared_buffers $(psql -qAtX -c 'SHOW shared_buffers'), otherwise default settings, max_worker_processes=16"
	echo "case,rep,order,generator,table,rows_per_sec,pages_added"
} >"$CSV"
: >"$MD"

for p in $PREFILLS; do
	ou_log "prefill $p: bench_switch($(args "$p"))"
	tmp=$(mktemp)
	{
		echo
		echo "**$p random keys, then $ROWS rows, $CLIENTS client(s)** (\`bench_switch($(args "$p"))\`)"
		echo
		psql -qAtX -v ON_ERROR_STOP=1 -P pager=off \
			-c "CREATE TEMP TABLE ou_result AS SELECT * FROM bench_switch($(args "$p"))" \
			-c "SELECT '| key | table | index pages added | × fresh (per repetition) | leaf density of the added pages | WAL bytes a row | full-page images a row | rows/s (min–max) |'
			    UNION ALL SELECT '|---|---|---:|---:|---:|---:|---:|---:|'" \
			-c "SELECT format('| \`%s\` | %s | %s | %s | %s %% | %s | %s | %s (%s–%s) |', generator,
			           CASE WHEN prefill > 0 THEN 'switched' ELSE 'fresh' END,
			           to_char(pages_added, 'FM999,999,999'),
			           CASE WHEN prefill > 0 THEN format('%s× (%s–%s)', to_char(pages_vs_fresh, 'FM990.00'),
			                                             to_char(pages_vs_fresh_min, 'FM990.00'),
			                                             to_char(pages_vs_fresh_max, 'FM990.00')) ELSE '' END,
			           to_char(added_leaf_density, 'FM990.0'), to_char(wal_bytes_per_row, 'FM9990.0'),
			           to_char(fpi_per_row, 'FM0.0000'), to_char(round(rows_per_sec), 'FM999,999,999'),
			           to_char(round(rows_per_sec_min), 'FM999,999,999'), to_char(round(rows_per_sec_max), 'FM999,999,999'))
			      FROM ou_result" \
			-c "\\copy (SELECT '$p random keys' AS case, r.rep, o.run_order[r.rep], o.generator,
			                   CASE WHEN o.prefill > 0 THEN 'switched' ELSE 'fresh' END, r.rows_per_sec,
			                   o.pages_added_runs[r.rep]
			              FROM ou_result o, unnest(o.rows_per_sec_runs) WITH ORDINALITY r(rows_per_sec, rep)
			             ORDER BY o.run_order[r.rep]) TO '$tmp' CSV"
	} | tee -a "$MD"
	cat "$tmp" >>"$CSV"
	rm -f "$tmp"
done
{
	echo
	grep '^# ' "$CSV" | sed 's/^# /- /'
} | tee -a "$MD"
ou_log "wrote $CSV and $MD"
