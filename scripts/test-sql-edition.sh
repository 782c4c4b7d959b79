#!/usr/bin/env bash
# scripts/test-sql-edition.sh PG_CONFIG WORKDIR -- the SQL edition
# (ordered_uuid_sql, doc/sql-edition.md) on one PostgreSQL, as managed
# services run it: installed by a role that is not a superuser.  Called by
# scripts/test-one.sh after the C edition is built and installed; alone:
# scripts/test-sql-edition.sh 18 (builds and installs the C edition first).
#
#   1. pg_tle, built from its source in ../shared/vendor (pg_tle-*.tar.gz;
#      OU_PGTLE_SRC names another directory) and installed into that
#      PostgreSQL; without the source, the pg_tle part is skipped, and a line
#      says so;
#   2. a server of its own, with pg_tle preloaded when built;
#   3. make installcheck-sql-edition: both editions side by side, the plain
#      file's install, update and refusals, the striped keys, id <@
#      tstzrange, and with pg_tle the package's install and update path;
#   4. 16 sessions at once making striped keys (pgbench), then 16 clients
#      opening a new session for every transaction: no two keys share all
#      but their random bits;
#   5. a session on the process id of one that ended (the next pid forced
#      through /proc/sys/kernel/ns_last_pid, as root): no two keys alike;
#      skipped, saying why, where the next pid cannot be set;
#   6. a table moved between editions with pg_dump and pg_restore, both
#      ways: the default reads the same, the keys are the same.
# Prints one ok / not ok line per check; exits non-zero if one failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$OU_ROOT"

pg_config=$(ou_pg_config_arg "${1:-}")
dir=${2:-/tmp/ordered_uuid_sql_edition}
port=$((56000 + RANDOM % 999))
label=$("$pg_config" --version)
failed=0
ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; failed=$((failed + 1)); }

mkdir -p "$dir"
chmod 755 "$dir"
trap 'ou_server_stop "$pg_config" "$dir/server"' EXIT
if [ -z "${OU_SQL_EDITION_BUILT:-}" ]; then
	ou_log "[$label] SQL edition: building and installing the C edition beside it"
	ou_use_pg "$pg_config" "-Wall -Werror"
else
	export PATH LD_LIBRARY_PATH
	LD_LIBRARY_PATH=$(ou_libpath "$pg_config")
	PATH=$("$pg_config" --bindir):$PATH
fi

# ---- 1. pg_tle from its source --------------------------------------------------
src_dir=${OU_PGTLE_SRC:-$OU_ROOT/../shared/vendor}
tarball=$(ls "$src_dir"/pg_tle-*.tar.gz 2>/dev/null | sort | tail -n 1 || true)
pgtle=
if [ -z "$tarball" ]; then
	ou_log "[$label] SQL edition: pg_tle part skipped: no pg_tle source (pg_tle-*.tar.gz) in $src_dir"
	echo "skipped - pg_tle package and update path (no pg_tle source in $src_dir)"
else
	ou_apt flex bison libkrb5-dev
	t0=$SECONDS
	rm -rf "$dir/pg_tle"
	mkdir -p "$dir/pg_tle"
	tar -xzf "$tarball" -C "$dir/pg_tle" --strip-components=1
	if make -s -C "$dir/pg_tle" PG_CONFIG="$pg_config" >"$dir/pg_tle.log" 2>&1 &&
		ou_sudo make -s -C "$dir/pg_tle" install PG_CONFIG="$pg_config" >>"$dir/pg_tle.log" 2>&1; then
		pgtle=1
		ou_log "[$label] SQL edition: pg_tle built from $(basename "$tarball") in $((SECONDS - t0)) s"
	else
		tail -n 20 "$dir/pg_tle.log" >&2
		not_ok "pg_tle builds from $(basename "$tarball") (log: $dir/pg_tle.log)"
	fi
fi

# ---- 2, 3. a server of its own, the suites --------------------------------------
ou_server_start "$pg_config" "$dir/server" "$port" ${pgtle:+shared_preload_libraries=pg_tle} \
	max_connections=60 fsync=off checkpoint_timeout=1h
mkdir -p "$dir/check"
if make -s installcheck-sql-edition PG_CONFIG="$pg_config" CHECK_DIR="$dir/check" \
	${pgtle:+SQL_EDITION_PGTLE=1} >"$dir/installcheck.log" 2>&1; then
	ok "make installcheck-sql-edition$([ -n "$pgtle" ] && echo " (with pg_tle)")"
else
	cat "$dir/installcheck.log"
	[ -f "$dir/check/sql-edition-out/regression.diffs" ] && cat "$dir/check/sql-edition-out/regression.diffs"
	not_ok "make installcheck-sql-edition"
fi

# A database with both editions: the C edition in c_ed (by the superuser),
# the SQL edition from the plain file in sqled, by a role that owns only it.
db=ou_sqled_sessions owner=ou_sqled_sessions_owner
psql -qX -v ON_ERROR_STOP=1 <<EOF
SET client_min_messages = warning;
DROP DATABASE IF EXISTS $db;
DROP ROLE IF EXISTS $owner;
CREATE ROLE $owner LOGIN;
CREATE DATABASE $db;
\c $db
CREATE SCHEMA c_ed;
GRANT USAGE ON SCHEMA c_ed TO PUBLIC;
CREATE EXTENSION ordered_uuid SCHEMA c_ed;
CREATE SCHEMA sqled AUTHORIZATION $owner;
\c - $owner
SET client_min_messages = warning;
SET search_path = sqled;
\i ordered_uuid_sql.sql
RESET search_path;
RESET client_min_messages;
CREATE TABLE sqled.keys (id uuid, pid int DEFAULT pg_backend_pid(), edition text DEFAULT 'SQL');
EOF
# keys that share all but their random bits (block, stripe, slot, pass), and
# how many sessions made keys
duplicates_of() {
	psql -qXAt -d "$db" -U "$owner" -c "
		SELECT count(*) - count(DISTINCT set_byte(substring(uuid_send(id) FROM 1 FOR 14), 13,
												  get_byte(uuid_send(id), 13) & 252)) || ' ' || count(*)
		  FROM sqled.keys $1"
}

# ---- 4. 16 sessions at once ------------------------------------------------------
cat >"$dir/striped.sql" <<'EOF'
INSERT INTO sqled.keys (id) SELECT sqled.uuid_striped_nextval() FROM generate_series(1, 100);
EOF
if pgbench -n -d "$db" -U "$owner" -c 16 -j 4 -t 100 -f "$dir/striped.sql" >"$dir/pgbench.log" 2>&1 &&
	pgbench -n -C -d "$db" -U "$owner" -c 16 -j 4 -t 40 -f "$dir/striped.sql" >>"$dir/pgbench.log" 2>&1; then
	read -r dups keys <<<"$(duplicates_of "")"
	pids=$(psql -qXAt -d "$db" -U "$owner" -c "SELECT count(DISTINCT pid) FROM sqled.keys")
	if [ "$dups" = 0 ] && [ "$keys" = 224000 ]; then
		ok "16 sessions at once, then 640 short sessions (16 at a time, $pids process ids): $keys striped keys, none sharing all but the random bits"
	else
		not_ok "16 sessions at once: $keys keys (224000 expected), $dups sharing all but the random bits with another"
	fi
else
	cat "$dir/pgbench.log"
	not_ok "16 sessions at once (pgbench failed)"
fi

# ---- 5. a process id used again ---------------------------------------------------
# Session a makes keys and ends; the next pid is set to a's, so that the
# server starts session b on it; b makes keys in the same block.  Tried up
# to 30 times (any process of the machine may take the pid first).
psql -qX -d "$db" -U "$owner" -c "TRUNCATE sqled.keys"
reused=0
make_keys="WITH k AS (INSERT INTO sqled.keys (id) SELECT sqled.uuid_striped_nextval() FROM generate_series(1, 2000)
							WHERE true RETURNING 1)
		   SELECT pg_backend_pid() FROM (SELECT count(*) FROM k) AS n"
if [ "$(id -u)" = 0 ] && [ -w /proc/sys/kernel/ns_last_pid ]; then
	for i in $(seq 30); do
		a=$(psql -qXAt -d "$db" -U "$owner" -c "$make_keys")
		# the processes forked before the server forks b: psql (and head),
		# perhaps a subshell; one to four of them, tried in turn
		echo $((a - 1 - i % 4)) >/proc/sys/kernel/ns_last_pid 2>/dev/null || break
		b=$(psql -qXAt -d "$db" -U "$owner" -c "${make_keys/WHERE true/WHERE pg_backend_pid() = $a}")
		[ "$b" = "$a" ] && reused=$((reused + 1))
		[ $reused -ge 5 ] && break
	done
	read -r dups keys <<<"$(duplicates_of "WHERE pid IN (SELECT pid FROM sqled.keys GROUP BY pid HAVING count(*) > 2000)")"
	if [ $reused = 0 ]; then
		echo "skipped - successive sessions on one process id (the next pid was taken by another process each time)"
	elif [ "$dups" = 0 ]; then
		ok "successive sessions on one process id ($reused times): $keys keys, none sharing all but the random bits"
	else
		not_ok "successive sessions on one process id: $dups of $keys keys share all but the random bits with another"
	fi
else
	echo "skipped - successive sessions on one process id (needs root and a writable /proc/sys/kernel/ns_last_pid)"
fi

# ---- 6. a table moved between editions with pg_dump and pg_restore ---------------
# A table whose default calls ordered_uuid.uuid_striped_nextval(), dumped
# from a database with one edition in schema ordered_uuid and restored into
# one with the other edition in a schema of that name, and back.
for from_to in "sql c" "c sql"; do
	read -r from to <<<"$from_to"
	for side in "$from" "$to"; do
		psql -qX -v ON_ERROR_STOP=1 <<EOF
SET client_min_messages = warning;
DROP DATABASE IF EXISTS ou_move_$side;
CREATE DATABASE ou_move_$side OWNER $owner;
\c ou_move_$side
CREATE SCHEMA ordered_uuid AUTHORIZATION $owner;
GRANT USAGE ON SCHEMA ordered_uuid TO PUBLIC;
EOF
		if [ "$side" = c ]; then
			psql -qX -d "ou_move_$side" -c "CREATE EXTENSION ordered_uuid SCHEMA ordered_uuid" >/dev/null
		else
			psql -qX -v ON_ERROR_STOP=1 -d "ou_move_$side" -U "$owner" -c "SET client_min_messages = warning" \
				-c "SET search_path = ordered_uuid" -f ordered_uuid_sql.sql >/dev/null
		fi
	done
	psql -qX -v ON_ERROR_STOP=1 -d "ou_move_$from" -U "$owner" \
		-c "CREATE TABLE public.orders (id uuid PRIMARY KEY DEFAULT ordered_uuid.uuid_striped_nextval(), n int)" \
		-c "INSERT INTO public.orders (n) SELECT g FROM generate_series(1, 1000) g"
	pg_dump -Fc -d "ou_move_$from" -U "$owner" -t public.orders -f "$dir/orders.dump"
	pg_restore -d "ou_move_$to" -U "$owner" --no-owner "$dir/orders.dump"
	psql -qX -v ON_ERROR_STOP=1 -d "ou_move_$to" -U "$owner" -c "INSERT INTO public.orders (n) SELECT g FROM generate_series(1001, 2000) g"
	q="SELECT pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d WHERE d.adrelid = 'public.orders'::regclass"
	k="SELECT md5(string_agg(id::text, ',' ORDER BY n)) FROM public.orders WHERE n <= 1000"
	if [ "$(psql -qXAt -d "ou_move_$from" -c "$q")" = "$(psql -qXAt -d "ou_move_$to" -c "$q")" ] &&
		[ "$(psql -qXAt -d "ou_move_$from" -c "$k")" = "$(psql -qXAt -d "ou_move_$to" -c "$k")" ] &&
		[ "$(psql -qXAt -d "ou_move_$to" -c "SELECT count(DISTINCT id) FROM public.orders")" = 2000 ]; then
		ok "a table moved from the $from edition to the $to edition (pg_dump, pg_restore): the same default, the same keys, new keys made"
	else
		not_ok "a table moved from the $from edition to the $to edition (pg_dump, pg_restore)"
	fi
	psql -qX -c "DROP DATABASE ou_move_$from" -c "DROP DATABASE ou_move_$to"
done
psql -qX -c "DROP DATABASE $db" -c "DROP ROLE $owner"

ou_server_stop "$pg_config" "$dir/server"
[ $failed = 0 ] || ou_log "[$label] SQL edition: $failed check(s) failed"
[ $failed = 0 ]
