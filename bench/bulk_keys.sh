#!/usr/bin/env bash
# bench/bulk_keys.sh -- a bulk load in one session: `INSERT INTO t SELECT <key> FROM
# generate_series(1, ROWS)` into an UNLOGGED table whose primary key each generator makes, one
# statement per run, REPEATS interleaved repetitions (repetition 1 of every generator in the order
# given, repetition 2 in the reverse order, ...), each into a fresh table after a CHECKPOINT.
# Prints a markdown table: each generator's median rows/s with its minimum and maximum and the
# runs, and the ratio of the striped key's median to each other's with the range of the per-pair
# ratios; then the run line.  A session that makes keys faster than the clock allows (striped keys
# are held to the clock once they are 1 s ahead of it) shows here.
#
#   bench/bulk_keys.sh
#
# Knobs (environment):
#   PG_VERSION (18) or PG_CONFIG    PostgreSQL to fetch (14-18) or an installed one
#   ROWS (10000000)                 rows per statement
#   REPEATS (5)                     repetitions of each generator
#   GENERATORS ("striped v7 random bigint", and uuidv7 on 18)   names from the table below
#   INDEX (1)                       0: no primary key (an unindexed unlogged table)
#   SHARED_BUFFERS (1GB)
#   QUICK                           1: ROWS 200000, REPEATS 3 (checks the script in a minute)
#   NAME (bulk-keys-pgNN), OUT (bench/out), MACHINE_NOTE, BENCH_WORK, KEEP_WORK
# Output: OUT/NAME.csv (one line per run) and OUT/NAME.md.  See doc/pgbench.md.
set -euo pipefail
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib.sh
. "$BENCH/../scripts/lib.sh"
# shellcheck source=bench/common.sh
. "$BENCH/common.sh"

if [ -n "${QUICK:-}" ]; then
	ROWS=${ROWS:-200000} REPEATS=${REPEATS:-3}
fi
ROWS=${ROWS:-10000000}
REPEATS=${REPEATS:-5}
INDEX=${INDEX:-1}
SHARED_BUFFERS=${SHARED_BUFFERS:-1GB}

# name -> "column type|key expression"
declare -A GEN=(
	[striped]="uuid|uuid_striped_nextval()"
	[v7]="uuid|uuid_v7_nextval()"
	[uuidv7]="uuid|uuidv7()"
	[random]="uuid|gen_random_uuid()"
	[time]="uuid|uuid_time_nextval()"
	[sequence]="uuid|uuid_sequence_nextval('bk_seq')"
	[bigint]="bigint|nextval('bk_seq')"
)

ou_bench_pg
GENERATORS=${GENERATORS:-"striped v7 $([ "$major" -lt 18 ] || echo uuidv7) random bigint"}
read -r -a gens <<<"$GENERATORS"
GENERATORS="${gens[*]}"
for g in "${gens[@]}"; do [ -n "${GEN[$g]:-}" ] || ou_die "unknown generator '$g' (known: ${!GEN[*]})"; done
NAME=${NAME:-bulk-keys-pg$major}
OUT=${OUT:-$BENCH/out}
mkdir -p "$OUT"
CSV=$OUT/$NAME.csv
ou_bench_work ou_bulk_keys
port=$((55000 + RANDOM % 900))
export PGOPTIONS='-c client_min_messages=warning'
ou_server_start "$pg_config" "$SRV" "$port" "shared_buffers=$SHARED_BUFFERS" max_wal_size=8GB \
	checkpoint_timeout=30min autovacuum=off
q() { psql -qAtX -v ON_ERROR_STOP=1 -c "$1"; }
q 'CREATE EXTENSION ordered_uuid'

{
	echo "# run: ROWS=$ROWS REPEATS=$REPEATS INDEX=$INDEX SHARED_BUFFERS=$SHARED_BUFFERS GENERATORS=\"$GENERATORS\"${QUICK:+ QUICK=1} bench/bulk_keys.sh"
	echo "# server: PostgreSQL $(q 'SHOW server_version'), shared_buffers=$SHARED_BUFFERS max_wal_size=8GB checkpoint_timeout=30min autovacuum=off"
	echo "# machine: $(ou_bench_machine)"
	echo "case,rep,position,generator,rows,seconds,rows_per_sec"
} >"$CSV"

# one GEN REP POS: a fresh unlogged table keyed by GEN, a CHECKPOINT, the timed INSERT ... SELECT
one() {
	local g=$1 type=${GEN[$1]%%|*} expr=${GEN[$1]#*|} secs
	q "DROP TABLE IF EXISTS bk_t; DROP SEQUENCE IF EXISTS bk_seq; CREATE SEQUENCE bk_seq"
	q "CREATE UNLOGGED TABLE bk_t (id $type$([ "$INDEX" = 1 ] && echo ' PRIMARY KEY'))"
	q 'CHECKPOINT'
	# the statement's own time, measured by the server around it in one session
	secs=$(psql -qAtX -v ON_ERROR_STOP=1 \
		-c "SELECT set_config('ou.t0', clock_timestamp()::text, false)" \
		-c "INSERT INTO bk_t (id) SELECT $expr FROM generate_series(1, $ROWS)" \
		-c "SELECT extract(epoch FROM clock_timestamp() - current_setting('ou.t0')::timestamptz)" | tail -n 1)
	[ "$(q 'SELECT count(*) FROM bk_t')" = "$ROWS" ] || ou_die "$g: the table does not hold $ROWS rows"
	echo "\"bulk load: $ROWS rows, one session, unlogged$([ "$INDEX" = 1 ] || echo ', no index')\",$2,$3,$g,$ROWS,$secs,$(awk -v r="$ROWS" -v s="$secs" 'BEGIN { printf "%.1f", r / s }')" >>"$CSV"
	ou_log "repetition $2, $g: $secs s"
}

n=${#gens[@]}
order=0
for rep in $(seq "$REPEATS"); do
	for pos in $(seq 0 $((n - 1))); do
		# odd repetitions in the order given, even ones reversed (as bench_insert(repeats => N))
		if [ $((rep % 2)) = 1 ]; then g=${gens[$pos]}; else g=${gens[$((n - 1 - pos))]}; fi
		order=$((order + 1))
		one "$g" "$rep" "$order"
	done
done
q 'DROP TABLE bk_t'
"$BENCH/spread.py" markdown "$CSV" | tee "$OUT/$NAME.md"
ou_log "wrote $CSV and $OUT/$NAME.md"
