#!/usr/bin/env bash
# bench/scaling.sh -- insert throughput against the number of clients, for every key generator.
#
#   bench/scaling.sh [memory|disk|inside|all]      (default: all = memory, then disk, then inside)
#
#   memory  every point on a freshly created empty table, shared_buffers large enough for everything,
#           no checkpoint during a point: the right-edge contention of monotonic keys in isolation.
#   disk    the steady state of a table larger than shared_buffers: each table is prefilled with
#           PREFILL rows, then the points run on it (it keeps growing), each right after a
#           CHECKPOINT, with timed checkpoints every CHECKPOINT_TIMEOUT_DISK: rows/s, WAL bytes and
#           full-page images per row.
#   inside  the same generators through bench_insert(clients => N, rows_per_xact => 1) inside the
#           server (dynamic background workers instead of pgbench clients).
#
# One point = pgbench -n -M prepared -c N -j min(N, cores) -T DURATION running the single-row
# `INSERT INTO t (payload) VALUES (1)`, the key coming from the column default.  fsync and
# synchronous_commit are off (commit flushes would otherwise hide the index), autovacuum is off.
# Every point runs REPEATS times, the repetitions interleaved: at each client count, repetition 1
# of every generator in the order given, repetition 2 in the reverse order, and so on, so that load
# from elsewhere on the machine hits all of them alike.
# Output: OUT/NAME.csv (one line per run, its repetition in the column rep), OUT/NAME-summary.csv
# (per variant, generator and client count: the median tps with its minimum, maximum and runs),
# NAME.png/.svg (the medians against clients, the bars spanning minimum to maximum, drawn by
# bench/plot.py) and OUT/NAME-inside.csv (bench_insert(repeats => REPEATS): medians, minimum,
# maximum and runs).  Built to be run as is on a 16-core machine; on fewer cores pass fewer clients.
#
# Knobs (environment):
#   PG_VERSION (18) or PG_CONFIG    PostgreSQL to fetch (14-18) or an installed one
#   CLIENTS ("1 2 4 8 16 32 48 64") pgbench clients of the points (ascending: a striped key's lone
#                                   session is at the right edge only if no session with a higher
#                                   PGPROC number made striped keys before it in the same hour)
#   INSIDE_CLIENTS (= CLIENTS)      bench_insert clients (each one a background worker)
#   DURATION (10)                   seconds per run
#   REPEATS (3)                     runs of each point, interleaved
#   GENERATORS                      names from the table below, or name=expression
#                                   (default: all of them; uuidv7 only on PostgreSQL 18).  noindex
#                                   is the ceiling: the striped key's table without its primary key
#                                   (pgbench only: bench_insert always builds the index)
#   SHARED_BUFFERS_MEMORY           default: a quarter of RAM, at most 8GB
#   SHARED_BUFFERS_DISK (128MB), PREFILL (10000000), CHECKPOINT_TIMEOUT_DISK (30s),
#   MAX_WAL_SIZE_DISK (1GB)         the larger-than-memory variant
#   INSIDE_ROWS (1000000)           bench_insert(rows => ...)
#   NAME (scaling-pgNN), OUT (bench/out), MACHINE_NOTE, BENCH_WORK, KEEP_WORK, NO_PLOT
# See doc/pgbench.md.
set -euo pipefail
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib.sh
. "$BENCH/../scripts/lib.sh"
# shellcheck source=bench/common.sh
. "$BENCH/common.sh"

MODE=${1:-all}
case $MODE in memory | disk | inside | all) ;; *) ou_die "usage: bench/scaling.sh [memory|disk|inside|all]" ;; esac

CLIENTS=${CLIENTS:-"1 2 4 8 16 32 48 64"}
INSIDE_CLIENTS=${INSIDE_CLIENTS:-$CLIENTS}
DURATION=${DURATION:-10}
REPEATS=${REPEATS:-3}
PREFILL=${PREFILL:-10000000}
INSIDE_ROWS=${INSIDE_ROWS:-1000000}
SHARED_BUFFERS_DISK=${SHARED_BUFFERS_DISK:-128MB}
CHECKPOINT_TIMEOUT_DISK=${CHECKPOINT_TIMEOUT_DISK:-30s}
MAX_WAL_SIZE_DISK=${MAX_WAL_SIZE_DISK:-1GB}
if [ -z "${SHARED_BUFFERS_MEMORY:-}" ]; then
	SHARED_BUFFERS_MEMORY=$(awk '/^MemTotal/ {mb = int($2 / 4096); if (mb > 8192) mb = 8192; print mb "MB"}' /proc/meminfo)
fi
NCPU=$(nproc)
max_clients=0
for c in $CLIENTS $INSIDE_CLIENTS; do [ "$c" -le "$max_clients" ] || max_clients=$c; done

# name -> key column definition (the expression after DEFAULT, or "bigint identity")
declare -A GEN_EXPR=(
	[random]="gen_random_uuid()"
	[v7]="uuid_v7_nextval()"
	[uuidv7]="uuidv7()"
	[time]="uuid_time_nextval()"
	[sequence]="uuid_sequence_nextval('sc_seq')"
	[sequence_cache]="uuid_sequence_nextval('sc_seq_cache')"
	[bigint]="bigint identity"
	[striped]="uuid_striped_nextval()"
	[noindex]="uuid_striped_nextval(), no index"
)
# bench_insert's spelling of the same keys ("bigint" is its word for a bigint sequence key, CACHE 1)
declare -A INSIDE_EXPR=(
	[random]="gen_random_uuid()" [v7]="uuid_v7_nextval()" [uuidv7]="uuidv7()" [time]="uuid_time_nextval()"
	[sequence]="uuid_sequence_nextval('sc_seq')" [sequence_cache]="uuid_sequence_nextval('sc_seq_cache')"
	[bigint]="bigint" [striped]="uuid_striped_nextval()"
)

# ---- PostgreSQL, extension, server ------------------------------------------------
ou_bench_pg
GENERATORS=${GENERATORS:-"random v7 $([ "$major" -lt 18 ] || echo uuidv7) time sequence sequence_cache bigint striped noindex"}
NAME=${NAME:-scaling-pg$major}
OUT=${OUT:-$BENCH/out}
mkdir -p "$OUT"
ou_bench_work ou_scaling
port=$((55000 + RANDOM % 900))
export PGOPTIONS='-c client_min_messages=warning'

q() { psql -qAtX -v ON_ERROR_STOP=1 -c "$1"; }

# server VARIANT: (re)start the throwaway server with that variant's settings
server() {
	local sb ckpt wal
	if [ "$1" = disk ]; then
		sb=$SHARED_BUFFERS_DISK ckpt=$CHECKPOINT_TIMEOUT_DISK wal=$MAX_WAL_SIZE_DISK
	else
		sb=$SHARED_BUFFERS_MEMORY ckpt=1d wal=20GB
	fi
	ou_server_stop "$pg_config" "$SRV"
	ou_server_start "$pg_config" "$SRV" "$port" \
		"shared_buffers=$sb" "checkpoint_timeout=$ckpt" "max_wal_size=$wal" "fsync=off" \
		"synchronous_commit=off" "autovacuum=off" "max_connections=$((max_clients + 20))" \
		"max_worker_processes=$((max_clients + 8))" "ordered_uuid.bench_max_workers=$max_clients" \
		"wal_compression=off" "jit=off"
	psql -qAtX -d postgres -c "SELECT 1 FROM pg_database WHERE datname = 'ou_bench'" | grep -q 1 ||
		psql -qX -d postgres -c 'CREATE DATABASE ou_bench' -c '\c ou_bench' -c 'CREATE EXTENSION ordered_uuid'
	export PGDATABASE=ou_bench
}

# header FILE VARIANT-NOTE: the comment lines a CSV starts with (settings of the running server)
header() {
	{
		echo "# ordered_uuid bench/scaling.sh, $(date -u '+%Y-%m-%d %H:%M UTC')"
		echo "# server: PostgreSQL $(q 'SHOW server_version')"
		echo "# machine: $(ou_bench_machine)"
		echo "# run: $2"
	} >"$1"
}

# table NAME GEN: create the table of generator GEN (dropping an earlier one)
make_table() {
	local t=$1 expr=${GEN_EXPR[$2]}
	q "DROP TABLE IF EXISTS $t"
	if [ "$expr" = "bigint identity" ]; then
		q "CREATE TABLE $t (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, payload int)"
	elif [ "$2" = noindex ]; then
		q "CREATE TABLE $t (id uuid DEFAULT uuid_striped_nextval(), payload int)"
	else
		q "CREATE TABLE $t (id uuid PRIMARY KEY DEFAULT $expr, payload int)"
	fi
}

# point VARIANT GEN TABLE CLIENTS REP: one pgbench run; appends a CSV line
point() {
	local variant=$1 gen=$2 t=$3 c=$4 rep=$5 j lsn0 fpi0 res tx tps dens ixsize
	j=$((c < NCPU ? c : NCPU))
	echo "INSERT INTO $t (payload) VALUES (1);" >"$WORK/insert.sql"
	q 'CHECKPOINT'
	lsn0=$(q 'SELECT pg_current_wal_insert_lsn()') fpi0=$(q 'SELECT wal_fpi FROM pg_stat_wal')
	res=$(ou_bench_pgbench "$WORK/pgbench.log" -n -M prepared -c "$c" -j "$j" -T "$DURATION" -f "$WORK/insert.sql")
	read -r tx tps <<<"$res"
	# the leaf density of a big index is read once per generator, after its last point
	dens= ixsize=0
	if [ "$gen" != noindex ]; then
		ixsize="pg_relation_size('${t}_pkey')"
		if [ "$variant" = memory ] || { [ "$c" = "${CLIENTS##* }" ] && [ "$rep" = "$REPEATS" ]; }; then
			dens=$(q "SELECT round(avg_leaf_density::numeric, 1) FROM index_shape('${t}_pkey')")
		fi
	fi
	q "SELECT format('%s,%s,%s,\"%s\",%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s', $major, '$variant', '$gen',
	          replace('${GEN_EXPR[$gen]//\'/\'\'}', '\"', '\"\"'), $c, $j, $DURATION, $tx, round($tps, 1),
	          round(pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '$lsn0') / greatest($tx, 1), 1),
	          round((wal_fpi - $fpi0)::numeric / greatest($tx, 1), 4),
	          (SELECT count(*) FROM $t), $ixsize, '$dens', $rep)
	     FROM pg_stat_wal" >>"$CSV"
	ou_log "$variant $gen, $c clients, repetition $rep: $tps tps"
}

CSV=$OUT/$NAME.csv
csv_start() {
	header "$CSV" "$1"
	echo "pg_version,variant,generator,expression,clients,threads,seconds,transactions,tps,wal_bytes_per_row,fpi_per_row,table_rows,index_bytes,avg_leaf_density,rep" >>"$CSV"
}


# Each client count runs every generator in turn, REPEATS times (in_order), so that load from
# elsewhere on the machine hits all of them alike.
run_memory() {
	local g c rep
	server memory
	for c in $CLIENTS; do
		for rep in $(seq "$REPEATS"); do
			# shellcheck disable=SC2086 # GENERATORS is a list of names
			for g in $(in_order "$rep" $GENERATORS); do
				make_table sc_t "$g"
				point memory "$g" sc_t "$c" "$rep"
			done
		done
	done
	q 'DROP TABLE IF EXISTS sc_t'
}

run_disk() {
	local g c rep
	server disk
	for g in $GENERATORS; do
		make_table "sc_disk_$g" "$g"
		ou_log "disk $g: prefilling $PREFILL rows"
		q "INSERT INTO sc_disk_$g (payload) SELECT 1 FROM generate_series(1, $PREFILL)"
	done
	for c in $CLIENTS; do
		for rep in $(seq "$REPEATS"); do
			# shellcheck disable=SC2086 # GENERATORS is a list of names
			for g in $(in_order "$rep" $GENERATORS); do point disk "$g" "sc_disk_$g" "$c" "$rep"; done
		done
	done
	for g in $GENERATORS; do q "DROP TABLE sc_disk_$g"; done
}

run_inside() {
	local c list="" g sep="" csv=$OUT/$NAME-inside.csv
	server memory
	for g in $GENERATORS; do
		[ -n "${INSIDE_EXPR[$g]:-}" ] || continue
		list="$list${sep}'${INSIDE_EXPR[$g]//\'/\'\'}'"
		sep=", "
	done
	header "$csv" "bench_insert(generators => ARRAY[$list], rows => $INSIDE_ROWS, clients => N, rows_per_xact => 1, repeats => $REPEATS); shared_buffers=$SHARED_BUFFERS_MEMORY fsync=off synchronous_commit=off"
	echo "pg_version,clients,generator,rows,seconds,rows_per_sec,wal_bytes_per_row,fpi_per_row,avg_leaf_density,top_wait_events,runs,rows_per_sec_min,rows_per_sec_max" >>"$csv"
	for c in $INSIDE_CLIENTS; do
		ou_log "inside: bench_insert, $c clients, $REPEATS repetitions"
		q "SELECT format('%s,%s,\"%s\",%s,%s,%s,%s,%s,%s,\"%s\",%s,%s,%s', $major, $c, generator, rows, round(seconds::numeric, 2),
		          round(rows_per_sec::numeric), round(wal_bytes_per_row::numeric, 1), round(fpi_per_row::numeric, 4),
		          round(avg_leaf_density::numeric, 1), top_wait_events, runs, round(rows_per_sec_min::numeric),
		          round(rows_per_sec_max::numeric))
		     FROM bench_insert(generators => ARRAY[$list], rows => $INSIDE_ROWS, clients => $c, rows_per_xact => 1,
		                       repeats => $REPEATS)" >>"$csv"
	done
	ou_log "wrote $csv"
}

for g in $GENERATORS; do # name=expression adds a generator
	if [[ $g == *=* ]]; then
		GEN_EXPR[${g%%=*}]=${g#*=}
		INSIDE_EXPR[${g%%=*}]=${g#*=}
		GENERATORS=${GENERATORS/"$g"/${g%%=*}}
	fi
	[ -n "${GEN_EXPR[${g%%=*}]:-}" ] || ou_die "unknown generator '$g' (known: ${!GEN_EXPR[*]}; or name=expression)"
done

server memory
q 'CREATE SEQUENCE IF NOT EXISTS sc_seq'
q 'CREATE SEQUENCE IF NOT EXISTS sc_seq_cache CACHE 64'
settings="$REPEATS interleaved runs per point; fsync=off synchronous_commit=off autovacuum=off; memory: shared_buffers=$SHARED_BUFFERS_MEMORY, a fresh table per point, no checkpoint; disk: shared_buffers=$SHARED_BUFFERS_DISK, prefill=$PREFILL rows, checkpoint_timeout=$CHECKPOINT_TIMEOUT_DISK max_wal_size=$MAX_WAL_SIZE_DISK"
case $MODE in
memory | disk)
	csv_start "pgbench -M prepared, INSERT INTO t (payload) VALUES (1), $DURATION s per point; $settings"
	"run_$MODE"
	;;
inside) run_inside ;;
all)
	csv_start "pgbench -M prepared, INSERT INTO t (payload) VALUES (1), $DURATION s per point; $settings"
	run_memory
	run_disk
	run_inside
	;;
esac
if [ "$MODE" != inside ]; then
	"$BENCH/spread.py" summary "$CSV" variant,generator,clients tps >"$OUT/$NAME-summary.csv"
	ou_log "wrote $CSV and $OUT/$NAME-summary.csv"
	[ -n "${NO_PLOT:-}" ] || "$BENCH/plot.py" "$CSV" || ou_log "plot failed (the CSV is in $CSV)"
fi
