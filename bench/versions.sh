#!/usr/bin/env bash
# bench/versions.sh -- scenarios S1 and S4 of doc/scenarios.md on two PostgreSQL versions side by
# side, the repetitions of versions and keys interleaved in one run.
#
#   OU_CACHE=... bench/versions.sh [s4|s1|all]        (default all: s4, then s1)
#   e.g. REPEATS=5 ROWS=5000000 STEPS=1 bench/versions.sh all
#
# Both versions are Debian's packages in the Debian unstable root (scripts/lib.sh's ou_sid_root:
# PostgreSQL 19 and 18 with the same compiler, flags and packaging), so the script re-runs itself
# inside that root (ou_pg_run); the extension is built and installed into each version there.
# One throwaway server per version, both up during a mode, the same settings on both, otherwise
# each version's defaults (io_method and the other io_* settings are written to the CSV header).
#
# s4: bench_locality(groups => S4_GROUPS, rows_per_group => S4_ROWS_PER_GROUP) as
#     bench/scenarios_inside.sh calls it (shared_buffers 128MB, max_worker_processes 16);
#     repetition 1 calls it on the versions in the order of VERSIONS, repetition 2 reversed, ...
# s1: bench/run.sh s1's measurement (shared_buffers 64MB, max_wal_size 4GB, checkpoint_timeout
#     30min, synchronous_commit on, autovacuum off, wal_compression off, jit off): at each size
#     FIRST_STEP * ROWS/STEPS, ..., ROWS (0, ROWS/STEPS, ... by default) a CHECKPOINT, then DURATION s of single-row INSERTs by CLIENTS
#     pgbench clients (bench/s1_KEY.sql); repetition 1 runs version by version in the order of
#     VERSIONS and key by key in the order of KEYS, repetition 2 both reversed, and so on; a table
#     is grown to the size (INSERT ... SELECT, not measured) before its first run at that size.
#
# Output (OUT, default bench/out), one line per run with the 1-minute load average at its end; the
# column generator is the version, so bench/spread.py markdown FILE pg19 VALUE gives 19 / 18 with
# per-pair ranges (random keys against the others in one version: make the version the case and
# the key the generator, awk -F, -v OFS=, '$3 ~ /^pg/ { $1 = $3 " step " $5; $3 = $4 } 1' FILE >NEW,
# then bench/spread.py markdown NEW random VALUE):
#   OUT/NAME-s4.csv  case (the variant), rep, generator, groups_per_sec, heap_blocks_per_group,
#                    amplification, insert_rows_per_sec, load1
#   OUT/NAME-s1.csv  case (step and key), rep, generator, key, step, table_rows, rows_per_sec,
#                    wal_bytes_per_row, fpi_per_row, index_bytes, load1
# Knobs (environment): VERSIONS ("18 19"), REPEATS (5), KEYS ("random v7 bigint"), ROWS (5000000),
# STEPS (1), FIRST_STEP (0), DURATION (12), CLIENTS (8), THREADS (2), S4_GROUPS (1000), S4_ROWS_PER_GROUP (2000),
# NAME (versions), OUT, MACHINE_NOTE, BENCH_WORK, KEEP_WORK.
set -euo pipefail
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib.sh
. "$BENCH/../scripts/lib.sh"
# shellcheck source=bench/common.sh
. "$BENCH/common.sh"

if [ "${3:-}" != --inside ]; then
	root=$(ou_sid_root)
	work=${BENCH_WORK:-$(mktemp -d /tmp/ou_versions.XXXXXX)}
	chmod 755 "$work"
	export OU_BENCH_ENV OU_BENCH_MACHINE
	OU_BENCH_MACHINE="$(ou_bench_machine); the servers in a Debian unstable root (chroot)"
	OU_BENCH_ENV=$(for v in VERSIONS REPEATS KEYS ROWS STEPS FIRST_STEP DURATION CLIENTS THREADS S4_GROUPS \
		S4_ROWS_PER_GROUP NAME OUT KEEP_WORK; do [ -z "${!v:-}" ] || printf '%s=%q ' "$v" "${!v}"; done)
	ou_pg_run "$root/usr/lib/postgresql/19/bin/pg_config" "$work" "$BENCH/versions.sh" --inside "${1:-all}"
	exit
fi
eval "$OU_BENCH_ENV"
WORK=$2 MODE=${4:-all}
VERSIONS=${VERSIONS:-18 19} REPEATS=${REPEATS:-5} KEYS=${KEYS:-random v7 bigint}
ROWS=${ROWS:-5000000} STEPS=${STEPS:-1} FIRST_STEP=${FIRST_STEP:-0} DURATION=${DURATION:-12} CLIENTS=${CLIENTS:-8} THREADS=${THREADS:-2}
S4_GROUPS=${S4_GROUPS:-1000} S4_ROWS_PER_GROUP=${S4_ROWS_PER_GROUP:-2000}
NAME=${NAME:-versions} OUT=${OUT:-$BENCH/out}
mkdir -p "$OUT"
pg_config=/usr/lib/postgresql/19/bin/pg_config # what ou_bench_cleanup stops with: any version's pg_ctl
ou_bench_cleanup() {
	local rc=$? v
	for v in $VERSIONS; do ou_server_stop "$(pgc "$v")" "$WORK/pg$v"; done
	[ -n "${KEEP_WORK:-}" ] || rm -rf "${WORK:?}"/pg*
	exit "$rc"
}
trap ou_bench_cleanup EXIT
trap 'exit 130' INT TERM

pgc() { echo "/usr/lib/postgresql/$1/bin/pg_config"; }
# on V COMMAND...: COMMAND with version V's programs first and its server as the default
on() {
	local v=$1
	shift
	(
		export PATH="/usr/lib/postgresql/$v/bin:$PATH" PGHOST=$WORK/pg$v PGPORT=$((5600 + v)) PGUSER=postgres
		export PGDATABASE=postgres PGOPTIONS='-c client_min_messages=warning'
		"$@"
	)
}
q() { psql -qAtX -v ON_ERROR_STOP=1 -c "$1"; }
load1() { cut -d' ' -f1 /proc/loadavg; }

for v in $VERSIONS; do
	ou_log "building and installing ordered_uuid into $("$(pgc "$v")" --version)"
	ou_use_pg "$(pgc "$v")"
done

# servers SETTINGS...: (re)start one fresh server a version with these settings
servers() {
	local v
	for v in $VERSIONS; do
		ou_server_stop "$(pgc "$v")" "$WORK/pg$v"
		rm -rf "$WORK/pg$v"
		ou_server_start "$(pgc "$v")" "$WORK/pg$v" $((5600 + v)) "$@"
		on "$v" q 'CREATE EXTENSION ordered_uuid'
	done
}
# header CSV SETTINGS COLUMNS: the comment lines bench/spread.py prints, then the column names
header() {
	local v
	{
		echo "# run: $(for x in VERSIONS REPEATS KEYS ROWS STEPS FIRST_STEP DURATION CLIENTS S4_GROUPS S4_ROWS_PER_GROUP; do
			printf '%s="%s" ' "$x" "${!x}"; done)bench/versions.sh $MODE, $(date -u '+%Y-%m-%d %H:%M UTC')"
		for v in $VERSIONS; do
			echo "# server: pg$v: $(on "$v" q "SELECT version()"); $2; $(on "$v" q "SELECT string_agg(name || '=' || setting, ' ' ORDER BY name)
			       FROM pg_settings WHERE name ~ '^io_' OR name IN ('data_checksums', 'effective_io_concurrency')")"
		done
		echo "# machine: $OU_BENCH_MACHINE, load average now $(load1) (each run's at its end: load1)"
		echo "$3"
	} >"$1"
}

s4() {
	local csv=$OUT/$NAME-s4.csv rep v
	servers shared_buffers=128MB max_worker_processes=16
	header "$csv" "shared_buffers=128MB max_worker_processes=16" \
		"case,rep,generator,groups_per_sec,heap_blocks_per_group,amplification,insert_rows_per_sec,load1"
	for rep in $(seq "$REPEATS"); do
		for v in $(in_order "$rep" $VERSIONS); do
			ou_log "S4 repetition $rep: PostgreSQL $v"
			on "$v" q "COPY (SELECT variant, $rep, 'pg$v', round(groups_per_sec::numeric, 1), heap_blocks_per_group,
			                        amplification, round(insert_rows_per_sec::numeric)
			                   FROM bench_locality(groups => $S4_GROUPS, rows_per_group => $S4_ROWS_PER_GROUP))
			           TO STDOUT CSV" | sed "s/\$/,$(load1)/" >>"$csv"
		done
	done
	ou_log "wrote $csv"
}

# s1_run V KEY STEP REP: grow the table to the step's size, CHECKPOINT, pgbench; print its CSV line
s1_run() {
	local v=$1 key=$2 step=$3 rep=$4 target cur lsn0 fpi0 tx tps
	target=$((ROWS * step / STEPS))
	cur=$(q "SELECT count(*) FROM s1_$key")
	if [ "$cur" -lt "$target" ]; then
		q "INSERT INTO s1_$key SELECT FROM generate_series(1, $((target - cur)))"
		cur=$target
	fi
	q 'CHECKPOINT'
	lsn0=$(q 'SELECT pg_current_wal_insert_lsn()') fpi0=$(q 'SELECT wal_fpi FROM pg_stat_wal')
	read -r tx tps < <(ou_bench_pgbench "$WORK/pgbench.log" -n -M prepared -c "$CLIENTS" -j "$THREADS" \
		-T "$DURATION" -f "$BENCH/s1_$key.sql")
	q "SELECT format('\"step %s: %s\",%s,pg%s,%s,%s,%s,%s,%s,%s,%s,%s', $step, '$key', $rep, $v, '$key', $step, $cur,
	                 round($tps * 1), round(pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '$lsn0') / greatest($tx, 1), 1),
	                 round((wal_fpi - $fpi0)::numeric / greatest($tx, 1), 4), pg_relation_size('s1_${key}_pkey'),
	                 '$(load1)')
	     FROM pg_stat_wal"
}

s1() {
	local csv=$OUT/$NAME-s1.csv rep v key step
	servers shared_buffers=64MB max_wal_size=4GB checkpoint_timeout=30min synchronous_commit=on autovacuum=off \
		max_connections=$((CLIENTS + 20)) wal_compression=off track_wal_io_timing=off jit=off
	header "$csv" "shared_buffers=64MB max_wal_size=4GB checkpoint_timeout=30min synchronous_commit=on autovacuum=off wal_compression=off jit=off" \
		"case,rep,generator,key,step,table_rows,rows_per_sec,wal_bytes_per_row,fpi_per_row,index_bytes,load1"
	for v in $VERSIONS; do
		on "$v" q "CREATE TABLE s1_random (id uuid DEFAULT gen_random_uuid() PRIMARY KEY);
		           CREATE TABLE s1_v7 (id uuid DEFAULT uuid_v7_nextval() PRIMARY KEY);
		           CREATE TABLE s1_time (id uuid DEFAULT uuid_time_nextval() PRIMARY KEY);
		           CREATE SEQUENCE s1_seq;
		           CREATE TABLE s1_sequence (id uuid DEFAULT uuid_sequence_nextval('s1_seq') PRIMARY KEY);
		           CREATE TABLE s1_bigint (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY)"
	done
	for ((step = FIRST_STEP; step <= STEPS; step++)); do
		for rep in $(seq "$REPEATS"); do
			for v in $(in_order "$rep" $VERSIONS); do
				for key in $(in_order "$rep" $KEYS); do
					on "$v" s1_run "$v" "$key" "$step" "$rep" | tee -a "$csv" >&2
				done
			done
		done
	done
	ou_log "wrote $csv"
}

case $MODE in
s4) s4 ;;
s1) s1 ;;
all) s4 && s1 ;;
*) ou_die "usage: bench/versions.sh [s4|s1|all]" ;;
esac
