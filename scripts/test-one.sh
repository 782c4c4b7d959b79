#!/usr/bin/env bash
# scripts/test-one.sh PG_CONFIG WORKDIR -- build, install and test against one
# PostgreSQL (called by scripts/test.sh, once per version).
#
#   1. build with -Wall -Werror and install;
#   2. pg_regress (make installcheck) on a server without the library preloaded;
#   3. the pgTAP tests (test/*.sql) with pg_prove;
#   4. the collector's pg_regress suite (make installcheck-preload) on a server
#      with shared_preload_libraries = 'ordered_uuid';
#   5. its bounded-memory tests (make installcheck-preload-limits) on a server
#      also started with ordered_uuid.max_entries = 4 (and the detailed
#      profile and a history ring of 8 samples on, to bound those too);
#   6. the detailed profile and history tests (make
#      installcheck-preload-detail) on a server started with
#      ordered_uuid.profile_queries, profile_pids and history_size = 500.
# Stops its server on every exit path; exits non-zero if anything failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$OU_ROOT"

pg_config=$1 dir=$2
port=$((54300 + RANDOM % 500))
label=$("$pg_config" --version)

trap 'ou_server_stop "$pg_config" "$dir"' EXIT
failures=0
show_diffs() { [ -f regression.diffs ] && cat regression.diffs; failures=$((failures + 1)); }

ou_log "[$label] build"
ou_use_pg "$pg_config" "-Wall -Werror"
ou_pgtap "$pg_config"

ou_log "[$label] pg_regress"
ou_server_start "$pg_config" "$dir" "$port"
make -s installcheck PG_CONFIG="$pg_config" || show_diffs

ou_log "[$label] pgTAP"
psql -qX -v ON_ERROR_STOP=1 -c 'DROP DATABASE IF EXISTS ou_tap' -c 'CREATE DATABASE ou_tap'
psql -qX -v ON_ERROR_STOP=1 -d ou_tap -c 'CREATE EXTENSION pgtap' -c 'CREATE EXTENSION ordered_uuid'
pg_prove -d ou_tap test/*.sql || failures=$((failures + 1))
ou_server_stop "$pg_config" "$dir"

if [ -n "$(make -s print-preload-tests PG_CONFIG="$pg_config")" ]; then
	ou_log "[$label] pg_regress, shared_preload_libraries = 'ordered_uuid'"
	ou_server_start "$pg_config" "$dir" "$port" "shared_preload_libraries=ordered_uuid"
	make -s installcheck-preload PG_CONFIG="$pg_config" || show_diffs
	ou_server_stop "$pg_config" "$dir"
fi
if [ -n "$(make -s print-preload-limits-tests PG_CONFIG="$pg_config")" ]; then
	ou_log "[$label] pg_regress, preloaded with ordered_uuid.max_entries = 4"
	ou_server_start "$pg_config" "$dir" "$port" "shared_preload_libraries=ordered_uuid" "ordered_uuid.max_entries=4" \
		"ordered_uuid.profile_queries=on" "ordered_uuid.profile_pids=on" "ordered_uuid.history_size=8"
	make -s installcheck-preload-limits PG_CONFIG="$pg_config" || show_diffs
	ou_server_stop "$pg_config" "$dir"
fi
if [ -n "$(make -s print-preload-detail-tests PG_CONFIG="$pg_config")" ]; then
	ou_log "[$label] pg_regress, preloaded with the detailed wait profile and the history on"
	ou_server_start "$pg_config" "$dir" "$port" "shared_preload_libraries=ordered_uuid" \
		"ordered_uuid.profile_queries=on" "ordered_uuid.profile_pids=on" "ordered_uuid.history_size=500"
	make -s installcheck-preload-detail PG_CONFIG="$pg_config" || show_diffs
	ou_server_stop "$pg_config" "$dir"
fi
[ $failures = 0 ]
