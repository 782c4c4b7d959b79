#!/usr/bin/env bash
# bench/memcap_bench_insert.sh -- S1 of doc/scenarios.md (bench_insert) on an
# emulated small-memory server.
#
#   bench/memcap_bench_insert.sh
#
# Environment (all optional):
#   PG_MAJOR=18            PostgreSQL major version (a relocatable PyPI build, see scripts/lib.sh)
#   PG_CONFIG=             an installed PostgreSQL instead
#   CAP=384M               cgroup v1 memory.limit_in_bytes for the whole server
#   ROWS=10000000          bench_insert(rows => ...)
#   PREFILL=0              bench_insert(prefill => ...)
#   CLIENTS=1              bench_insert(clients => ...)
#   REPEATS=1              bench_insert(repeats => ...): each generator that many times, interleaved,
#                          each time into a fresh (prefilled) table; medians with min-max
#   ROWS_PER_XACT=1000     bench_insert(rows_per_xact => ...)
#   CASE=                  what the lines of runs.csv call these runs (default: from the knobs)
#   GENERATORS=            SQL text[] literal, e.g. "ARRAY['uuid_v7_nextval()','gen_random_uuid()']";
#                          empty: bench_insert's defaults
#   WAL_SETTINGS="max_wal_size=8GB checkpoint_timeout=30min"
#                          checkpoint settings; WAL_SETTINGS=default leaves PostgreSQL's defaults
#                          (max_wal_size=1GB, checkpoint_timeout=5min: checkpoints during the run)
#   DIR=/tmp/memcap-$PG_MAJOR  server directory (data + socket); PORT=5690
#   OUT=bench/out/memcap   where the result table (result.txt), one line per run (runs.csv, for
#                          bench/spread.py) and the memory samples go
#
# Why: a random-key index only hurts once it no longer fits in the memory that caches it.  On a
# machine with plenty of RAM the OS page cache keeps the whole index, so random keys never wait for
# a disk read.  cgroup v1 charges page cache to the cgroup of the process that reads (or writes) the
# file, so putting the postmaster and all its children (new children inherit the cgroup) into a
# memory cgroup capped at CAP makes the page cache small for this server only, as on a small VM.
# shared_buffers (64MB, shared memory) and the backends' private memory count against the same cap.
#
# Needs root (cgroup v1 memory controller at /sys/fs/cgroup/memory).  The server runs as the
# unprivileged user of scripts/lib.sh.  On every exit path the pids go back to the root cgroup, the
# cgroup is removed and the server is stopped.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
cd "$OU_ROOT"

major=${PG_MAJOR:-18} cap=${CAP:-384M} rows=${ROWS:-10000000} prefill=${PREFILL:-0} clients=${CLIENTS:-1}
generators=${GENERATORS:-} dir=${DIR:-/tmp/memcap-$major} port=${PORT:-5690}
repeats=${REPEATS:-1} rows_per_xact=${ROWS_PER_XACT:-1000}
out=${OUT:-bench/out/memcap}
wal_settings=${WAL_SETTINGS:-max_wal_size=8GB checkpoint_timeout=30min}
[ "$wal_settings" = default ] && wal_settings=
cg=/sys/fs/cgroup/memory/ou_memcap
[ "$(id -u)" = 0 ] || ou_die "needs root (cgroup memory controller)"
[ -d /sys/fs/cgroup/memory ] || ou_die "no cgroup v1 memory controller at /sys/fs/cgroup/memory"
mkdir -p "$out"

pg_config=${PG_CONFIG:-$(ou_fetch_pg "$major")}
ou_use_pg "$pg_config"

sampler=
cleanup() {
	set +e
	[ -n "$sampler" ] && kill "$sampler" 2>/dev/null && wait "$sampler" 2>/dev/null
	if [ -d "$cg" ]; then
		local p
		for p in $(cat "$cg/cgroup.procs"); do echo "$p" >/sys/fs/cgroup/memory/cgroup.procs; done
	fi
	OU_SERVER_USER=$(ou_server_user) ou_server_stop "$pg_config" "$dir"
	[ -d "$cg" ] && { for p in $(cat "$cg/cgroup.procs"); do echo "$p" >/sys/fs/cgroup/memory/cgroup.procs; done; rmdir "$cg"; }
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A fresh cluster every time: nothing cached from an earlier run.
OU_SERVER_USER=$(ou_server_user) ou_server_stop "$pg_config" "$dir"
rm -rf "$dir"
# shellcheck disable=SC2086 # wal_settings is a list of settings
ou_server_start "$pg_config" "$dir" "$port" shared_buffers=64MB max_worker_processes=16 $wal_settings

[ -d "$cg" ] || mkdir "$cg"
echo "$cap" >"$cg/memory.limit_in_bytes"
pm=$(head -1 "$dir/data/postmaster.pid")
echo "$pm" >"$cg/cgroup.procs"
for p in $(pgrep -P "$pm"); do echo "$p" >"$cg/cgroup.procs"; done
ou_log "cgroup $cg limit $(cat "$cg/memory.limit_in_bytes") bytes; postmaster $pm: $(grep memory /proc/"$pm"/cgroup)"
ou_log "cgroup members: $(tr '\n' ' ' <"$cg/cgroup.procs")"

psql -qX -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION ordered_uuid' >/dev/null
psql -AtX -c "SELECT version(), current_setting('shared_buffers'), current_setting('max_wal_size'),
	current_setting('checkpoint_timeout'), current_setting('max_worker_processes')" >"$out/version.txt"

# Memory evidence every 10 s: cgroup usage, failcnt, page cache, major faults, and the machine's vmstat.
(
	while sleep 10; do
		printf '%s usage=%s failcnt=%s ' "$(date -u +%T)" "$(cat "$cg/memory.usage_in_bytes")" "$(cat "$cg/memory.failcnt")"
		grep -E '^(cache|rss|shmem|mapped_file|pgmajfault) ' "$cg/memory.stat" | tr '\n' ' '
		# bytes the live server processes have read from storage (not the page cache) so far
		printf 'live_read_bytes=%s ' "$(for p in $(cat "$cg/cgroup.procs"); do
			awk '/^read_bytes/ {print $2}' /proc/"$p"/io 2>/dev/null; done | awk '{s += $1} END {print s + 0}')"
		vmstat 1 2 | tail -1
	done
) >"$out/memory.log" 2>&1 &
sampler=$!

args="rows => $rows, prefill => $prefill, clients => $clients, rows_per_xact => $rows_per_xact, repeats => $repeats"
[ -n "$generators" ] && args="generators => $generators, $args"
case=${CASE:-"cap $cap, prefill $prefill, $clients client(s)"}
ou_log "bench_insert($args), cap $cap"
rm -f "$out/runs.csv"
echo "# run: CAP=$cap ROWS=$rows PREFILL=$prefill CLIENTS=$clients REPEATS=$repeats bench/memcap_bench_insert.sh: bench_insert($args); $(head -c 200 "$out/version.txt")" >"$out/runs.csv"
ou_bench_insert_spread "$case" "$args" "$out/runs.csv" | tee "$out/result.txt"
{
	echo "--- checkpoints: $(psql -AtX -c 'SELECT num_timed, num_requested FROM pg_stat_checkpointer' 2>/dev/null)"
	echo "--- memory.stat at the end"
	cat "$cg/memory.stat"
	echo "--- failcnt $(cat "$cg/memory.failcnt") max_usage $(cat "$cg/memory.max_usage_in_bytes")"
	echo "--- pg_stat_io (client backend + bgworker reads/writes)"
	psql -X -P pager=off -c "SELECT backend_type, object, context, reads, writes, extends, hits, evictions
	  FROM pg_stat_io WHERE reads > 0 OR writes > 0 ORDER BY reads DESC NULLS LAST"
} >"$out/memory_end.txt" 2>&1
cat "$out/memory_end.txt"
