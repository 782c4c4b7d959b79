#!/usr/bin/env bash
# bench/walrel_cost.sh -- the collector's CPU time to read a fixed amount of
# WAL, with two builds of the library, and pg_walinspect's over the same WAL;
# the worker's CPU idle and under the highest insert rate too.
#
#   bench/walrel_cost.sh OLD.so [NEW.so]
#   e.g. OU_CACHE=... PG_MAJOR=18 REPEATS=5 ROWS=600000 IDLE=30 LOAD=20 \
#        bench/walrel_cost.sh /tmp/1.3.1/ordered_uuid.so
#   (OLD.so: `make` in an export of the older release, `git archive TAG`)
#
# For each build in turn (A B, B A, A B: REPEATS pairs, interleaved so that
# drift hits both), a throwaway server with the collector preloaded at its
# defaults (sample_interval 10 ms):
# 1. idle: once the worker has caught up, its CPU over IDLE seconds with
#    nothing written (0 skips it);
# 2. load: its CPU over LOAD seconds of pgbench, LOAD_CLIENTS clients, each
#    transaction one INSERT ... SELECT of 100 rows into a bigint-keyed table,
#    synchronous_commit off: the most rows a second this machine's inserts
#    reach; with the rows/s and WAL MB/s of the run (0 skips it);
# 3. catch-up: sample_interval set to 1 s by a reload (so that sampling costs
#    next to nothing), the worker stopped (SIGSTOP), ROWS rows of random uuid
#    keys (one INSERT ... SELECT) write the WAL, a CHECKPOINT and a second
#    batch add full-page images; then the worker is continued and, at the
#    same moment, pg_get_wal_stats() (PG 15+) reads the same range in a
#    backend, both pinned to one CPU (taskset), so that whatever slows one
#    (another job, a slower core) slows the other: each one's CPU time for
#    that WAL, and their ratio, are the catch-up's figures.
# CPU time is utime + stime from /proc (10 ms ticks) for the idle and load
# phases, and the scheduler's run time (/proc/PID/schedstat, ns) for the
# catch-up; not wall time: a busy machine slows both builds alike but does
# not add to either.  Prints one line per run (with the 1-minute load
# average at its end) and the medians (min-max); the runs are in DIR/runs.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
cd "$OU_ROOT"

old=${1:?usage: bench/walrel_cost.sh OLD.so [NEW.so]}
major=${PG_MAJOR:-18} repeats=${REPEATS:-3} rows=${ROWS:-200000}
idle=${IDLE:-0} load=${LOAD:-0} load_clients=${LOAD_CLIENTS:-4}
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
ticks_s() { python3 -c "print('%.2f' % (($2 - $1) / $hz))"; }
# caught_up: wait (at most 30 s) until the worker has read the WAL flushed so far
caught_up() {
	local lsn
	for _ in $(seq 1 300); do
		lsn=$(q "SELECT pg_current_wal_flush_lsn()")
		[ "$(q "SELECT wal_reached >= '$lsn' FROM collector_info()")" = t ] && return
		sleep 0.1
	done
}
# idle_load WPID: phases 1 and 2; prints "idle_s load_s load_rows_per_s load_wal_mb_per_s"
idle_load() {
	local wpid=$1 t0 t1 i=- l=- r=- m=- lsn0 tx
	if [ "$idle" -gt 0 ]; then
		caught_up
		t0=$(ou_proc_cpu_ticks "$wpid")
		sleep "$idle"
		t1=$(ou_proc_cpu_ticks "$wpid")
		i=$(ticks_s "$t0" "$t1")
	fi
	if [ "$load" -gt 0 ]; then
		q "CREATE TABLE ld (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v float8)" >/dev/null
		echo "INSERT INTO ld (v) SELECT random() FROM generate_series(1, 100);" >"$dir/load.sql"
		caught_up
		lsn0=$(q "SELECT pg_current_wal_insert_lsn()")
		t0=$(ou_proc_cpu_ticks "$wpid")
		PGOPTIONS="-c synchronous_commit=off" pgbench -n -M prepared -c "$load_clients" -j 2 -T "$load" -f "$dir/load.sql" >"$dir/pgbench.log" 2>&1 ||
			{ cat "$dir/pgbench.log" >&2; ou_die "pgbench failed"; }
		t1=$(ou_proc_cpu_ticks "$wpid")
		l=$(ticks_s "$t0" "$t1")
		tx=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$dir/pgbench.log")
		r=$((tx * 100 / load))
		m=$(q "SELECT round(pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '$lsn0') / 1048576 / $load, 1)")
		q "DROP TABLE ld" >/dev/null
	fi
	echo "$i $l $r $m"
}
# run BUILD: one measurement; prints "BUILD worker_s walinspect_s wal_mb records
# idle_s load_s load_rows_per_s load_wal_mb_per_s load1" (records: those the
# worker read in the catch-up)
run() {
	# stopped first, and a new file (mv) rather than one written over: a
	# running server's processes map the old file, and writing over it
	# crashes them
	ou_server_stop "$pg_config" "$dir/srv"
	cp "$dir/$1.so" "$pkglib/ordered_uuid.so.new"
	mv -f "$pkglib/ordered_uuid.so.new" "$pkglib/ordered_uuid.so"
	rm -rf "$dir/srv"
	ou_server_start "$pg_config" "$dir/srv" "$port" shared_preload_libraries=ordered_uuid \
		max_wal_size=4GB wal_keep_size=4GB autovacuum=off
	q "CREATE EXTENSION ordered_uuid VERSION '1.3.0'" >/dev/null
	[ "$major" -lt 15 ] || q "CREATE EXTENSION pg_walinspect" >/dev/null
	local wpid lsn0 lsn1 cw ws il rec0
	wpid=$(q "SELECT worker_pid FROM collector_info()")
	il=$(idle_load "$wpid")
	q "ALTER SYSTEM SET ordered_uuid.sample_interval = 1000" >/dev/null
	q "SELECT pg_reload_conf()" >/dev/null
	q "CREATE TABLE c (id uuid PRIMARY KEY, v int)" >/dev/null
	caught_up
	kill -STOP "$wpid"
	lsn0=$(q "SELECT wal_reached FROM collector_info()")
	rec0=$(q "SELECT wal_records FROM collector_info()")
	q "INSERT INTO c SELECT gen_random_uuid(), g FROM generate_series(1, $rows) g" >/dev/null
	q "CHECKPOINT" >/dev/null
	q "INSERT INTO c SELECT gen_random_uuid(), g FROM generate_series(1, $rows) g" >/dev/null
	lsn1=$(q "SELECT pg_current_wal_flush_lsn()")
	read -r cw ws < <(python3 - "$lsn0" "$lsn1" "$wpid" "$major" <<'PY'
import subprocess, sys, time
lsn0, lsn1, wpid, major = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
p = subprocess.Popen(["psql", "-XAtq"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def ask(sql):
    p.stdin.write(sql + "\n"); p.stdin.flush(); return p.stdout.readline().strip()
def ns(pid):
    with open("/proc/%s/schedstat" % pid) as f:
        return int(f.read().split()[0])
pid = ask("SELECT pg_backend_pid();")
# both readers on one CPU at the same time: what slows one slows the other
for x in (wpid, pid):
    subprocess.run(["taskset", "-p", "-c", "0", x], stdout=subprocess.DEVNULL, check=True)
w0, b0 = ns(wpid), ns(pid)
subprocess.run(["kill", "-CONT", wpid], check=True)
if major >= 15:
    ask("SELECT sum(count) FROM pg_get_wal_stats('%s', '%s');" % (lsn0, lsn1))
b1 = ns(pid)
for _ in range(1500):
    if ask("SELECT wal_reached >= '%s' FROM collector_info();" % lsn1) == "t":
        break
    time.sleep(0.2)
w1 = ns(wpid)
p.stdin.close(); p.wait()
print("%.3f %s" % ((w1 - w0) / 1e9, "%.3f" % ((b1 - b0) / 1e9) if major >= 15 else "0"))
PY
)
	printf '%s %s %s %s %s %s %s\n' "$1" "$cw" "$ws" \
		"$(q "SELECT round(pg_wal_lsn_diff('$lsn1', '$lsn0') / 1048576)")" \
		"$(q "SELECT wal_records - $rec0 FROM collector_info()")" "$il" "$(cut -d' ' -f1 /proc/loadavg)"
}

: >"$dir/runs"
for ((i = 0; i < repeats; i++)); do
	if ((i % 2 == 0)); then order="A B"; else order="B A"; fi
	for b in $order; do run "$b" | tee -a "$dir/runs"; done
done
python3 - "$dir/runs" <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1])]
names = ["worker s", "pg_get_wal_stats s", "MB of WAL", "records", "idle s", "load s",
         "load rows/s", "load WAL MB/s", "load1"]
for b in "AB":
    out = []
    for i, name in enumerate(names, 1):
        v = sorted(float(r[i]) for r in rows if r[0] == b and len(r) > i and r[i] != "-")
        if v:
            out.append("%s %s (%s-%s)" % (name, *("%.12g" % x for x in (statistics.median(v), v[0], v[-1]))))
    ratios = sorted(float(r[1]) / float(r[2]) for r in rows if r[0] == b and float(r[2]) > 0)
    if ratios:
        out.append("worker / pg_get_wal_stats %.2f (%.2f-%.2f)" % (statistics.median(ratios), ratios[0], ratios[-1]))
    print("%s: %s" % (b, ", ".join(out)))
PY
