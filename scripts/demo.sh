#!/usr/bin/env bash
# scripts/demo.sh -- see ordered_uuid at work, from nothing.
#
# Builds and installs the extension into PostgreSQL (the one PG_CONFIG names,
# or else a PostgreSQL 18 build it fetches), starts a throwaway server, runs
# scripts/demo.sql (the generators, then random vs ordered keys side by side)
# and stops the server again.  DEMO_ROWS sets the size of the comparison.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$OU_ROOT"

ou_base_deps
pg_config=${PG_CONFIG:-$(ou_fetch_pg "${PG_VERSION:-$OU_DEFAULT_VERSION}")}
ou_log "building for $("$pg_config" --version)"
make -s PG_CONFIG="$pg_config" >/dev/null
ou_sudo make -s install PG_CONFIG="$pg_config" >/dev/null

dir=$(mktemp -d /tmp/ordered_uuid_demo.XXXXXX)
chmod 755 "$dir"
trap 'ou_server_stop "$pg_config" "$dir"; rm -rf "$dir"' EXIT
ou_server_start "$pg_config" "$dir" $((55400 + RANDOM % 500)) \
	shared_buffers=128MB max_wal_size=4GB checkpoint_timeout=30min
export LD_LIBRARY_PATH
LD_LIBRARY_PATH=$(ou_libpath "$pg_config")
"$("$pg_config" --bindir)/psql" -X -q -v ON_ERROR_STOP=1 -v rows="${DEMO_ROWS:-1000000}" -f scripts/demo.sql
