#!/usr/bin/env bash
# bench/density.sh -- leaf density of a primary-key index filled by concurrent sessions, per key
# generator, on every supported PostgreSQL version.
#
#   bench/density.sh
#
# For each version and each number of sessions, each generator gets a fresh table
# (id <key> PRIMARY KEY, payload int) into which pgbench -c SESSIONS -t ROWS/SESSIONS inserts ROWS
# single-row transactions; then avg_leaf_density comes from index_shape() and from pgstattuple's
# pgstatindex(), with the leaf page count.  Besides the extension's generators, `stripes_ascending`
# is the layout uuid_striped_nextval would have without its fill slots (block, a stripe per session,
# then an ascending counter): it shows what the B-tree's 50:50 split of non-rightmost leaves does
# to ascending inserts in the middle of an index.
#
# Knobs (environment): VERSIONS ("14 15 16 17 18"), SESSIONS ("1 4 8"), ROWS (80000),
# GENERATORS (random v7 time striped stripes_ascending; or name=expression), RATES (pgbench -R: total
# rows per second, one point per value; to see how uuid_striped_nextval packs when each session
# makes few rows per block; default: no limit), OUT (bench/out), NAME (density), BENCH_WORK, KEEP_WORK, MACHINE_NOTE.  Writes
# OUT/NAME.csv and prints a markdown table.
set -euo pipefail
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib.sh
. "$BENCH/../scripts/lib.sh"
# shellcheck source=bench/common.sh
. "$BENCH/common.sh"

VERSIONS=${VERSIONS:-$OU_ALL_VERSIONS}
SESSIONS=${SESSIONS:-"1 4 8"}
ROWS=${ROWS:-80000}
GENERATORS=${GENERATORS:-"random v7 time striped stripes_ascending"}
RATES=${RATES:-}
OUT=${OUT:-$BENCH/out}
NAME=${NAME:-density}
CSV=$OUT/$NAME.csv
mkdir -p "$OUT"
declare -A GEN_EXPR=(
	[random]="gen_random_uuid()"
	[v7]="uuid_v7_nextval()"
	[time]="uuid_time_nextval()"
	[striped]="uuid_striped_nextval()"
	[stripes_ascending]="stripes_ascending()"
)
for g in $GENERATORS; do
	if [[ $g == *=* ]]; then
		GEN_EXPR[${g%%=*}]=${g#*=}
		GENERATORS=${GENERATORS/"$g"/${g%%=*}}
	fi
	[ -n "${GEN_EXPR[${g%%=*}]:-}" ] || ou_die "unknown generator '$g' (known: ${!GEN_EXPR[*]}; or name=expression)"
done

ou_base_deps
pg_config=
ou_bench_work ou_density
export PGOPTIONS='-c client_min_messages=warning'
q() { psql -qAtX -v ON_ERROR_STOP=1 -c "$1"; }

{
	echo "# ordered_uuid bench/density.sh, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "# machine: $(ou_bench_machine)"
	echo "# run: pgbench -n -M prepared -c SESSIONS -t ROWS/SESSIONS [-R RATE], INSERT INTO t (payload) VALUES (1); ROWS=$ROWS; fresh table and index per point; fsync=off synchronous_commit=off"
	echo "pg_version,sessions,rate,generator,rows,leaf_pages,avg_leaf_density,pgstatindex_avg_leaf_density"
} >"$CSV"

for v in $VERSIONS; do
	PG_CONFIG= PG_VERSION=$v ou_bench_pg
	ou_server_stop "$pg_config" "$SRV"
	rm -rf "$SRV"
	ou_server_start "$pg_config" "$SRV" $((55000 + RANDOM % 900)) fsync=off synchronous_commit=off \
		autovacuum=off max_connections=40 jit=off
	psql -qX -d postgres -c 'CREATE DATABASE ou_density'
	export PGDATABASE=ou_density
	q 'CREATE EXTENSION ordered_uuid'
	q 'CREATE EXTENSION pgstattuple'
	# block start (Unix ms, hourly) | version 8 + stripe | variant + ascending counter
	q "CREATE SEQUENCE asc_seq"
	q "CREATE FUNCTION stripes_ascending() RETURNS uuid LANGUAGE sql VOLATILE AS \$\$
	     SELECT (lpad(to_hex(floor(extract(epoch FROM clock_timestamp()) / 3600)::bigint * 3600000), 12, '0')
	             || '8' || lpad(to_hex(pg_backend_pid() % 4096), 3, '0')
	             || '8' || lpad(to_hex(nextval('asc_seq')), 15, '0'))::uuid \$\$"
	for s in $SESSIONS; do
		for r in ${RATES:-unlimited}; do
			for g in $GENERATORS; do
				q "DROP TABLE IF EXISTS d"
				q "CREATE TABLE d (id uuid PRIMARY KEY DEFAULT ${GEN_EXPR[$g]}, payload int)"
				echo "INSERT INTO d (payload) VALUES (1);" >"$WORK/insert.sql"
				ou_bench_pgbench "$WORK/pgbench.log" -n -M prepared -c "$s" -j "$((s < $(nproc) ? s : $(nproc)))" \
					-t $((ROWS / s)) $([ "$r" = unlimited ] || echo "-R $r") -f "$WORK/insert.sql" >/dev/null
				q "SELECT format('%s,%s,%s,%s,%s,%s,%s,%s', $v, $s, '$r', '$g', (SELECT count(*) FROM d), i.leaf_pages,
				          round(i.avg_leaf_density::numeric, 1), p.avg_leaf_density)
				     FROM index_shape('d_pkey') AS i, pgstatindex('d_pkey') AS p" | tee -a "$CSV"
			done
		done
	done
	ou_server_stop "$pg_config" "$SRV"
done

# markdown: density per generator and version, one column per number of sessions
python3 - "$CSV" <<'PY'
import csv, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
sessions = sorted({int(r["sessions"]) for r in rows})
print("| generator | PostgreSQL | rows/s | " + " | ".join("%d session%s" % (s, "s" if s > 1 else "") for s in sessions) + " |")
print("|---|---|---|" + "---:|" * len(sessions))
for g in dict.fromkeys(r["generator"] for r in rows):
    for v in sorted({r["pg_version"] for r in rows}, key=int):
        for rate in dict.fromkeys(r["rate"] for r in rows):
            cell = {int(r["sessions"]): r["avg_leaf_density"] for r in rows
                    if r["generator"] == g and r["pg_version"] == v and r["rate"] == rate}
            print("| %s | %s | %s | %s |" % (g, v, rate, " | ".join(cell.get(s, "") + " %" for s in sessions)))
PY
ou_log "wrote $CSV"
