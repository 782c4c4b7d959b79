#!/usr/bin/env bash
# scripts/demo.sh -- `make demo`: build ordered_uuid, start a throwaway
# PostgreSQL (the one PG_CONFIG names, else a PostgreSQL 18 build it fetches;
# DEMO_PG=14..18 to choose another), show the generators, and compare primary-key
# generators with one call of bench_insert (scenario S1 of doc/scenarios.md:
# uuid_striped_nextval(), the default the README recommends, uuid_v7_nextval()
# and gen_random_uuid()): a prefilled table per generator, then measured
# single-row inserts committed in batches.
# Prints the comparison table and a reading of it.  On 2 cores, with the
# PostgreSQL build fetched before: 13 s at a load of 3-4 (12-19 s, 6 runs),
# 23 s at 6-7 (19-29 s, 4 runs), most of it the build (doc/install.md).
# What it runs is scripts/demo.sql.  It builds in a copy of the working tree,
# so that it can run beside make test in the same checkout.
#
#   DEMO_ROWS     measured inserts per generator        (default 100000)
#   DEMO_PREFILL  rows already in each table            (default 300000)
#   DEMO_CLIENTS  concurrent inserting workers          (default 2)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$OU_ROOT"

ou_base_deps
pg_config=${PG_CONFIG:-$(ou_fetch_pg "${DEMO_PG:-$OU_DEFAULT_VERSION}")}

dir=$(mktemp -d /tmp/ordered_uuid_demo.XXXXXX)
chmod 755 "$dir"
trap 'ou_server_stop "$pg_config" "$dir"; rm -rf "$dir"' EXIT
# built in a copy of the working tree: a make test running in the checkout
# keeps its build outputs (no make clean under it)
ou_log "build (in $dir/src) and install into $("$pg_config" --version)"
ou_copy_tree "$dir/src"
ou_use_pg "$pg_config" "" "$dir/src"
# a small buffer cache, so that a random key's index outgrows it quickly
ou_server_start "$pg_config" "$dir" $((55800 + RANDOM % 100)) shared_buffers=16MB max_wal_size=4GB

ou_log "bench_insert: ${DEMO_ROWS:-100000} rows per generator into tables of ${DEMO_PREFILL:-300000} rows, ${DEMO_CLIENTS:-2} clients"
psql -qX -v ON_ERROR_STOP=1 \
	-v rows="${DEMO_ROWS:-100000}" -v prefill="${DEMO_PREFILL:-300000}" -v clients="${DEMO_CLIENTS:-2}" \
	-f scripts/demo.sql
