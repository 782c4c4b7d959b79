#!/usr/bin/env bash
# scripts/test-pgxn.sh PG_CONFIG WORKDIR -- the release bundle as a user gets
# it, driven by the real PGXN client (called by scripts/test.sh for one
# PostgreSQL; it can also run alone after scripts/test-one.sh).
#
#   1. make dist: the bundle of the committed tree plus uncommitted changes to
#      tracked files (git stash create), holding no development-only files,
#      and every file its Markdown pages link to or embed;
#   2. pgxn install BUNDLE: library, control file and install script appear in
#      that PostgreSQL (the working tree's copy is removed first);
#   3. pgxn load BUNDLE: the extension exists in the database, at our version;
#   4. pgxn unload BUNDLE: it no longer does;
#   5. pgxn uninstall BUNDLE: the files are gone again.
# Every step is checked by looking at its result, never by the client's exit
# status alone: `pgxn load` and `pgxn unload` exit 0 when they skip an
# extension, and when the CREATE EXTENSION they pipe into psql fails.
# Last, the working tree's build is installed again.  Exits non-zero if
# anything failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$OU_ROOT"

pg_config=$1 dir=$2
port=$((54800 + RANDOM % 500))
label=$("$pg_config" --version)
# the extension's (SQL) version, and the release's (the bundle's name)
version=$(sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p" ordered_uuid.control)
release=$(sed -n 's/^RELEASE = *//p' Makefile)
pgxn=$(ou_pgxnclient)
export PATH LD_LIBRARY_PATH
LD_LIBRARY_PATH=$(ou_libpath "$pg_config")
PATH=$("$pg_config" --bindir):$PATH

trap 'ou_server_stop "$pg_config" "$dir/server"' EXIT
failures=0
fail() { ou_log "[$label] pgxn: FAIL: $*"; failures=$((failures + 1)); }
step() { ou_log "[$label] pgxn: $*"; }

sharedir=$("$pg_config" --sharedir)/extension
pkglibdir=$("$pg_config" --pkglibdir)
installed=("$sharedir/ordered_uuid.control" "$sharedir/ordered_uuid--$version.sql"
	"$pkglibdir/ordered_uuid.so")
# count_installed: how many of the installed files exist
count_installed() { local f n=0; for f in "${installed[@]}"; do [ -e "$f" ] && n=$((n + 1)); done; echo $n; }

mkdir -p "$dir"
zip=$dir/ordered_uuid-$release.zip
ref=$(git stash create 2>/dev/null || true)
step "make dist"
make -s dist PG_CONFIG="$pg_config" DIST_REF="${ref:-HEAD}" DIST_ZIP="$zip" >/dev/null ||
	ou_die "make dist failed"
listing=$(python3 -m zipfile -l "$zip" | awk 'NR > 1 { print $1 }')
for f in META.json Makefile ordered_uuid.control README.md LICENSE; do
	grep -qx "ordered_uuid-$release/$f" <<<"$listing" || fail "the bundle lacks $f"
done
# development-only files stay out (.gitattributes export-ignore)
dev=$(grep -E '/(\.ci/|\.editorconfig$|\.gitignore$|\.gitattributes$)|\.png$' <<<"$listing" || true)
[ -z "$dev" ] || fail "the bundle carries development-only files: $(echo $dev)"
# nothing outside the one top directory PGXN expects
stray=$(grep -v "^ordered_uuid-$release/" <<<"$listing" || true)
[ -z "$stray" ] || fail "the bundle has files outside ordered_uuid-$release/: $(echo $stray)"

# every relative link and image of every Markdown page resolves inside the bundle
broken=$(python3 "$OU_ROOT/scripts/check-links.py" "$zip") || fail "the bundle's pages link to files it lacks: $broken"

# the client's own run must put the files there, not an earlier make install
ou_sudo make -s uninstall PG_CONFIG="$pg_config" >/dev/null
[ "$(count_installed)" = 0 ] || ou_die "make uninstall left ordered_uuid files in $label"
sudo_opt=()
[ "$(id -u)" = 0 ] || sudo_opt=(--sudo)

step "pgxn install"
"$pgxn" install "${sudo_opt[@]}" --pg_config "$pg_config" "$zip" >"$dir/install.log" 2>&1 ||
	{ tail -n 20 "$dir/install.log" >&2; fail "pgxn install exited non-zero"; }
[ "$(count_installed)" = ${#installed[@]} ] ||
	fail "after pgxn install, $(count_installed) of ${#installed[@]} files are installed: ${installed[*]}"

ou_server_start "$pg_config" "$dir/server" "$port"
extversion() { psql -qXtA -c "SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'ordered_uuid'"; }
step "pgxn load"
"$pgxn" load --pg_config "$pg_config" -d postgres "$zip" </dev/null >"$dir/load.log" 2>&1 ||
	{ cat "$dir/load.log" >&2; fail "pgxn load exited non-zero"; }
v=$(extversion)
[ "$v" = "$version" ] || { cat "$dir/load.log" >&2; fail "after pgxn load the extension is at '$v', not $version"; }
[ "$(psql -qXtA -c 'SELECT uuid_v7_time(uuid_v7_nextval()) IS NOT NULL')" = t ] ||
	fail "after pgxn load, uuid_v7_nextval() does not work"
step "pgxn unload"
"$pgxn" unload --pg_config "$pg_config" -d postgres "$zip" </dev/null >"$dir/unload.log" 2>&1 ||
	{ cat "$dir/unload.log" >&2; fail "pgxn unload exited non-zero"; }
v=$(extversion)
[ -z "$v" ] || { cat "$dir/unload.log" >&2; fail "after pgxn unload the extension is still there ($v)"; }
ou_server_stop "$pg_config" "$dir/server"

step "pgxn uninstall"
"$pgxn" uninstall "${sudo_opt[@]}" --pg_config "$pg_config" "$zip" >"$dir/uninstall.log" 2>&1 ||
	{ tail -n 20 "$dir/uninstall.log" >&2; fail "pgxn uninstall exited non-zero"; }
[ "$(count_installed)" = 0 ] || fail "after pgxn uninstall, $(count_installed) ordered_uuid files are still installed"

# leave that PostgreSQL as scripts/test-one.sh left it
ou_sudo make -s install PG_CONFIG="$pg_config" >/dev/null
[ $failures = 0 ]
