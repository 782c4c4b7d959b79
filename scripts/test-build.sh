#!/usr/bin/env bash
# scripts/test-build.sh PG_CONFIG_A PG_CONFIG_B WORKDIR -- the Makefile as a
# user drives it, in a copy of the working tree (called by scripts/test.sh
# with the first and the last version; it can also run alone).
#
#   1. make for A, then make PG_CONFIG=B: every object is compiled again, so
#      that a build for one PostgreSQL is never installed into another; a
#      second make for B compiles nothing;
#   2. make install into a DESTDIR, then make uninstall: no file is left
#      there (the library, the SQL scripts, the monitoring files).
# Exits non-zero if anything failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$OU_ROOT"

pg_a=$1 pg_b=$2 dir=$3
label="$("$pg_a" --version) then $("$pg_b" --version)"
failures=0
fail() { ou_log "[$label] build: FAIL: $*"; failures=$((failures + 1)); }

rm -rf "$dir"
mkdir -p "$dir/tree" "$dir/dest"
git ls-files -z -co --exclude-standard | tar --null -T - -cf - | tar -C "$dir/tree" -xf -
cd "$dir/tree"
sources=$(ls src/*.c | wc -l)
# compiled PG_CONFIG: how many of src/*.c a make for that PostgreSQL compiles
compiled() { make PG_CONFIG="$1" 2>&1 | grep -c -- ' -c -o src/.*\.o ' || true; }

ou_log "[$label] build: a build for one version, then make for the other"
n=$(compiled "$pg_a")
[ "$n" = "$sources" ] || fail "the first build compiled $n of $sources C files"
n=$(compiled "$pg_b")
[ "$n" = "$sources" ] || fail "make PG_CONFIG=$pg_b after a build for $pg_a compiled $n of $sources C files"
n=$(compiled "$pg_b")
[ "$n" = 0 ] || fail "a second make for $pg_b compiled $n C files again"

ou_log "[$label] build: make install, then make uninstall, into a DESTDIR"
make -s install PG_CONFIG="$pg_b" DESTDIR="$dir/dest" >/dev/null
[ -n "$(find "$dir/dest" -type f -name '*.yaml')" ] || fail "make install put no monitoring file into the DESTDIR"
make -s uninstall PG_CONFIG="$pg_b" DESTDIR="$dir/dest" >/dev/null
left=$(cd "$dir/dest" && find . -type f)
[ -z "$left" ] || fail "make uninstall left these files: $(echo $left)"
[ $failures = 0 ]
