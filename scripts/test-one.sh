#!/usr/bin/env bash
# scripts/test-one.sh PG_CONFIG WORKDIR -- build, install and test against one
# PostgreSQL (called by scripts/test.sh, once per version).
#
#   1. build with -Wall -Werror and install, with the test module;
#   2. pg_regress (make installcheck) on a server without the library preloaded;
#   3. the pgTAP tests (test/*.sql) with pg_prove, on the same server;
#   4. the suites and specs that need settings of their own (make
#      installcheck-preload): pg_regress or pg_isolation_regress starts a
#      temporary instance for each, with its settings from sql/NAME.conf or
#      specs/NAME.conf;
#   5. the lifecycle checks (scripts/test-lifecycle.sh): restart, crash,
#      standby and promotion with real servers;
#   6. the SQL edition (scripts/test-sql-edition.sh): its suites beside the C
#      edition on a server of its own, with pg_tle built from
#      ../shared/vendor where that source is (a line says when it is not);
#   7. with OU_MONITORING set (scripts/test.sh: the last version), the
#      monitoring files end to end (scripts/test-monitoring.sh), and every
#      sql block of README.md and doc/*.md (scripts/test-doc-sql.sh).
# Stops its server on every exit path; exits non-zero if anything failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$OU_ROOT"

pg_config=$1 dir=$2
port=$((54300 + RANDOM % 500))
label=$("$pg_config" --version)

trap 'ou_server_stop "$pg_config" "$dir"' EXIT
failures=0
failed_parts=()
# show_diffs PART FILE...: print the regression diffs that exist, and count
# PART (with the names of the tests whose diffs these are) as failed
show_diffs() {
	local part=$1 f tests=()
	shift
	for f in "$@"; do
		[ -f "$f" ] || continue
		cat "$f"
		tests+=($(sed -n 's|^diff .*/expected/\([^/ ]*\)\.out .*|\1|p' "$f" | sort -u))
	done
	failures=$((failures + 1))
	failed_parts+=("$part${tests[*]:+ (${tests[*]})}")
}

ou_log "[$label] build"
ou_use_pg "$pg_config" "-Wall -Werror"
make -s -C test/module PG_CONFIG="$pg_config" PG_CFLAGS="-Wall -Werror" >/dev/null
ou_sudo make -s install-test-module PG_CONFIG="$pg_config" >/dev/null
ou_pgtap "$pg_config"

ou_log "[$label] pg_regress"
ou_server_start "$pg_config" "$dir" "$port"
# pg_regress and pg_isolation_regress apart: make installcheck stops at the
# first that fails, so one failed suite would hide the specs
make -s installcheck PG_CONFIG="$pg_config" ISOLATION= ||
	show_diffs "make installcheck (pg_regress)" regression.diffs
make -s installcheck PG_CONFIG="$pg_config" REGRESS= ||
	show_diffs "make installcheck (isolation)" output_iso/regression.diffs

ou_log "[$label] pgTAP"
psql -qX -v ON_ERROR_STOP=1 -c 'DROP DATABASE IF EXISTS ou_tap' -c 'CREATE DATABASE ou_tap'
psql -qX -v ON_ERROR_STOP=1 -d ou_tap -c 'CREATE EXTENSION pgtap' -c 'CREATE EXTENSION ordered_uuid'
pg_prove -d ou_tap test/*.sql || { failures=$((failures + 1)); failed_parts+=(pgTAP); }
ou_server_stop "$pg_config" "$dir"

# pg_regress's temporary instances run as the user who runs it, which must
# not be root: as root, run it as the server user, from a copy of the tree
# when that user cannot read the checkout (say, under /root).
ou_log "[$label] pg_regress and pg_isolation_regress, preloaded suites and specs, each in a temporary instance"
tree=$OU_ROOT check=$dir/check
mkdir -p "$check"
if [ "$(id -u)" = 0 ]; then
	chown "$OU_SERVER_USER" "$check"
	if ! ou_as_server_user test -r "$OU_ROOT/Makefile" -a -x "$OU_ROOT/sql"; then
		tree=$dir/tree
		mkdir -p "$tree"
		tar -C "$OU_ROOT" --exclude=./.git --exclude=./.cache -cf - . | tar -C "$tree" -xf -
		chown -R "$OU_SERVER_USER" "$tree"
	fi
fi
(cd "$tree" && ou_as_server_user env PATH="$PATH" LD_LIBRARY_PATH="$LD_LIBRARY_PATH" \
	make -s installcheck-preload PG_CONFIG="$pg_config" CHECK_DIR="$check") || {
	# the server logs of the failed suites only, then their diffs
	for diffs in "$check"/*-out/regression.diffs; do
		log=${diffs%/regression.diffs}/log/postmaster.log
		[ -f "$log" ] && { echo "--- $log (tail)"; tail -n 20 "$log"; }
	done
	show_diffs "preloaded suites" "$check"/*-out/regression.diffs
}

ou_log "[$label] lifecycle: restart, crash, standby, promotion"
OU_LIFECYCLE_BUILT=1 "$OU_ROOT/scripts/test-lifecycle.sh" "$pg_config" "$dir/lifecycle" ||
	{ failures=$((failures + 1)); failed_parts+=(lifecycle); }
ou_log "[$label] SQL edition: installed by a role that is not a superuser, beside the C edition, and through pg_tle"
OU_SQL_EDITION_BUILT=1 "$OU_ROOT/scripts/test-sql-edition.sh" "$pg_config" "$dir/sql-edition" ||
	{ failures=$((failures + 1)); failed_parts+=("SQL edition"); }
# on one version (scripts/test.sh sets OU_MONITORING for the last)
if [ -n "${OU_MONITORING:-}" ]; then
	ou_log "[$label] monitoring: the exporter's queries, the alert rules and the dashboard through a real exporter and Prometheus"
	OU_MONITORING_BUILT=1 "$OU_ROOT/scripts/test-monitoring.sh" "$pg_config" "$dir/monitoring" ||
		{ failures=$((failures + 1)); failed_parts+=(monitoring); }
	ou_log "[$label] docs: every sql block of README.md and doc/*.md runs"
	OU_DOC_SQL_BUILT=1 "$OU_ROOT/scripts/test-doc-sql.sh" "$pg_config" "$dir/doc-sql" ||
		{ failures=$((failures + 1)); failed_parts+=("doc SQL"); }
fi
# what failed, in one line that the end of a long log still shows
if [ $failures != 0 ]; then
	(IFS=';'; echo "${failed_parts[*]}" | sed 's/;/; /g') >"$dir/failed"
	ou_log "[$label] failed: $(cat "$dir/failed")"
fi
[ $failures = 0 ]
