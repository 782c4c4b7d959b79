#!/usr/bin/env bash
# bench/library_ab.sh -- two builds of the library side by side in one server:
# bench_insert's figures with each, the calls interleaved (A B, B A, A B, ...)
# so that a noisy machine's drift hits both alike.
#
#   bench/library_ab.sh OLD.so [NEW.so]
#
# OLD.so and NEW.so are ordered_uuid.so files built for the same PostgreSQL
# (NEW.so: the library of this checkout, built and installed here).  The
# benchmark's workers are new processes and load the library from disk, so
# each call runs the generators of the build installed at its start.
#
# Environment (all optional):
#   PG_MAJOR=18        PostgreSQL major version (a relocatable PyPI build, see scripts/lib.sh)
#   REPEATS=5          calls per build
#   CLIENTS="1 2"      bench_insert(clients => ...), each in turn
#   ROWS=1000000       bench_insert(rows => ...); rows_per_xact is 100
#   GENERATORS="ARRAY['uuid_striped_nextval()', 'uuid_v7_nextval()']"
#   DIR=/tmp/library-ab-$PG_MAJOR  PORT=5691   the server
#   OUT=bench/out/library_ab.csv   one row per generator and call
# Prints, per build, client count and generator, the median rows/s with its
# minimum and maximum, WAL bytes/row and leaf density, and the median (min-max)
# of the per-call ratio of the first generator to the second.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
cd "$OU_ROOT"

old=${1:?usage: bench/library_ab.sh OLD.so [NEW.so]}
major=${PG_MAJOR:-18} repeats=${REPEATS:-5} clients_list=${CLIENTS:-1 2} rows=${ROWS:-1000000}
generators=${GENERATORS:-"ARRAY['uuid_striped_nextval()', 'uuid_v7_nextval()']"}
dir=${DIR:-/tmp/library-ab-$major} port=${PORT:-5691} out=${OUT:-bench/out/library_ab.csv}

pg_config=$(ou_fetch_pg "$major")
ou_use_pg "$pg_config"
lib=$("$pg_config" --pkglibdir)/ordered_uuid.so
new=${2:-}
if [ -z "$new" ]; then
	new=$(mktemp --suffix=.so)
	cp "$lib" "$new"
fi
trap 'use "$new"; ou_server_stop "$pg_config" "$dir"' EXIT
ou_server_start "$pg_config" "$dir" "$port" max_wal_size=8GB checkpoint_timeout=30min
psql -qX -c 'CREATE EXTENSION IF NOT EXISTS ordered_uuid'

# install a build atomically: processes that run have the old file mapped
use() { cp "$1" "$lib.ab" && chmod 755 "$lib.ab" && mv "$lib.ab" "$lib"; }

mkdir -p "$(dirname "$out")"
echo "build,clients,call,generator,rows_per_sec,wal_bytes_per_row,avg_leaf_density" >"$out"
for clients in $clients_list; do
	for ((i = 1; i <= repeats; i++)); do
		order="old new"
		[ $((i % 2)) = 0 ] && order="new old"
		for build in $order; do
			if [ "$build" = old ]; then use "$old"; else use "$new"; fi
			psql -qXAt -F, -c "SELECT '$build', $clients, $i, generator, rows_per_sec, wal_bytes_per_row, avg_leaf_density
				FROM bench_insert($generators, rows => $rows, clients => $clients, rows_per_xact => 100)" >>"$out"
		done
	done
done
python3 - "$out" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def spread(v):
    return f"{statistics.median(v):,.0f} ({min(v):,.0f}-{max(v):,.0f})"
keys = sorted({(r['build'], r['clients']) for r in rows}, key=lambda k: (k[1], k[0]))
gens = list(dict.fromkeys(r['generator'] for r in rows))
print(f"| build | clients | generator | rows/s median (min-max) | WAL B/row | density % | runs |")
print("|---|---:|---|---:|---:|---:|---:|")
for b, c in keys:
    for g in gens:
        sel = [r for r in rows if (r['build'], r['clients'], r['generator']) == (b, c, g)]
        rps = [float(r['rows_per_sec']) for r in sel]
        print(f"| {b} | {c} | {g} | {spread(rps)} | {statistics.median(float(r['wal_bytes_per_row']) for r in sel):.1f} "
              f"| {statistics.median(float(r['avg_leaf_density']) for r in sel):.2f} | {len(sel)} |")
if len(gens) >= 2:
    print()
    print(f"| build | clients | {gens[0]} / {gens[1]} per call: median (min-max) |")
    print("|---|---:|---:|")
    for b, c in keys:
        calls = {}
        for r in rows:
            if (r['build'], r['clients']) == (b, c):
                calls.setdefault(r['call'], {})[r['generator']] = float(r['rows_per_sec'])
        ratios = [v[gens[0]] / v[gens[1]] for v in calls.values() if len(v) >= 2]
        print(f"| {b} | {c} | {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f}) |")
PY
