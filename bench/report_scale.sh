#!/usr/bin/env bash
# bench/report_scale.sh -- write_path_report()'s time against the number of
# tables in a database: this release's beside 1.5.0's (the SQL of 1.5.0 and
# 1.5.1), in one database, interleaved.
#
#   OU_CACHE=... PG_VERSION=18 REPEATS=5 OLD_REPEATS=3 OLD_UP_TO=5000 \
#       SIZES="1000:200 5000:1000 10000:2000" bench/report_scale.sh [OUT.csv]
#
# For each size TABLES:CANDIDATES, in increasing order, the database grows
# to TABLES tables, of which CANDIDATES are S4's candidates: 9,000 rows of
# 100 groups interleaved (about 135 pages, more than the report's 128), a
# non-unique index on the group, analyzed; the others have 10 rows, a
# primary key and a text column, analyzed too, so that the statistics hold a
# row for every column as in a real database.  Then VACUUM, as autovacuum
# leaves tables: the report's sample reads a row on a page the visibility
# map says is all visible without fetching it, as an index-only scan does.
# VACUUM=0 leaves them as loaded: every sampled row is then fetched from the
# heap (and its hint bits set by the first call).  Then REPEATS calls of this
# release's report and, up to OLD_UP_TO tables, OLD_REPEATS calls of 1.5.0's
# (its write_path_report() taken from extension/upgrade/ordered_uuid--1.5.0.sql
# into a schema of its own), alternating; each call's wall time, measured by
# psql (\timing) on an idle connection.  Prints the medians with their range
# and writes the runs as CSV (case, rep, generator = the release, seconds)
# to OUT.csv (default bench/out/report_scale.csv) for bench/spread.py.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
. "$(dirname "$0")/common.sh"
cd "$OU_ROOT"

sizes=${SIZES:-1000:200 5000:1000 10000:2000}
repeats=${REPEATS:-5} old_repeats=${OLD_REPEATS:-3} old_up_to=${OLD_UP_TO:-5000} vacuum=${VACUUM:-1}
out=${1:-bench/out/report_scale.csv}
mkdir -p "$(dirname "$out")"
ou_bench_pg
ou_bench_work ou-report-scale
ou_server_start "$pg_config" "$SRV" 5693 autovacuum=off max_locks_per_transaction=256 \
	shared_buffers=512MB checkpoint_timeout=30min max_wal_size=8GB
q() { psql -XAtq -v ON_ERROR_STOP=1 "$@"; }
q -c 'CREATE EXTENSION ordered_uuid'
# 1.5.0's report, as its frozen install script made it, in a schema of its own
q -c 'CREATE SCHEMA report_old'
sed -n '/^CREATE FUNCTION write_path_report(/,/^\$fn\$;/p' extension/upgrade/ordered_uuid--1.5.0.sql |
	sed -e 's/^CREATE FUNCTION write_path_report(/CREATE FUNCTION report_old.write_path_report(/' \
		-e 's/@extschema@/public/g' | q
q <<'EOF'
CREATE PROCEDURE grow(tables int, candidates int) LANGUAGE plpgsql AS $$
DECLARE
	have_c int := (SELECT count(*) FROM pg_class WHERE relname LIKE 'cand\_%' AND relkind = 'r');
	have_s int := (SELECT count(*) FROM pg_class WHERE relname LIKE 'small\_%' AND relkind = 'r');
BEGIN
	FOR i IN have_c + 1 .. candidates LOOP
		EXECUTE format('CREATE TABLE cand_%s (grp int, seq int, pad text)', i);
		EXECUTE format('INSERT INTO cand_%s SELECT g %% 100, g, repeat(''x'', 80) FROM generate_series(0, 8999) g', i);
		EXECUTE format('CREATE INDEX ON cand_%s (grp)', i);
		EXECUTE format('ANALYZE cand_%s', i);
		IF i % 50 = 0 THEN COMMIT; END IF;
	END LOOP;
	COMMIT;
	FOR i IN have_s + 1 .. tables - candidates LOOP
		EXECUTE format('CREATE TABLE small_%s (id int PRIMARY KEY, t text)', i);
		EXECUTE format('INSERT INTO small_%s SELECT g, g::text FROM generate_series(1, 10) g', i);
		EXECUTE format('ANALYZE small_%s', i);
		IF i % 200 = 0 THEN COMMIT; END IF;
	END LOOP;
END $$;
EOF

# call SCHEMA: one call's wall time in seconds (psql's \timing)
call() {
	q -c '\timing on' -c "SELECT count(*) FROM $1.write_path_report()" |
		sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | awk '{ printf "%.2f\n", $1 / 1000 }'
}
echo "case,rep,generator,seconds" >"$out"
{
	echo "# run: bench/report_scale.sh SIZES=\"$sizes\" REPEATS=$repeats OLD_REPEATS=$old_repeats OLD_UP_TO=$old_up_to VACUUM=$vacuum"
	echo "# server: $("$pg_config" --version), shared_buffers 512MB, autovacuum off"
	echo "# machine: $(ou_bench_machine)"
} >>"$out"
for size in $sizes; do
	tables=${size%:*} candidates=${size#*:}
	ou_log "growing the database to $tables tables, $candidates of them candidates"
	t0=$SECONDS
	q -c "CALL grow($tables, $candidates)"
	[ "$vacuum" = 0 ] || q -c 'VACUUM'
	q -c 'CHECKPOINT'
	ou_log "  grown in $((SECONDS - t0)) s; findings: $(q -c 'SELECT count(*) FROM write_path_report() WHERE scenario IS NOT NULL')"
	for rep in $(seq "$repeats"); do
		if [ "$tables" -le "$old_up_to" ] && [ "$rep" -le "$old_repeats" ]; then
			s=$(call report_old)
			echo "$tables tables / $candidates candidates,$rep,1.5.0,$s" >>"$out"
			ou_log "  $tables/$candidates rep $rep: 1.5.0 $s s"
		fi
		s=$(call public)
		echo "$tables tables / $candidates candidates,$rep,1.5.2,$s" >>"$out"
		ou_log "  $tables/$candidates rep $rep: 1.5.2 $s s (load $(cut -d' ' -f1 /proc/loadavg))"
	done
done
python3 bench/spread.py markdown "$out" 1.5.2 seconds
