#!/usr/bin/env bash
# bench/s2_collector_demo.sh -- scenario S2 of doc/scenarios.md seen by the collector.
#
#   bench/s2_collector_demo.sh [PG_MAJOR=15] [SESSIONS=8] [ROWS_PER_SESSION=100000]
#
# SESSIONS concurrent bulk loads (INSERT ... SELECT of 455-byte rows) into one
# unindexed table on a throwaway server with shared_preload_libraries =
# 'ordered_uuid', then prints extend_lock_stats, the top of wait_profile and
# collector_info().  The output in doc/collector.md comes from this script.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
cd "$OU_ROOT"

major=${1:-15} sessions=${2:-8} rows=${3:-100000}
pg_config=$(ou_fetch_pg "$major")
ou_use_pg "$pg_config"

dir=$(mktemp -d /tmp/ou_s2.XXXXXX)
chmod 755 "$dir"
port=$((55800 + RANDOM % 100))
trap 'ou_server_stop "$pg_config" "$dir"; rm -rf "$dir"' EXIT
ou_server_start "$pg_config" "$dir" "$port" "shared_preload_libraries=ordered_uuid"

psql -qX -c 'CREATE EXTENSION ordered_uuid' \
	-c 'CREATE TABLE s2_load (id bigint, payload text)' \
	-c 'SELECT ordered_uuid_reset()' >/dev/null
start=$(date +%s.%N)
for i in $(seq 1 "$sessions"); do
	psql -qX -c "INSERT INTO s2_load SELECT g, repeat('x', 440) FROM generate_series(1, $rows) g" &
done
wait
end=$(date +%s.%N)
echo "-- PostgreSQL $("$pg_config" --version | awk '{print $2}'), $sessions sessions x $rows rows, $(python3 -c "print(round($end - $start, 1))") s"
psql -X <<'SQL'
SELECT relation, waits, samples, est_wait_time, max_waiters FROM extend_lock_stats;
SELECT backend_type, wait_event_type, wait_event, samples, est_time
  FROM wait_profile WHERE database = current_database() ORDER BY samples DESC LIMIT 8;
SELECT max_entries, profile_entries, profile_dropped, extend_entries, rounds FROM collector_info();
SQL
