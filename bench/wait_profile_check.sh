#!/usr/bin/env bash
# bench/wait_profile_check.sh -- is the per-query wait profile right, and
# what does the collector's worker cost with the detailed profile and the
# history on?
#
#   bench/wait_profile_check.sh [PG_MAJOR=18] [SECONDS=20] [CPU_PAIRS=2] [CPU_SECONDS=15] [IDLE=0]
#
# 1. The profile.  A server with shared_preload_libraries =
#    'pg_stat_statements,ordered_uuid', ordered_uuid.profile_queries and
#    profile_pids on and a 20000-sample history runs two pgbench processes
#    side by side for SECONDS, each with a statement of known wait behaviour:
#      A (2 clients)  SELECT pg_sleep(0.02)
#                     always inside its sleep: Timeout / PgSleep, ~100 %;
#      B (4 clients)  SELECT pg_advisory_xact_lock(4242), pg_sleep(0.05)
#                     one client holds the lock and sleeps 50 ms while the
#                     other three wait for it: Lock / advisory 3/4 and
#                     Timeout / PgSleep 1/4 of B's samples.
#    The query ids are taken from pg_stat_statements (its queryid, joined
#    with wait_profile_detail.queryid) and the client pids from
#    pg_stat_activity (application_name).  Checked: each query id shows its
#    expected events with the expected shares within 3 standard errors
#    (samples of one 10 ms interval are not independent: a 50 ms sleep is
#    ~5 samples, so the effective count is samples / 5), the pid dimension
#    shows exactly the clients that ran each statement, and the history
#    holds B's recent samples with B's query id.  Exits 1 if a check fails.
# 2. The worker's CPU.  CPU_PAIRS pairs of CPU_SECONDS runs of the insert
#    workload of bench/collector_overhead.sh (8 clients, single-row INSERTs,
#    synchronous_commit = off), the server restarted for each run with the
#    collector at its defaults or with profile_queries, profile_pids and a
#    20000-sample history on (order alternating): the CPU the worker used,
#    from /proc, as % of one core.  IDLE more clients stay connected and
#    idle meanwhile (a pgbench of \sleep): every sampled process costs the
#    worker a hash look-up per table it feeds, so its CPU grows with them.
# Writes bench/out/wait_profile_check.txt.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
cd "$OU_ROOT"

major=${1:-18} secs=${2:-20} cpu_pairs=${3:-2} cpu_secs=${4:-15} idle=${5:-0}
pg_config=$(ou_fetch_pg "$major")
ou_use_pg "$pg_config"

dir=$(mktemp -d /tmp/ou_wpcheck.XXXXXX)
chmod 755 "$dir"
port=$((55300 + RANDOM % 500))
trap 'ou_server_stop "$pg_config" "$dir"; rm -rf "$dir"' EXIT
mkdir -p bench/out
out=bench/out/wait_profile_check.txt
: >"$out"
say() { printf '%s\n' "$*" | tee -a "$out"; }

detail=("ordered_uuid.profile_queries=on" "ordered_uuid.profile_pids=on" "ordered_uuid.history_size=20000")
say "$("$pg_config" --version), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

#
# 1. The profile of two statements with known waits
#
printf 'SELECT pg_sleep(0.02);\n' >"$dir/a.sql"
printf 'SELECT pg_advisory_xact_lock(4242), pg_sleep(0.05);\n' >"$dir/b.sql"
ou_server_start "$pg_config" "$dir" "$port" "shared_preload_libraries=pg_stat_statements,ordered_uuid" \
	"${detail[@]}"
psql -qX -c 'SET client_min_messages = warning' -c 'CREATE EXTENSION IF NOT EXISTS ordered_uuid' \
	-c 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements'
wpid=$(psql -AtqX -c 'SELECT worker_pid FROM collector_info()')
psql -qX -c 'SELECT ordered_uuid_reset()' -c 'SELECT pg_stat_statements_reset()' >/dev/null
t0=$(ou_proc_cpu_ticks "$wpid")
PGAPPNAME=wp_a pgbench -n -c 2 -j 1 -T "$secs" -f "$dir/a.sql" >"$dir/a.log" 2>&1 &
a_job=$!
PGAPPNAME=wp_b pgbench -n -c 4 -j 1 -T "$secs" -f "$dir/b.sql" >"$dir/b.log" 2>&1 &
b_job=$!
sleep 2
psql -AtqX -F ' ' -c "SELECT application_name, string_agg(pid::text, ',' ORDER BY pid)
                        FROM pg_stat_activity WHERE application_name IN ('wp_a', 'wp_b')
                       GROUP BY 1 ORDER BY 1" >"$dir/pids"
# the history, read while B runs
psql -AtqX -F ' ' -c "SELECT count(*), count(DISTINCT pid),
                             count(*) FILTER (WHERE wait_event = 'advisory')
                        FROM wait_history h
                        JOIN pg_stat_statements s ON s.queryid = h.queryid AND s.dbid = h.datid
                                                 AND s.userid = h.userid
                       WHERE s.query LIKE 'SELECT pg_advisory_xact_lock%'" >"$dir/history"
wait "$a_job" "$b_job"
t1=$(ou_proc_cpu_ticks "$wpid")
psql -AtqX -F ' ' -c "SELECT CASE WHEN s.query LIKE 'SELECT pg_sleep%' THEN 'A' ELSE 'B' END,
                             d.wait_event_type || '/' || d.wait_event, sum(d.samples),
                             extract(epoch FROM sum(d.est_time)),
                             string_agg(DISTINCT d.pid::text, ',' ORDER BY d.pid::text)
                        FROM wait_profile_detail d
                        JOIN pg_stat_statements s ON s.queryid = d.queryid AND s.dbid = d.datid
                                                 AND s.userid = d.userid
                       WHERE s.query LIKE 'SELECT pg_sleep%' OR s.query LIKE 'SELECT pg_advisory_xact_lock%'
                       GROUP BY 1, 2 ORDER BY 1, 3 DESC" >"$dir/profile"
psql -AtqX -F ' ' -c 'SELECT rounds, detail_entries, detail_dropped, history_entries, history_overwritten
                        FROM collector_info(), collector_detail_info()' >"$dir/info"
ou_server_stop "$pg_config" "$dir"
cpu1=$(python3 -c "print('%.2f' % (100.0 * ($t1 - $t0) / $(getconf CLK_TCK) / $secs))")
say "pgbench A: $(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$dir/a.log" | tail -n 1) tps, B: $(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$dir/b.log" | tail -n 1) tps, ${secs} s"
say "worker CPU during the check (detail + history on): ${cpu1} % of one core"

failed=0
if ! python3 - "$dir" "$secs" <<'PY' | tee -a "$out"
import math, sys
d, secs = sys.argv[1], float(sys.argv[2])
pids = dict(l.split() for l in open(d + '/pids') if l.strip())
want = {'A': set(pids['wp_a'].split(',')), 'B': set(pids['wp_b'].split(','))}
rows = [l.split() for l in open(d + '/profile') if l.strip()]
rounds, dentries, ddropped, hentries, hover = open(d + '/info').read().split()
print('collector: %s rounds, %s detailed entries, %s dropped; history %s held, %s overwritten'
      % (rounds, dentries, ddropped, hentries, hover))
ok = True
# A: the whole statement is its sleep, but for its own few hundred
# microseconds of parse/plan/execute (CPU): PgSleep >= 97 % of A's samples.
# B: of its samples in the two waits, Lock / advisory is 3/4 (three
# waiters for one sleeping holder), within 3 standard errors, the effective
# sample count being (Lock + PgSleep samples) / 5 (a 50 ms wait spans ~5
# samples of 10 ms); anything else (CPU) under 3 %.
for q in 'AB':
    mine = {r[1]: r for r in rows if r[0] == q}
    total = sum(int(r[2]) for r in mine.values())
    est = sum(float(r[3]) for r in mine.values())
    seen = set()
    for r in mine.values():
        seen |= set(r[4].split(','))
    print('query %s: %d samples, est_time %.1f s (%d clients x %.0f s = %.0f s of statements)'
          % (q, total, est, len(want[q]), secs, len(want[q]) * secs))
    for ev, r in sorted(mine.items(), key=lambda kv: -int(kv[1][2])):
        print('  %-18s %6s samples  %.4f of the query\'s samples' % (ev, r[2], int(r[2]) / max(total, 1)))
    sleep = int(mine.get('Timeout/PgSleep', ['', '', '0'])[2])
    lock = int(mine.get('Lock/advisory', ['', '', '0'])[2])
    if q == 'A':
        share = sleep / max(total, 1)
        good = share >= 0.97
        print('  check: PgSleep share %.4f >= 0.97  %s' % (share, 'ok' if good else 'FAIL'))
    else:
        waits = lock + sleep
        share = lock / max(waits, 1)
        se = math.sqrt(0.75 * 0.25 / max(waits / 5.0, 1))
        other = 1 - waits / max(total, 1)
        good = abs(share - 0.75) <= 3 * se and other < 0.03
        print('  check: Lock / (Lock + PgSleep) %.4f, expected 0.75, |diff| %.4f <= 3 SE %.4f; '
              'other events %.4f < 0.03  %s'
              % (share, abs(share - 0.75), 3 * se, other, 'ok' if good else 'FAIL'))
    ok &= good
    good = seen == want[q]
    print('  check: the pids of its rows %s the %d clients of pgbench %s  %s'
          % ('are' if good else 'ARE NOT', len(want[q]), q, 'ok' if good else 'FAIL'))
    ok &= good
h = open(d + '/history').read().split()
good = int(h[0]) > 0 and h[1] == str(len(want['B']))
print('history during the run: %s samples of B (%s pids, %s of them Lock/advisory)  %s'
      % (h[0], h[1], h[2], 'ok' if good else 'FAIL'))
ok &= good
print('profile check:', 'PASSED' if ok else 'FAILED')
sys.exit(0 if ok else 1)
PY
then
	failed=1
fi

#
# 2. The worker's CPU under the insert workload, defaults vs detail on
#
printf 'INSERT INTO ov (v) VALUES (random());\n' >"$dir/insert.sql"
printf '\\sleep %s s\n' "$((cpu_secs + 5))" >"$dir/idle.sql"
common=("shared_preload_libraries=ordered_uuid" "synchronous_commit=off" "max_wal_size=2GB" "shared_buffers=256MB"
	"max_connections=$((idle + 20 > 100 ? idle + 20 : 100))")
cpu_run() {	# cpu_run PAIR defaults|detail
	local opts=("${common[@]}")
	[ "$2" = detail ] && opts+=("${detail[@]}")
	ou_server_stop "$pg_config" "$dir"
	ou_server_start "$pg_config" "$dir" "$port" "${opts[@]}"
	psql -qX -c 'SET client_min_messages = warning' -c 'CREATE EXTENSION IF NOT EXISTS ordered_uuid' \
		-c 'DROP TABLE IF EXISTS ov' \
		-c 'CREATE TABLE ov (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v float8)' -c 'CHECKPOINT'
	local w c0 c1 tps
	w=$(psql -AtqX -c 'SELECT worker_pid FROM collector_info()')
	local idle_job=""
	if [ "$idle" -gt 0 ]; then
		pgbench -n -c "$idle" -j 1 -t 1 -f "$dir/idle.sql" >/dev/null 2>&1 &
		idle_job=$!
		sleep 2
	fi
	c0=$(ou_proc_cpu_ticks "$w")
	tps=$(pgbench -n -c 8 -j 2 -T "$cpu_secs" -f "$dir/insert.sql" 2>&1 |
		sed -n 's/^tps = \([0-9.]*\) .*/\1/p' | tail -n 1)
	c1=$(ou_proc_cpu_ticks "$w")
	[ -z "$idle_job" ] || wait "$idle_job"
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$tps" \
		"$(python3 -c "print('%.2f' % (100.0 * ($c1 - $c0) / $(getconf CLK_TCK) / $cpu_secs))")" |
		tee -a "$dir/cpu.tsv"
}
say "worker CPU, insert workload (8 clients, ${cpu_secs} s runs, $idle idle clients): pair, collector, tps, worker CPU %"
for p in $(seq 1 "$cpu_pairs"); do
	if [ $((p % 2)) = 1 ]; then cpu_run "$p" defaults; cpu_run "$p" detail; else cpu_run "$p" detail; cpu_run "$p" defaults; fi
done | tee -a "$out"
python3 - "$dir/cpu.tsv" <<'PY' | tee -a "$out"
import sys, statistics
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])]
for mode in ('defaults', 'detail'):
    cpu = [float(r[3]) for r in rows if r[1] == mode]
    print('worker CPU, %-8s: %s (median %.2f %% of one core)'
          % (mode, ' '.join('%.2f' % c for c in cpu), statistics.median(cpu)))
PY
say "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
exit $failed
