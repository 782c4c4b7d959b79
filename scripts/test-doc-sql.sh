#!/usr/bin/env bash
# scripts/test-doc-sql.sh [PG_CONFIG|MAJOR] [WORKDIR] -- every ```sql block of
# README.md and doc/*.md runs as written (scripts/check-doc-sql.py), on a
# fresh server with what the docs assume: the library preloaded with the
# collector on, pg_stat_statements preloaded (doc/collector.md joins it) and
# the per-query profile on.  Called by scripts/test-one.sh for the last
# version (with OU_DOC_SQL_BUILT=1: the extension is installed already); run
# alone it fetches PostgreSQL MAJOR (default 18) and builds and installs the
# extension first.  Stops its server on every exit path.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$OU_ROOT"

pg_config=$(ou_pg_config_arg "${1:-}")
work=${2:-$(mktemp -d /tmp/ou-doc-sql.XXXXXX)}
[ -n "${OU_DOC_SQL_BUILT:-}" ] || ou_use_pg "$pg_config" "-Wall -Werror"
export PATH LD_LIBRARY_PATH
PATH=$("$pg_config" --bindir):$PATH
LD_LIBRARY_PATH=$(ou_libpath "$pg_config")

# a fresh cluster: the pages create roles, which outlive their databases;
# without fsync and with checkpoints far apart, the pages' bulk inserts (a
# million rows in all) take half the time
ou_server_stop "$pg_config" "$work"
rm -rf "$work"
trap 'ou_server_stop "$pg_config" "$work"' EXIT
ou_server_start "$pg_config" "$work" $((55300 + RANDOM % 500)) \
	shared_preload_libraries=ordered_uuid,pg_stat_statements ordered_uuid.profile_queries=on \
	fsync=off max_wal_size=4GB
python3 scripts/check-doc-sql.py "$OU_ROOT"
