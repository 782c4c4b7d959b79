#!/usr/bin/env bash
# bench/predicate_sampling.sh -- what sampling the predicate locks costs
# (the collector's ordered_uuid.predicate_lock_interval, scenario S5).
#
#   bench/predicate_sampling.sh [PG_MAJOR=18] [ROUNDS=4] [SECONDS=20] [CLIENTS=8]
#
# Part 1, the copy: while ten sessions keep SERIALIZABLE transactions open
# that hold about LOCKS predicate locks in all (index scans: a tuple lock a
# row, with max_pred_locks_per_page and max_pred_locks_per_relation raised so
# that none is promoted to a page or relation lock), the worker samples every
# 100 ms for 10 s; the time each copy of the lock table took
# (serialization_info(): the predicate lock partitions are held meanwhile)
# and the worker's own CPU (/proc/PID/stat) per sample.  The copy walks the
# whole lock table, empty or not, and max_pred_locks_per_transaction times
# the number of processes sets its size: so at the default
# max_pred_locks_per_transaction (64; with max_connections = 100 a table of
# about 7,600 locks) for LOCKS = 0, 1,000 and 6,000 (nearly full), and at ten
# times it (640) for LOCKS = 0, 10,000 and 50,000.
#
# Part 2, the workload, at the default sizes: pgbench, CLIENTS clients, the
# S5 transaction (BEGIN ISOLATION LEVEL SERIALIZABLE; INSERT ... RETURNING id;
# SELECT ... WHERE id = :id; COMMIT) on uuid_v7_nextval() keys, SECONDS-second
# runs on one server, the sampling set by reload to 0 (off), the default 1 s,
# and 10 ms (a hundred times the default), the order turning in each of
# ROUNDS rounds; tps, serialization failures, and the worker's CPU per run.
#
# OU_PORT picks the server's port.  Writes bench/out/predicate_sampling_copy.tsv
# and bench/out/predicate_sampling_tps.tsv, and prints the medians.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
cd "$OU_ROOT"

major=${1:-18} rounds=${2:-4} secs=${3:-20} clients=${4:-8}
pg_config=$(ou_fetch_pg "$major")
ou_use_pg "$pg_config"

dir=$(mktemp -d /tmp/ou_predsample.XXXXXX)
chmod 755 "$dir"
port=${OU_PORT:-$((55300 + RANDOM % 500))}
holders=()
cleanup() {
	local p
	for p in "${holders[@]}"; do kill "$p" 2>/dev/null || true; done
	ou_server_stop "$pg_config" "$dir"
	rm -rf "$dir"
}
trap cleanup EXIT
mkdir -p bench/out

start() {	# start MAX_PRED_LOCKS_PER_TRANSACTION
	ou_server_stop "$pg_config" "$dir"
	ou_server_start "$pg_config" "$dir" "$port" shared_preload_libraries=ordered_uuid \
		max_connections=100 max_pred_locks_per_transaction="$1" \
		max_pred_locks_per_relation=1000000 max_pred_locks_per_page=1000 \
		synchronous_commit=off shared_buffers=256MB
}
worker() { psql -AtqX -c 'SELECT worker_pid FROM collector_info()'; }
setint() {	# setint VALUE: the sampling interval, by reload
	psql -qX -c "ALTER SYSTEM SET ordered_uuid.predicate_lock_interval = '$1'" -c 'SELECT pg_reload_conf()' >/dev/null
	sleep 0.5
}

start 64
psql -qX -v ON_ERROR_STOP=1 <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION ordered_uuid;
-- the rows the holders read: a tuple lock each
CREATE TABLE held (id int PRIMARY KEY, v int);
INSERT INTO held SELECT g, g FROM generate_series(1, 60000) g;
CREATE TABLE s5 (id uuid PRIMARY KEY DEFAULT uuid_v7_nextval(), v int);
INSERT INTO s5 (v) SELECT g FROM generate_series(1, 100000) g;
VACUUM ANALYZE held, s5;
SQL

# ---- part 1 ----------------------------------------------------------------
copy=bench/out/predicate_sampling_copy.tsv
printf 'max_pred_locks_per_transaction\tlocks_wanted\tlocks_per_sample\tsamples\tus_per_copy\tmax_us\tworker_us_per_sample\n' >"$copy"
part1() {	# part1 MAX_PRED_LOCKS_PER_TRANSACTION LOCKS...
	local size=$1 locks per h p wpid c0 c1 s1 l1 t1 m1
	shift
	start "$size"
	setint 100ms
	for locks in "$@"; do
		holders=()
		if [ "$locks" -gt 0 ]; then
			per=$((locks / 10))
			for h in $(seq 0 9); do
				psql -qX -c 'SET enable_seqscan = off' -c 'SET enable_bitmapscan = off' \
					-c 'BEGIN ISOLATION LEVEL SERIALIZABLE' \
					-c "SELECT count(*) FROM held WHERE id > $((h * per)) AND id <= $(((h + 1) * per))" \
					-c 'SELECT pg_sleep(25)' -c 'COMMIT' >/dev/null 2>&1 &
				holders+=($!)
			done
			sleep 4
		fi
		wpid=$(worker)
		c0=$(ou_proc_cpu_ticks "$wpid")
		psql -qX -c 'SELECT ordered_uuid_reset()' >/dev/null
		sleep 10
		read -r s1 l1 t1 m1 <<<"$(psql -AtqX -F ' ' -c "SELECT lock_samples, locks_sampled,
			extract(epoch FROM sample_time) * 1e6, extract(epoch FROM max_sample_time) * 1e6 FROM serialization_info()")"
		c1=$(ou_proc_cpu_ticks "$wpid")
		python3 - "$size" "$locks" "$s1" "$l1" "$t1" "$m1" "$c0" "$c1" "$(getconf CLK_TCK)" >>"$copy" <<'PY'
import sys
size, locks, s, l, t, m, c0, c1, hz = sys.argv[1:]
s = max(int(s), 1)
print('%s\t%s\t%d\t%d\t%.0f\t%.0f\t%.0f' % (size, locks, int(l) // s, s, float(t) / s, float(m),
                                         (int(c1) - int(c0)) / float(hz) * 1e6 / s))
PY
		psql -qX -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			WHERE query LIKE '%pg_sleep(25)%' AND pid <> pg_backend_pid()" >/dev/null
		for p in "${holders[@]}"; do wait "$p" 2>/dev/null || true; done
		holders=()
		sleep 1
	done
}
part1 64 0 1000 6000
part1 640 0 10000 50000
column -t "$copy"

# ---- part 2 ----------------------------------------------------------------
start 64
tps_out=bench/out/predicate_sampling_tps.tsv
printf 'round\tinterval\ttps\tfailures\tworker_cpu_pct\n' >"$tps_out"
cat >"$dir/s5.sql" <<'EOF'
BEGIN ISOLATION LEVEL SERIALIZABLE;
INSERT INTO s5 (v) VALUES (1) RETURNING id \gset
SELECT v FROM s5 WHERE id = ':id'::uuid;
COMMIT;
EOF
run() {	# run ROUND INTERVAL
	setint "$2"
	psql -qX -c 'CHECKPOINT' >/dev/null
	local wpid c0 c1 out tps fails
	wpid=$(worker)
	c0=$(ou_proc_cpu_ticks "$wpid")
	out=$(pgbench -n -c "$clients" -j 2 -T "$secs" --max-tries=1000 -f "$dir/s5.sql" 2>&1)
	c1=$(ou_proc_cpu_ticks "$wpid")
	tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' <<<"$out" | tail -n 1)
	fails=$(sed -n 's/^total number of retries: \([0-9]*\).*/\1/p' <<<"$out")
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$tps" "${fails:-0}" \
		"$(python3 -c "print('%.2f' % (100.0 * ($c1 - $c0) / $(getconf CLK_TCK) / $secs))")" | tee -a "$tps_out"
}
order=(0 1s 10ms)
for r in $(seq 1 "$rounds"); do
	for i in 0 1 2; do run "$r" "${order[$(((i + r) % 3))]}"; done
done
python3 - "$tps_out" <<'PY'
import sys, statistics
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])][1:]
by = {}
for r, iv, tps, fails, cpu in rows:
    by.setdefault(r, {})[iv] = (float(tps), float(cpu))
for iv in ('1s', '10ms'):
    ratios = [v[iv][0] / v['0'][0] for v in by.values()]
    print('interval %-4s: tps / tps(off) per round %s, median %.3f; worker CPU %% of a core: median %.2f (off: %.2f)'
          % (iv, ' '.join('%.3f' % x for x in ratios), statistics.median(ratios),
             statistics.median(v[iv][1] for v in by.values()),
             statistics.median(v['0'][1] for v in by.values())))
PY
