#!/usr/bin/env bash
# scripts/test-peers.sh -- ordered_uuid with the real packages of its peers:
# pg_partman 5, TimescaleDB and pg_uuidv7 (test/peers/: pg_regress suites and
# their expected output; the recipes of doc/generators.md and the claims of
# doc/migrating.md).
#
# They run with Debian's PostgreSQL 18 inside a Debian unstable root that
# has postgresql-18, postgresql-server-dev-18, postgresql-18-partman,
# postgresql-18-timescaledb, postgresql-18-pg-uuidv7 and postgresql-18-pgtap:
# ${OU_SID_ROOT:-$(ou_sid_root)} (scripts/lib.sh builds one into the cache).
# The tree is copied into the root, built with its pg_config and installed
# there; a throwaway server runs as the root's postgres user with timescaledb
# preloaded, and is stopped on every exit path.  Needs root (chroot).  Prints
# "peers: skipped (why)" and exits 77 when the root cannot be had; exits 1
# when a suite fails (its diffs are printed and kept in test/peers/results/).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$OU_ROOT"

skip() { ou_log "peers: skipped ($*)"; exit 77; }

[ "$(id -u)" = 0 ] || skip "not root: the Debian unstable root is entered with chroot"
root=${OU_SID_ROOT:-$(ou_sid_root)} || skip "no Debian unstable root: set OU_SID_ROOT or let ou_sid_root build one"
[ -d "$root" ] || skip "no Debian unstable root at $root"
pgbin=/usr/lib/postgresql/18/bin
for f in "$pgbin/initdb" "$pgbin/pg_config" /usr/lib/postgresql/18/lib/timescaledb.so \
	/usr/lib/postgresql/18/lib/pg_uuidv7.so /usr/share/postgresql/18/extension/pg_partman.control; do
	[ -e "$root$f" ] || skip "$root lacks $f (postgresql-18, -server-dev-18, -partman, -timescaledb, -pg-uuidv7)"
done

work=/tmp/ou-peers.$$
dir=$root$work
in_root() { chroot "$root" "$@"; }
as_postgres() { chroot "$root" runuser -u postgres -- "$@"; }
cleanup() {
	[ -f "$dir/data/postmaster.pid" ] && as_postgres "$pgbin/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null 2>&1
	rm -rf "$dir"
}
trap cleanup EXIT
mkdir -p "$dir/src"

ou_log "peers: build in $root with Debian's PostgreSQL 18"
tar -C "$OU_ROOT" --exclude=./.git --exclude=./.cache --exclude='*.o' --exclude='*.so' \
	--exclude=./results --exclude=./tmp_check -cf - . | tar -C "$dir/src" -xf -
in_root sh -c "cd $work/src && make -s clean PG_CONFIG=$pgbin/pg_config >/dev/null 2>&1;
	make -s PG_CONFIG=$pgbin/pg_config PG_CFLAGS='-Wall -Werror' >/dev/null && make -s install PG_CONFIG=$pgbin/pg_config >/dev/null"

ou_log "peers: server with timescaledb preloaded"
in_root chown -R postgres "$work"
as_postgres "$pgbin/initdb" -D "$work/data" -U postgres -E UTF8 --locale=C --auth=trust >"$dir/initdb.log" 2>&1 ||
	{ cat "$dir/initdb.log" >&2; exit 1; }
as_postgres "$pgbin/pg_ctl" -D "$work/data" -l "$work/server.log" -w -t 120 \
	-o "-k $work -p 5499 -c listen_addresses='' -c shared_preload_libraries=timescaledb -c timescaledb.telemetry_level=off" \
	start >/dev/null || { tail -n 30 "$dir/server.log" >&2; exit 1; }

ou_log "peers: pg_partman, TimescaleDB, pg_uuidv7"
status=0
as_postgres /usr/lib/postgresql/18/lib/pgxs/src/test/regress/pg_regress --bindir="$pgbin" \
	--inputdir="$work/src/test/peers" --outputdir="$work/out" --host="$work" --port=5499 \
	peers_partman peers_timescaledb peers_pg_uuidv7 || status=1
if [ $status != 0 ]; then
	cat "$dir/out/regression.diffs" 2>/dev/null || true
	mkdir -p "$OU_ROOT/test/peers/results" && cp -r "$dir/out/." "$OU_ROOT/test/peers/results/" 2>/dev/null || true
fi
exit $status
