#!/usr/bin/env bash
# bench/scenarios_inside.sh -- scenarios S2, S3 and S4 of doc/scenarios.md through the in-database
# benchmarks, each call repeated, the repetitions interleaved.
#
#   bench/scenarios_inside.sh
#
# On one throwaway server (shared_buffers 128MB, max_worker_processes 16, otherwise PostgreSQL's
# defaults), REPEATS rounds; round 1 calls, in this order, bench_bulk_load() (S2),
# bench_multi_table() logged and unlogged (S3) and bench_locality() (S4), round 2 the reverse, and
# so on, so that load from elsewhere on the machine hits every scenario's runs alike.  A warm-up
# bench_bulk_load() call runs first and is not recorded (the first writes of a fresh cluster also
# create its WAL segments).
#
# Output, one line per run, for bench/spread.py (the column `generator` names the variant):
#   OUT/NAME-s2s3.csv  case, rep, generator, rows_per_sec, seconds, wal_bytes_per_row, top_wait_events
#   OUT/NAME-s4.csv    case, rep, generator (the variant: interleaved, clustered, covering index),
#                      groups_per_sec, heap_blocks_per_group, amplification, insert_rows_per_sec
# e.g. bench/spread.py markdown OUT/NAME-s4.csv interleaved groups_per_sec: the table as written against
# each fix, per round.
#
# Knobs (environment): PG_VERSION (18) or PG_CONFIG, REPEATS (3), S2_CLIENTS (8), S2_ROWS (200000
# per client), S3_ROWS (50000), S4_GROUPS (1000), S4_ROWS_PER_GROUP (2000), SETTINGS (more server
# settings, e.g. "io_method=sync"), NAME (scenarios-pgNN), OUT (bench/out), MACHINE_NOTE,
# BENCH_WORK, KEEP_WORK.
set -euo pipefail
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib.sh
. "$BENCH/../scripts/lib.sh"
# shellcheck source=bench/common.sh
. "$BENCH/common.sh"

REPEATS=${REPEATS:-3}
S2_CLIENTS=${S2_CLIENTS:-8}
S2_ROWS=${S2_ROWS:-200000}
S3_ROWS=${S3_ROWS:-50000}
S4_GROUPS=${S4_GROUPS:-1000}
S4_ROWS_PER_GROUP=${S4_ROWS_PER_GROUP:-2000}
SETTINGS=${SETTINGS:-}
OUT=${OUT:-$BENCH/out}
mkdir -p "$OUT"

pg_config=
ou_bench_pg
NAME=${NAME:-scenarios-pg$major}
ou_bench_work ou_scenarios
# shellcheck disable=SC2086 # SETTINGS is a list of settings
ou_server_start "$pg_config" "$SRV" $((55000 + RANDOM % 900)) shared_buffers=128MB max_worker_processes=16 $SETTINGS
export PGOPTIONS='-c client_min_messages=warning'
psql -qX -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION ordered_uuid'

S23=$OUT/$NAME-s2s3.csv S4=$OUT/$NAME-s4.csv
header() { # CSV COLUMNS: the comment lines bench/spread.py prints, then the column names
	{
		echo "# run: ${SETTINGS:+SETTINGS=\"$SETTINGS\" }REPEATS=$REPEATS S2_CLIENTS=$S2_CLIENTS S2_ROWS=$S2_ROWS S3_ROWS=$S3_ROWS S4_GROUPS=$S4_GROUPS S4_ROWS_PER_GROUP=$S4_ROWS_PER_GROUP bench/scenarios_inside.sh"
		echo "# server: $("$pg_config" --version), shared_buffers=128MB max_worker_processes=16${SETTINGS:+ $SETTINGS}, otherwise defaults"
		echo "# machine: $(ou_bench_machine)"
		echo "$2"
	} >"$1"
}
header "$S23" "case,rep,generator,rows_per_sec,seconds,wal_bytes_per_row,top_wait_events"
header "$S4" "case,rep,generator,groups_per_sec,heap_blocks_per_group,amplification,insert_rows_per_sec"

csv() { psql -qAtX -v ON_ERROR_STOP=1 -c "COPY ($1) TO STDOUT CSV"; }

s2() { # REP
	csv "SELECT 'S2: bench_bulk_load($S2_CLIENTS clients x $S2_ROWS rows)', $1, 'bulk_load',
	            round(rows_per_sec::numeric), seconds, NULL, top_wait_events
	       FROM bench_bulk_load(clients => $S2_CLIENTS, rows_per_client => $S2_ROWS)"
}
s3() { # REP UNLOGGED
	csv "SELECT 'S3: bench_multi_table(rows => $S3_ROWS)', $1, CASE WHEN $2 THEN 'unlogged' ELSE 'logged' END,
	            round(rows_per_sec::numeric), seconds, wal_bytes_per_row, top_wait_events
	       FROM bench_multi_table(rows => $S3_ROWS, unlogged => $2)"
}
s4() { # REP
	csv "SELECT 'S4: bench_locality($S4_GROUPS groups x $S4_ROWS_PER_GROUP rows)', $1,
	            variant,
	            round(groups_per_sec::numeric, 1), heap_blocks_per_group, amplification,
	            round(insert_rows_per_sec::numeric)
	       FROM bench_locality(groups => $S4_GROUPS, rows_per_group => $S4_ROWS_PER_GROUP)"
}

ou_log "warm-up: bench_bulk_load()"
s2 0 >/dev/null
for rep in $(seq "$REPEATS"); do
	for s in $(in_order "$rep" s2 s3_logged s3_unlogged s4); do
		ou_log "round $rep: $s"
		case $s in
		s2) s2 "$rep" >>"$S23" ;;
		s3_logged) s3 "$rep" false >>"$S23" ;;
		s3_unlogged) s3 "$rep" true >>"$S23" ;;
		s4) s4 "$rep" >>"$S4" ;;
		esac
	done
done
ou_log "wrote $S23 and $S4"
