#!/usr/bin/env bash
# scripts/test-stock.sh -- the tests as a user runs them against the
# distribution's own PostgreSQL (called once by scripts/test.sh; it can also
# run alone).
#
# On Debian and Ubuntu: installs the distribution's PostgreSQL (Debian 12:
# postgresql-15 and postgresql-server-dev-15) with apt if it is missing, creates a throwaway cluster with
# pg_createcluster on a private port and socket directory, without TCP
# (listen_addresses = ''; the distribution's default pg_hba.conf: peer
# authentication on the local socket), builds and installs
# the extension and the test module with that PostgreSQL's pg_config, then as
# the operating-system user postgres runs
#
#   1. make installcheck (database contrib_regression), and
#   2. pgxn check -d ou_stock_check on the source directory (the PGXN
#      client runs make installcheck with another database name).
#
# On every exit path it drops the cluster and uninstalls what it installed.
# Installs into the system's PostgreSQL: needs root or sudo; a second run on
# the same machine, or scripts/build-deb.sh, waits for the first.  Exits non-zero
# if anything failed.  STOCK_MAJOR=NN picks another major apt can install.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$OU_ROOT"

command -v apt-get >/dev/null ||
	ou_die "the stock-server test needs a Debian or Ubuntu system (apt-get, pg_createcluster)"
major=$(ou_stock_major)
[ "$major" -ge 14 ] ||
	ou_die "the distribution ships PostgreSQL $major, older than 14, the oldest ordered_uuid supports: set STOCK_MAJOR (a major apt can install) or OU_SKIP_STOCK=1"
pg_config=/usr/lib/postgresql/$major/bin/pg_config
cluster=ou_stock_$$
label="stock PostgreSQL $major"
dbname=ou_stock_check

# The test installs into the system's PostgreSQL: two runs at once on one
# machine (or a run and scripts/build-deb.sh) would overwrite each other's
# files.  The second waits for the first (the lock goes with the process).
ou_stock_lock "$label"

ou_apt make gcc libc6-dev postgresql-$major postgresql-server-dev-$major
pkg=postgresql-$major-ordered-uuid
[ -z "$(ou_apt_missing "$pkg")" ] &&
	ou_die "[$label] the package $pkg is installed, and this test would install over its files: remove it first (apt-get remove $pkg)"
pgxn=$(ou_pgxnclient)

# a clean environment: nothing of the caller's PG* settings or PyPI builds
# (PGHOST, the cluster's private socket directory, is added below)
postgres_env=(env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/var/lib/postgresql LANG=C.UTF-8)

work=$(mktemp -d /tmp/ordered_uuid_stock.XXXXXX)
cleanup() {
	local rc=$?
	# our conf.d file first: pg_dropcluster removes only the files it made
	ou_sudo rm -f "/etc/postgresql/$major/$cluster/conf.d/ou_private.conf"
	ou_sudo pg_dropcluster --stop "$major" "$cluster" >/dev/null 2>&1 || true
	if [ -f "$work/src/Makefile" ]; then
		ou_sudo make -s -C "$work/src" uninstall-test-module PG_CONFIG="$pg_config" >/dev/null 2>&1 || true
		ou_sudo make -s -C "$work/src" uninstall PG_CONFIG="$pg_config" >/dev/null 2>&1 || true
	fi
	[ -n "${KEEP_WORK:-}" ] || ou_sudo rm -rf "$work"
	exit $rc
}
trap cleanup EXIT
chmod 755 "$work"

# A copy of the working tree that the user postgres can read and write
# results into.
ou_copy_tree "$work/src"

ou_log "[$label] build and install (pg_config $pg_config)"
make -s -C "$work/src" PG_CONFIG="$pg_config" >/dev/null
make -s -C "$work/src/test/module" PG_CONFIG="$pg_config" >/dev/null
ou_sudo make -s -C "$work/src" install install-test-module PG_CONFIG="$pg_config" >/dev/null
# The PGXN client's package, where the user postgres can read it (the
# client's virtual environment may sit where it cannot, or use a Python
# only its owner can run), to run with the system's Python.
python=/usr/bin/python3
[ -x "$python" ] || python=python3
mkdir "$work/py"
"$(dirname "$pgxn")/python" -c 'import os, pgxnclient, six; print(os.path.dirname(pgxnclient.__file__)); print(six.__file__)' |
	xargs -I{} cp -r {} "$work/py/"
ou_sudo chown -R postgres "$work/src"

# No TCP, and a private socket directory (the tests connect through PGHOST):
# nothing else on the machine reaches the cluster.  A port no other cluster
# has, since pg_lsclusters lists them all.
port=$(ou_free_cluster_port 55400)
sock=$work/sock
mkdir "$sock"
ou_sudo chown postgres "$sock"
ou_log "[$label] pg_createcluster $major $cluster -p $port, socket in $sock only (default pg_hba.conf: peer on the local socket)"
ou_sudo pg_createcluster "$major" "$cluster" -p "$port" -s "$sock" --locale=C -e UTF8 --start-conf=manual \
	>"$work/createcluster.log" 2>&1 || { cat "$work/createcluster.log" >&2; ou_die "[$label] pg_createcluster failed"; }
# (pg_createcluster -o would quote the empty value once more: a file in
# conf.d, which Debian's postgresql.conf includes; cleanup removes it)
echo "listen_addresses = ''" | ou_sudo tee "/etc/postgresql/$major/$cluster/conf.d/ou_private.conf" >/dev/null
ou_sudo pg_ctlcluster "$major" "$cluster" start ||
	{ ou_sudo tail -n 20 "/var/log/postgresql/postgresql-$major-$cluster.log" >&2; ou_die "[$label] the cluster did not start"; }

failures=0
diffs() {
	ou_log "[$label] FAIL: $1"
	local f
	for f in regression.diffs output_iso/regression.diffs; do
		[ -f "$work/src/$f" ] && head -n 200 "$work/src/$f" >&2
	done
	failures=$((failures + 1))
}

ou_log "[$label] make installcheck, as the user postgres"
# pg_regress and pg_isolation_regress apart (make stops at the first that fails)
(cd "$work/src" && ou_as_postgres "${postgres_env[@]}" PGHOST="$sock" PGPORT="$port" make -s installcheck PG_CONFIG="$pg_config" ISOLATION=) ||
	diffs "make installcheck (pg_regress)"
(cd "$work/src" && ou_as_postgres "${postgres_env[@]}" PGHOST="$sock" PGPORT="$port" make -s installcheck PG_CONFIG="$pg_config" REGRESS=) ||
	diffs "make installcheck (isolation)"

ou_log "[$label] pgxn check -d $dbname, as the user postgres"
ou_sudo rm -f "$work/src/regression.diffs" "$work/src/output_iso/regression.diffs"
(cd "$work/src" && ou_as_postgres "${postgres_env[@]}" PGHOST="$sock" PGPORT="$port" PYTHONPATH="$work/py" "$python" -c \
	'import sys; from pgxnclient.cli import script; sys.argv[0] = "pgxn"; sys.exit(script())' \
	check --pg_config "$pg_config" -d "$dbname" "$work/src") || diffs "pgxn check -d $dbname"

[ $failures = 0 ] && ou_log "[$label] PASS"
[ $failures = 0 ]
