#!/usr/bin/env bash
# bench/walrel_cost.sh -- the collector's CPU time to read a fixed amount of
# WAL, with two builds of the library, and pg_walinspect's over the same WAL.
#
#   bench/walrel_cost.sh OLD.so [NEW.so]
#
# For each build in turn (A B, B A, A B: REPEATS pairs, interleaved so that
# drift hits both), a throwaway server with the collector preloaded
# (sample_interval 1 s, so that sampling costs next to nothing during a
# run): the
# worker is stopped (SIGSTOP), ROWS rows of random uuid keys (one INSERT ...
# SELECT) write the WAL, a CHECKPOINT and a
# second batch add full-page images, the worker is continued, and the CPU
# time (utime + stime from /proc) it takes to catch up is its cost for that
# WAL.  CPU time, not wall time: a busy machine slows both alike but does not
# add to either.  Then pg_get_wal_stats() (PG 15+) reads the same range in a
# backend, whose CPU time is measured the same way.  Prints one line per run
# and the medians (min-max).
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
cd "$OU_ROOT"

old=${1:?usage: bench/walrel_cost.sh OLD.so [NEW.so]}
major=${PG_MAJOR:-18} repeats=${REPEATS:-3} rows=${ROWS:-200000}
pg_config=$(ou_fetch_pg "$major")
[ -n "${2:-}" ] || ou_use_pg "$pg_config"
pkglib=$("$pg_config" --pkglibdir)
new=${2:-$pkglib/ordered_uuid.so}
dir=${DIR:-/tmp/walrel-cost-$major} port=5692
mkdir -p "$dir"
cp "$old" "$dir/A.so"
cp "$new" "$dir/B.so"
cp "$pkglib/ordered_uuid.so" "$dir/installed.so"
trap 'ou_server_stop "$pg_config" "$dir/srv"; cp "$dir/installed.so" "$pkglib/ordered_uuid.so.new";
	mv -f "$pkglib/ordered_uuid.so.new" "$pkglib/ordered_uuid.so"' EXIT
export PATH LD_LIBRARY_PATH
PATH=$("$pg_config" --bindir):$PATH
LD_LIBRARY_PATH=$(ou_libpath "$pg_config")
hz=$(getconf CLK_TCK)
# set here, not by ou_server_start inside run's subshell: every run must be
# able to stop the previous run's server
OU_SERVER_USER=$(ou_server_user)

q() { psql -XAtq -v ON_ERROR_STOP=1 -c "$1"; }
# run BUILD: one measurement; prints "BUILD worker_s walinspect_s wal_mb records"
run() {
	# stopped first, and a new file (mv) rather than one written over: a
	# running server's processes map the old file, and writing over it
	# crashes them
	ou_server_stop "$pg_config" "$dir/srv"
	cp "$dir/$1.so" "$pkglib/ordered_uuid.so.new"
	mv -f "$pkglib/ordered_uuid.so.new" "$pkglib/ordered_uuid.so"
	rm -rf "$dir/srv"
	ou_server_start "$pg_config" "$dir/srv" "$port" shared_preload_libraries=ordered_uuid \
		ordered_uuid.sample_interval=1000 max_wal_size=4GB wal_keep_size=4GB autovacuum=off
	q "CREATE EXTENSION ordered_uuid VERSION '1.3.0'" >/dev/null
	[ "$major" -lt 15 ] || q "CREATE EXTENSION pg_walinspect" >/dev/null
	q "CREATE TABLE c (id uuid PRIMARY KEY, v int)" >/dev/null
	local wpid lsn0 lsn1 t0 t1 ws=0
	for _ in $(seq 1 300); do
		lsn0=$(q "SELECT pg_current_wal_flush_lsn()")
		[ "$(q "SELECT wal_reached >= '$lsn0' FROM collector_info()")" = t ] && break
		sleep 0.1
	done
	wpid=$(q "SELECT worker_pid FROM collector_info()")
	kill -STOP "$wpid"
	t0=$(ou_proc_cpu_ticks "$wpid")
	lsn0=$(q "SELECT wal_reached FROM collector_info()")
	q "INSERT INTO c SELECT gen_random_uuid(), g FROM generate_series(1, $rows) g" >/dev/null
	q "CHECKPOINT" >/dev/null
	q "INSERT INTO c SELECT gen_random_uuid(), g FROM generate_series(1, $rows) g" >/dev/null
	lsn1=$(q "SELECT pg_current_wal_flush_lsn()")
	kill -CONT "$wpid"
	for _ in $(seq 1 3000); do
		[ "$(q "SELECT wal_reached >= '$lsn1' FROM collector_info()")" = t ] && break
		sleep 0.1
	done
	t1=$(ou_proc_cpu_ticks "$wpid")
	if [ "$major" -ge 15 ]; then
		# a backend of its own: read its CPU ticks around the call
		ws=$(python3 - "$lsn0" "$lsn1" "$hz" <<'PY'
import subprocess, sys, os, time
lsn0, lsn1, hz = sys.argv[1], sys.argv[2], int(sys.argv[3])
p = subprocess.Popen(["psql", "-XAtq"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def ask(sql):
    p.stdin.write(sql + "\n"); p.stdin.flush(); return p.stdout.readline().strip()
pid = ask("SELECT pg_backend_pid();")
def ticks():
    with open("/proc/%s/stat" % pid) as f:
        s = f.read().rsplit(")", 1)[1].split()
    return int(s[11]) + int(s[12])
ask("SELECT 1;")
t0 = ticks(); ask("SELECT sum(count) FROM pg_get_wal_stats('%s', '%s');" % (lsn0, lsn1)); t1 = ticks()
p.stdin.close(); p.wait()
print("%.2f" % ((t1 - t0) / hz))
PY
)
	fi
	printf '%s %.2f %s %s %s\n' "$1" "$(python3 -c "print(($t1 - $t0) / $hz)")" "$ws" \
		"$(q "SELECT round(pg_wal_lsn_diff('$lsn1', '$lsn0') / 1048576)")" \
		"$(q "SELECT wal_records FROM collector_info()")"
}

: >"$dir/runs"
for ((i = 0; i < repeats; i++)); do
	if ((i % 2 == 0)); then order="A B"; else order="B A"; fi
	for b in $order; do run "$b" | tee -a "$dir/runs"; done
done
python3 - "$dir/runs" <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1])]
for b in "AB":
    w = sorted(float(r[1]) for r in rows if r[0] == b)
    s = sorted(float(r[2]) for r in rows if r[0] == b)
    mb = sorted(float(r[3]) for r in rows if r[0] == b)
    print("%s: worker %.2f s (%.2f-%.2f), pg_get_wal_stats %.2f s (%.2f-%.2f), %d MB of WAL"
          % (b, statistics.median(w), w[0], w[-1], statistics.median(s), s[0], s[-1], statistics.median(mb)))
PY
