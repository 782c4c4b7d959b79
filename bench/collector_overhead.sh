#!/usr/bin/env bash
# bench/collector_overhead.sh -- throughput cost of the collector.
#
#   bench/collector_overhead.sh [PG_MAJOR=16] [PAIRS=5] [SECONDS=30] [CLIENTS=8]
#
# pgbench, CLIENTS clients, single-row INSERTs into one table (bigint identity
# primary key + a float8), on a throwaway server restarted for every run
# alternately WITH shared_preload_libraries = 'ordered_uuid' (the collector
# at its defaults: sample_interval 10 ms, track_splits on) and WITHOUT it.
# The order inside a pair alternates (on/off, off/on, ...) so that drift of a
# shared machine hits both sides.  Each run starts from an empty table after
# a CHECKPOINT.  synchronous_commit = off keeps the run CPU-bound (commit
# fsyncs would hide the collector's cost behind disk noise: a worst case for
# the collector).
#
# Prints one line per run and, last, the median of the per-pair ratios
# tps(on) / tps(off) and the CPU time the collector's worker itself used
# during the "on" runs (utime + stime from /proc, as % of one core: the cost
# that throughput noise on a shared machine cannot hide); writes the runs to
# bench/out/collector_overhead.tsv.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
cd "$OU_ROOT"

major=${1:-16} pairs=${2:-5} secs=${3:-30} clients=${4:-8}
pg_config=$(ou_fetch_pg "$major")
ou_use_pg "$pg_config"

dir=$(mktemp -d /tmp/ou_overhead.XXXXXX)
chmod 755 "$dir"
port=$((55300 + RANDOM % 500))
trap 'ou_server_stop "$pg_config" "$dir"; rm -rf "$dir"' EXIT
mkdir -p bench/out
out=bench/out/collector_overhead.tsv
printf 'pair\tcollector\ttps\tworker_cpu_pct\n' >"$out"
printf 'INSERT INTO ov (v) VALUES (random());\n' >"$dir/insert.sql"
common=("synchronous_commit=off" "max_wal_size=2GB" "shared_buffers=256MB")

run() {	# run PAIR on|off
	local opts=("${common[@]}")
	[ "$2" = on ] && opts+=("shared_preload_libraries=ordered_uuid")
	ou_server_stop "$pg_config" "$dir"
	ou_server_start "$pg_config" "$dir" "$port" "${opts[@]}"
	psql -qX -c 'SET client_min_messages = warning' -c 'DROP TABLE IF EXISTS ov' \
		-c 'CREATE TABLE ov (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v float8)' \
		-c 'CHECKPOINT'
	local tps wpid="" t0=0 t1=0 cpu=""
	if [ "$2" = on ]; then
		psql -qX -c 'SET client_min_messages = warning' -c 'CREATE EXTENSION IF NOT EXISTS ordered_uuid'
		wpid=$(psql -AtqX -c 'SELECT worker_pid FROM collector_info()')
		t0=$(ou_proc_cpu_ticks "$wpid")
	fi
	tps=$(pgbench -n -c "$clients" -j 2 -T "$secs" -f "$dir/insert.sql" 2>&1 |
		sed -n 's/^tps = \([0-9.]*\) .*/\1/p' | tail -n 1)
	if [ -n "$wpid" ]; then
		t1=$(ou_proc_cpu_ticks "$wpid")
		cpu=$(python3 -c "print('%.2f' % (100.0 * ($t1 - $t0) / $(getconf CLK_TCK) / $secs))")
	fi
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$tps" "$cpu" | tee -a "$out"
}

for p in $(seq 1 "$pairs"); do
	if [ $((p % 2)) = 1 ]; then run "$p" on; run "$p" off; else run "$p" off; run "$p" on; fi
done
python3 - "$out" <<'PY'
import sys, statistics
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])][1:]
pairs = {}
cpu = []
for p, mode, tps, wcpu in rows:
    pairs.setdefault(p, {})[mode] = float(tps)
    if wcpu:
        cpu.append(float(wcpu))
ratios = [v['on'] / v['off'] for v in pairs.values()]
print('ratios on/off per pair:', ' '.join('%.4f' % r for r in ratios))
m = statistics.median(ratios)
print('median tps(on)/tps(off) = %.4f  (throughput change %+.2f%%)' % (m, (m - 1) * 100))
print('collector worker CPU, %% of one core, per run: %s (median %.2f%%)'
      % (' '.join('%.2f' % c for c in cpu), statistics.median(cpu)))
PY
