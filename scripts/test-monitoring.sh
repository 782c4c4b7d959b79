#!/usr/bin/env bash
# scripts/test-monitoring.sh [PG_CONFIG|MAJOR] [WORKDIR] -- the monitoring
# files (monitoring/: the exporter's queries, the alert rules, the Grafana
# dashboard) end to end with the real parts: PostgreSQL with the collector
# preloaded, Debian's prometheus-postgres-exporter and prometheus (unpacked
# into the cache, run directly with our own configuration and data directory
# on 127.0.0.1 ports free at the time; no service of theirs), an S1 workload
# (inserts of random keys into an indexed table: leaf splits) and an S2 one
# (four sessions inserting into one table queue on its extension lock, held by
# the test module meanwhile), then scripts/monitoring_check.py through
# Prometheus' HTTP API.  Before them, 300 tables written with
# ordered_uuid.max_entries = 200 evict entries of relation_wal_stats, whose
# counts must still add up to the WAL read.  The extension sits in schema ordered_uuid, the
# exporter's role has the search_path Debian's exporter README recommends
# (prometheus, pg_catalog: without the extension's schema).  Then
# scripts/monitoring_plant.py plants objects named like everything the
# queries use in a schema ahead of pg_catalog on a monitoring role's
# search_path and runs every query, in SQL and through two more exporters
# (that role's and a clean one's): none may run, each query must give what it
# gives without them.  OU_MONITORING_PLANT_QUERIES=FILE runs that part on
# another queries file (the 1.3.0 one fails it).  Called by scripts/test-one.sh for the last version
# (with OU_MONITORING_BUILT=1: the extension and the test module are
# installed already); run alone it fetches PostgreSQL MAJOR (default 18) and
# builds and installs both first.
#
# Two generations of the exporter and Prometheus run side by side, each
# scraped and checked alike: Debian 12's postgres_exporter 0.11.1 and
# Prometheus 2.42 (unpacked into the cache), and Debian unstable's 0.19.1 and
# Prometheus 3 (PromQL changed in 3.0), from the Debian unstable root
# (OU_SID_PACKAGES in scripts/lib.sh; run inside it with ou_sid_run, on
# 127.0.0.1, or directly when this script runs in that root already, as it
# does for 19).  Where the root cannot be made here, the second generation is
# skipped with a message.  Before two of S1's batches a CHECKPOINT starts a
# storm of full-page images in its index, for relation_wal_stats' metrics.
#
# promtool checks the rules (check rules, and the unit tests test rules) first.
# Skipped, with a message, where there is no apt-get and nothing in the cache.
# Every wait gives up after OU_MON_WAIT seconds (default 60); the exporter,
# Prometheus and the server are stopped on every exit path.
# OU_MONITORING_SAVE=FILE keeps the dashboard queries' results (JSON) for
# scripts/monitoring_plot.py.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$OU_ROOT"

pg_config=$(ou_pg_config_arg "${1:-}")
work=${2:-$(mktemp -d /tmp/ou-monitoring.XXXXXX)}
wait_s=${OU_MON_WAIT:-60}
label=$("$pg_config" --version)
if [ ! -x "$OU_CACHE/monitoring/usr/bin/prometheus" ] && ! command -v apt-get >/dev/null; then
	ou_log "[$label] monitoring: skipped (no apt-get to fetch Debian's $OU_MONITORING_PACKAGES)"
	exit 0
fi
if [ -z "${OU_MONITORING_BUILT:-}" ]; then
	ou_use_pg "$pg_config" "-Wall -Werror"
	make -s -C test/module PG_CONFIG="$pg_config" PG_CFLAGS="-Wall -Werror" >/dev/null
	ou_sudo make -s install-test-module PG_CONFIG="$pg_config" >/dev/null
fi
export PATH LD_LIBRARY_PATH
PATH=$("$pg_config" --bindir):$PATH
LD_LIBRARY_PATH=$(ou_libpath "$pg_config")
bin=$(ou_monitoring_tools)

rm -rf "$work"
mkdir -p "$work"
chmod 755 "$work"

# The second generation's programs are the root's /usr/bin ones, run with
# "${sid[@]}" COMMAND: in the root (the checkout and the work directory
# bind-mounted at their paths), or as they are where this runs in the root
# already (its marker file, written by ou_sid_make, is at /).
gens=(1)
if [ -f /.ordered_uuid-packages ] && [ -x /usr/bin/prometheus ]; then
	sid=()
	gens+=(2)
else
	rc=0
	root=$(ou_sid_root) || rc=$?
	if [ $rc = 0 ] && [ -x "$root/usr/bin/prometheus" ] && [ -x "$root/usr/bin/prometheus-postgres-exporter" ]; then
		sid=(ou_sid_run "$root" "$OU_ROOT" "$work" --)
		gens+=(2)
	elif [ $rc = 0 ] || [ $rc = 2 ]; then
		ou_log "[$label] monitoring: the second generation (Debian unstable's exporter and Prometheus 3) skipped: no Debian unstable root with them here"
	else
		exit 1
	fi
fi
bins=([1]="$bin" [2]=/usr/bin)
# run_gen GEN COMMAND...: COMMAND (a program of bins[GEN] and its arguments)
run_gen() {
	local gen=$1
	shift
	if [ "$gen" = 1 ]; then "$@"; else "${sid[@]}" "$@"; fi
}

for gen in "${gens[@]}"; do
	ou_log "[$label] monitoring: promtool check rules, test rules ($(run_gen "$gen" "${bins[gen]}/promtool" --version 2>&1 | head -n 1))"
	run_gen "$gen" "${bins[gen]}/promtool" check rules "$OU_ROOT/monitoring/ordered_uuid_rules.yml" >/dev/null
	run_gen "$gen" sh -c 'cd "$0" && "$1" test rules ordered_uuid_rules_test.yml' \
		"$OU_ROOT/monitoring" "${bins[gen]}/promtool" >"$work/rules-test-$gen.txt" 2>&1 ||
		{ cat "$work/rules-test-$gen.txt"; exit 1; }
done

pids=()
wrappers=()
stop_all() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null && for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$p" 2>/dev/null || true
	done
	# ou_sid_run's subshells end with their programs, undoing their mounts
	for p in "${wrappers[@]}"; do
		for _ in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
	done
	ou_server_stop "$pg_config" "$work/pg"
}
trap stop_all EXIT

# wait_for WHAT COMMAND...: run COMMAND every 0.5 s until it succeeds, at most wait_s
wait_for() {
	local what=$1 t0=$SECONDS
	shift
	until "$@" >/dev/null 2>&1; do
		[ $((SECONDS - t0)) -lt "$wait_s" ] || { ou_log "gave up waiting for $what after $wait_s s"; return 1; }
		sleep 0.5
	done
}

ou_log "[$label] monitoring: server with the collector, exporter, Prometheus"
ou_server_start "$pg_config" "$work/pg" 5432 shared_preload_libraries=ordered_uuid \
	ordered_uuid.profile_queries=on ordered_uuid.history_size=2000 ordered_uuid.max_entries=200
psql -qX -v ON_ERROR_STOP=1 <<'SQL'
-- as doc/monitoring.md recommends: a schema only its owner can create in
CREATE SCHEMA ordered_uuid;
GRANT USAGE ON SCHEMA ordered_uuid TO PUBLIC;
CREATE EXTENSION ordered_uuid SCHEMA ordered_uuid;
-- the exporter's role: pg_monitor sees every database's rows and every
-- process's wait event; the search_path Debian's exporter README recommends,
-- which lacks the extension's schema
CREATE ROLE ou_exporter LOGIN IN ROLE pg_monitor;
ALTER ROLE ou_exporter SET search_path = prometheus, pg_catalog;
CREATE SCHEMA mon_test;
CREATE FUNCTION mon_test.extension_lock(rel regclass) RETURNS void
	AS 'ordered_uuid_test', 'ou_extension_lock' LANGUAGE C STRICT;
-- no autovacuum: the index's WAL is the workload's alone, quiet after it
CREATE TABLE s1 (id uuid PRIMARY KEY, pad text) WITH (autovacuum_enabled = off);
CREATE TABLE s2 (id int, pad text) WITH (autovacuum_enabled = off);
SQL

# Eviction: 300 tables written, more relation files than the 200 entries of
# relation_wal_stats (ordered_uuid.max_entries), evict the least recently
# used (their counts kept in relation_wal_info()'s evicted totals); dropped,
# the rest are pruned.  Before Prometheus starts: its rates and the
# dashboard's series show the workloads below alone, the totals carry it.
ou_log "[$label] monitoring: 300 tables written and dropped (relation_wal_stats entries evicted and pruned)"
psql -qX -v ON_ERROR_STOP=1 <<'SQL'
SET client_min_messages = warning;
CREATE SCHEMA mon_churn;
DO $$
BEGIN
	FOR i IN 1..300 LOOP
		EXECUTE format('CREATE TABLE mon_churn.t%s (id int) WITH (autovacuum_enabled = off)', i);
		EXECUTE format('INSERT INTO mon_churn.t%s VALUES (1)', i);
	END LOOP;
END $$;
-- the collector reads their WAL (and evicts) before they are dropped: a
-- table dropped in the slice of WAL that wrote it never takes an entry
DO $$
DECLARE
	target pg_lsn := pg_current_wal_flush_lsn();
BEGIN
	FOR i IN 1..600 LOOP
		EXIT WHEN (SELECT wal_reached FROM ordered_uuid.collector_info()) >= target;
		PERFORM pg_sleep(0.1);
	END LOOP;
END $$;
DROP SCHEMA mon_churn CASCADE;
SQL

# launch NAME GEN COMMAND...: COMMAND of generation GEN in the background,
# logging to NAME.log; the pid of the program itself goes to pids (in the
# root: written by the shell that execs it), ou_sid_run's subshell to
# wrappers.
launch() {
	local name=$1 gen=$2
	shift 2
	if [ "$gen" = 1 ]; then
		"$@" >"$work/$name.log" 2>&1 &
		pids+=($!)
		return
	fi
	rm -f "$work/$name.pid"
	"${sid[@]}" sh -c 'echo $$ >"$0"; exec "$@"' "$work/$name.pid" "$@" >"$work/$name.log" 2>&1 &
	wrappers+=($!)
	wait_for "$name to start" test -s "$work/$name.pid" || { tail -n 20 "$work/$name.log"; exit 1; }
	pids+=("$(cat "$work/$name.pid")")
}

# start_exporter ROLE DATABASE QUERIES NAME [GEN]: an exporter of generation
# GEN (default 1) connected as ROLE to DATABASE on a free port (printed to
# NAME.port), logging to NAME.log.  Only the queries file's metrics: no
# default metrics, no settings, none of the collectors enabled by default
# (0.11.1: database sizes and bgwriter, whose queries fail on 17 and later:
# pg_stat_bgwriter lost its checkpoint columns to pg_stat_checkpointer;
# 0.19.1: eleven).
start_exporter() {
	local port gen=${5:-1} collectors
	port=$(ou_free_tcp_port)
	echo "$port" >"$work/$4.port"
	if [ "$gen" = 1 ]; then
		collectors="database bgwriter"
	else
		collectors="database locks replication replication_slot roles stat_bgwriter stat_database
			stat_progress_vacuum stat_user_tables statio_user_tables wal"
	fi
	# shellcheck disable=SC2046,SC2086
	launch "$4" "$gen" env DATA_SOURCE_NAME="postgresql://$1@/$2?host=$work/pg&port=5432&sslmode=disable" \
		"${bins[gen]}/prometheus-postgres-exporter" --web.listen-address="127.0.0.1:$port" \
		--extend.query-path="$3" --disable-default-metrics --disable-settings-metrics \
		$(printf -- '--no-collector.%s ' $collectors)
}
queries=$OU_ROOT/monitoring/ordered_uuid_exporter_queries.yaml
# get URL: its body, failing unless 200 (python3: curl may be missing)
get() { python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' "$1"; }
up() { get "$1/api/v1/query?query=ordered_uuid_collector_running" | grep -q '"value"'; }
# for each generation: its exporter (exporterGEN) and Prometheus
# (prometheusGEN, at prom[GEN]) scraping it every 2 s with the rules loaded
prom=()
for gen in "${gens[@]}"; do
	start_exporter ou_exporter postgres "$queries" "exporter$gen" "$gen"
	port=$(ou_free_tcp_port)
	cat >"$work/prometheus$gen.yml" <<EOF
global:
  scrape_interval: 2s
  scrape_timeout: 2s
  evaluation_interval: 2s
rule_files:
  - $OU_ROOT/monitoring/ordered_uuid_rules.yml
scrape_configs:
  - job_name: postgres
    static_configs:
      - targets: ['127.0.0.1:$(cat "$work/exporter$gen.port")']
EOF
	run_gen "$gen" "${bins[gen]}/promtool" check config "$work/prometheus$gen.yml" >/dev/null
	launch "prometheus$gen" "$gen" "${bins[gen]}/prometheus" --config.file="$work/prometheus$gen.yml" \
		--storage.tsdb.path="$work/tsdb$gen" --web.listen-address="127.0.0.1:$port"
	prom[gen]=http://127.0.0.1:$port
done
for gen in "${gens[@]}"; do
	wait_for "Prometheus $gen to be ready" get "${prom[gen]}/-/ready" ||
		{ tail -n 20 "$work/prometheus$gen.log"; exit 1; }
	wait_for "the first scrape of exporter $gen" up "${prom[gen]}" ||
		{ tail -n 20 "$work/exporter$gen.log"; exit 1; }
done
start=$(date +%s.%N)

# S1: random keys into an indexed table, in batches a second apart; a
# checkpoint before the fifth and the seventh: the next batch, whose random
# keys land on most of the index's leaf pages, writes a full-page image of
# each (a storm of them in relation_wal_stats), the batch after it few
ou_log "[$label] monitoring: S1 (random keys: leaf splits, and full-page images after two checkpoints), S2 (four sessions queued on one extension lock)"
for i in $(seq 8); do
	case $i in 5 | 7) psql -qX -v ON_ERROR_STOP=1 -c CHECKPOINT ;; esac
	psql -qX -v ON_ERROR_STOP=1 -c \
		"INSERT INTO s1 SELECT gen_random_uuid(), repeat('x', 100) FROM generate_series(1, 5000)"
	sleep 1
done

# S2, twice: a session holds s2's extension lock (test module) while four
# sessions insert into s2, each of which must extend it: until all four are
# queued on it (at most wait_s), then 3 s more, however slow the machine is
# to start them
queued="SELECT count(*) FROM pg_locks WHERE locktype = 'extend' AND relation = 's2'::regclass AND NOT granted"
for round in 1 2; do
	psql -qX -v ON_ERROR_STOP=1 -c 'BEGIN' -c "SELECT mon_test.extension_lock('s2')" \
		-c "DO \$\$ BEGIN
				FOR i IN 1..$((wait_s * 20)) LOOP
					EXIT WHEN ($queued) >= 4;
					PERFORM pg_sleep(0.05);
				END LOOP;
			END \$\$" \
		-c 'SELECT pg_sleep(3)' -c 'COMMIT' >/dev/null &
	holder=$!
	held() { [ "$(psql -XAtq -c "SELECT count(*) FROM pg_locks WHERE locktype = 'extend'
		AND relation = 's2'::regclass AND granted")" = 1 ]; }
	wait_for "the extension lock to be held" held
	inserters=()
	for i in 1 2 3 4; do
		psql -qX -v ON_ERROR_STOP=1 -c \
			"INSERT INTO s2 SELECT g, repeat('$i', 100) FROM generate_series(1, 5000) AS g" &
		inserters+=($!)
	done
	wait "$holder"
	for p in "${inserters[@]}"; do wait "$p"; done
	sleep 2
done

# the worker restarts once killed: OrderedUuidCollectorRestarted fires
old=$(psql -XAtq -c 'SELECT worker_pid FROM ordered_uuid.collector_info()')
psql -XAtq -c "SELECT pg_terminate_backend($old)" >/dev/null
restarted() {
	local p
	p=$(psql -XAtq -c 'SELECT worker_pid FROM ordered_uuid.collector_info()')
	[ -n "$p" ] && [ "$p" != "$old" ]
}
wait_for "the collector worker to come back" restarted
firing() {
	get "$1/api/v1/alerts" | python3 -c 'import json, sys
sys.exit(not any(a["labels"]["alertname"] == "OrderedUuidCollectorRestarted" and a["state"] == "firing"
                 for a in json.load(sys.stdin)["data"]["alerts"]))'
}
for gen in "${gens[@]}"; do
	wait_for "OrderedUuidCollectorRestarted to fire in Prometheus $gen" firing "${prom[gen]}" || true
done
sleep 4

status=0
for gen in "${gens[@]}"; do
	exporter_url=http://127.0.0.1:$(cat "$work/exporter$gen.port")
	ou_log "[$label] monitoring: $(get "$exporter_url/metrics" | sed -n 's/^postgres_exporter_build_info{.*version="\([^"]*\)".*/postgres_exporter \1/p'), Prometheus $(get "${prom[gen]}/api/v1/status/buildinfo" | python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["version"])'): promtool check metrics, then the checks through Prometheus' API"
	# promtool's lint of the exporter's output: names, _total on counters, base units
	get "$exporter_url/metrics" | grep -E '^(# (HELP|TYPE) )?ordered_uuid_' >"$work/metrics$gen.txt"
	if run_gen "$gen" "${bins[gen]}/promtool" check metrics <"$work/metrics$gen.txt" >"$work/lint$gen.txt" 2>&1 &&
		[ -s "$work/metrics$gen.txt" ]; then
		echo "ok - promtool check metrics: the exporter's ordered_uuid_* metrics pass the lint"
	else
		echo "not ok - promtool check metrics"; cat "$work/lint$gen.txt"; status=1
	fi
	# as the exporter's role: the views' relation names as its search_path prints them
	save=
	[ "$gen" != 1 ] || save=${OU_MONITORING_SAVE:-}
	PGUSER=ou_exporter python3 scripts/monitoring_check.py "${prom[gen]}" "$start" ${save:+"$save"} || status=1
done
# what 0.19.1 says of its deprecated --extend.query-path
[ "${#gens[@]}" = 1 ] || grep -i 'deprecat' "$work/exporter2.log" || true

ou_log "[$label] monitoring: the queries with objects planted ahead of pg_catalog on the search_path"
plant_queries=${OU_MONITORING_PLANT_QUERIES:-$queries}
python3 scripts/monitoring_plant.py plant "$plant_queries"
start_exporter ou_exposed ou_plant "$plant_queries" exposed
start_exporter ou_clean ou_plant "$plant_queries" clean
scraped() { get "http://127.0.0.1:$(cat "$work/$1.port")/metrics" | grep -q '^pg_exporter_last_scrape_error'; }
wait_for "the exporters on ou_plant" scraped exposed && wait_for "the exporters on ou_plant" scraped clean
python3 scripts/monitoring_plant.py check "$plant_queries" "http://127.0.0.1:$(cat "$work/exposed.port")" \
	"http://127.0.0.1:$(cat "$work/clean.port")" || status=1
if [ $status != 0 ]; then
	for f in "${gens[@]/#/exporter}" exposed clean "${gens[@]/#/prometheus}"; do
		echo "--- $f log (tail)"; tail -n 20 "$work/$f.log"
	done
fi
exit $status
