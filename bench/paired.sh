#!/usr/bin/env bash
# bench/paired.sh -- the lone session and two clients, side by side: uuid_striped_nextval()
# against uuid_v7_nextval() and gen_random_uuid() (bench_insert, S1 of doc/scenarios.md), each
# point one bench_insert call with REPEATS interleaved repetitions, in fresh tables and in the
# steady state of a PREFILL-row table on a server capped at CAP of memory
# (bench/memcap_bench_insert.sh).  Prints a markdown table per point: each generator's median
# rows/s with its minimum and maximum and the runs, and the ratio of the striped key's median to
# each other generator's with the range of the per-pair ratios (repetition i against repetition
# i), then the run line.
#
#   bench/paired.sh [fresh|steady|all]      (default: all)
#
# Knobs (environment):
#   PG_VERSION (18) or PG_CONFIG    PostgreSQL to fetch (14-18) or an installed one
#   CLIENTS ("1 2")                 bench_insert clients of the points
#   REPEATS (5)                     repetitions of each generator per point
#   ROWS (1000000), ROWS_PER_XACT (100)   measured rows per run, rows per transaction
#   GENERATORS                      SQL text[] (default: striped, v7, random)
#   PREFILL (10000000), CAP (384M)  the steady state (needs root and cgroup v1, else skipped)
#   PRELOAD                         1: shared_preload_libraries = ordered_uuid for the fresh tables
#   QUICK                           1: ROWS 20000, PREFILL 200000, REPEATS 3 (checks the script
#                                   in a few minutes; its figures mean little)
#   NAME (paired-pgNN), OUT (bench/out), MACHINE_NOTE, BENCH_WORK, KEEP_WORK
# Output: OUT/NAME.csv (one line per run) and OUT/NAME.md (the tables).  See doc/pgbench.md.
set -euo pipefail
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib.sh
. "$BENCH/../scripts/lib.sh"
# shellcheck source=bench/common.sh
. "$BENCH/common.sh"

MODE=${1:-all}
case $MODE in fresh | steady | all) ;; *) ou_die "usage: bench/paired.sh [fresh|steady|all]" ;; esac

if [ -n "${QUICK:-}" ]; then
	ROWS=${ROWS:-20000} PREFILL=${PREFILL:-200000} REPEATS=${REPEATS:-3}
fi
CLIENTS=${CLIENTS:-"1 2"}
REPEATS=${REPEATS:-5}
ROWS=${ROWS:-1000000}
ROWS_PER_XACT=${ROWS_PER_XACT:-100}
PREFILL=${PREFILL:-10000000}
CAP=${CAP:-384M}
GENERATORS=${GENERATORS:-"ARRAY['uuid_striped_nextval()', 'uuid_v7_nextval()', 'gen_random_uuid()']"}

ou_bench_pg
NAME=${NAME:-paired-pg$major}
OUT=${OUT:-$BENCH/out}
mkdir -p "$OUT"
CSV=$OUT/$NAME.csv
ou_bench_work ou_paired
port=$((55000 + RANDOM % 900))
export PGOPTIONS='-c client_min_messages=warning'

args() { # args CLIENTS [PREFILL]
	echo "generators => $GENERATORS, rows => $ROWS, clients => $1, rows_per_xact => $ROWS_PER_XACT${2:+, prefill => $2}, repeats => $REPEATS"
}

{
	echo "# run: $(for k in CLIENTS REPEATS ROWS ROWS_PER_XACT PREFILL CAP PRELOAD QUICK; do
		[ -z "${!k:-}" ] || printf '%s="%s" ' "$k" "${!k}"; done)bench/paired.sh $MODE"
	echo "# machine: $(ou_bench_machine)"
} >"$CSV"

run_fresh() {
	local c
	ou_server_start "$pg_config" "$SRV" "$port" max_worker_processes=16 \
		${PRELOAD:+shared_preload_libraries=ordered_uuid}
	psql -qX -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION ordered_uuid'
	echo "# server: PostgreSQL $(psql -qAtX -c 'SHOW server_version'), fresh tables: default settings, max_worker_processes=16${PRELOAD:+, library preloaded}" >>"$CSV"
	for c in $CLIENTS; do
		ou_log "fresh tables, $c client(s): bench_insert($(args "$c"))"
		ou_bench_insert_spread "fresh tables, $c client(s)" "$(args "$c")" "$CSV" | tee "$OUT/$NAME-fresh-$c.txt"
	done
	ou_server_stop "$pg_config" "$SRV"
}

run_steady() {
	local c
	if [ "$(id -u)" != 0 ] || [ ! -d /sys/fs/cgroup/memory ]; then
		ou_log "steady state skipped: bench/memcap_bench_insert.sh needs root and the cgroup v1 memory controller"
		return
	fi
	for c in $CLIENTS; do
		ou_log "steady state, $c client(s): CAP=$CAP PREFILL=$PREFILL bench/memcap_bench_insert.sh"
		PG_CONFIG=$pg_config CAP=$CAP ROWS=$ROWS PREFILL=$PREFILL CLIENTS=$c REPEATS=$REPEATS \
			ROWS_PER_XACT=$ROWS_PER_XACT GENERATORS=$GENERATORS WAL_SETTINGS=default \
			DIR=$WORK/memcap PORT=$port OUT=$WORK/memcap-out \
			CASE="steady state: $PREFILL-row tables, $CAP of memory, $c client(s)" \
			"$BENCH/memcap_bench_insert.sh" >"$OUT/$NAME-steady-$c.log" 2>&1 ||
			{ tail -n 30 "$OUT/$NAME-steady-$c.log" >&2; ou_die "memcap_bench_insert.sh failed"; }
		cat "$WORK/memcap-out/result.txt" | tee "$OUT/$NAME-steady-$c.txt"
		# its run line (the bench_insert call, the server), then its runs
		grep '^# run: ' "$WORK/memcap-out/runs.csv" >>"$CSV"
		grep -v '^#' "$WORK/memcap-out/runs.csv" | { if grep -q '^case,' "$CSV"; then tail -n +2; else cat; fi; } >>"$CSV"
	done
}

case $MODE in
fresh) run_fresh ;;
steady) run_steady ;;
all)
	run_fresh
	run_steady
	;;
esac
"$BENCH/spread.py" markdown "$CSV" | tee "$OUT/$NAME.md"
ou_log "wrote $CSV and $OUT/$NAME.md"
