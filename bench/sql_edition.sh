#!/usr/bin/env bash
# bench/sql_edition.sh -- the SQL edition (ordered_uuid_sql) side by side with the C edition,
# core's uuidv7() (18+) and gen_random_uuid(), in one server: doc/results.md, The SQL edition.
#
#   bench/sql_edition.sh [calls|fresh|s1|all]        (default: all)
#
# Both editions are installed in one database (the C edition in schema c_ed, the SQL edition
# from the plain file, make sql-edition, in schema sqled).  Three parts:
#   calls  the cost of one call: SELECT count(f) FROM generate_series(1, N) for every generator of
#          both editions and core's, ROUNDS rounds interleaved in one session (even rounds
#          reversed); µs per call net of count(1)'s, median with min-max;
#   fresh  bench_insert, ROWS rows into fresh tables with a uuid primary key, 1 and 2 clients
#          (CLIENTS), REPEATS interleaved repetitions: rows/s, WAL bytes and full-page images a
#          row, leaf density;
#   s1     the same where the index outgrows shared_buffers (S1_SHARED_BUFFERS) across
#          checkpoints (checkpoint_timeout S1_CHECKPOINT_TIMEOUT, max_wal_size S1_MAX_WAL): each
#          run into a table prefilled with S1_PREFILL rows.
# Each part prints the load average of the machine before and after it.
# Knobs: PG_VERSION (18) or PG_CONFIG, N (200000), ROUNDS (7), ROWS (1000000), CLIENTS ("1 2"),
# REPEATS (5), ROWS_PER_XACT (1000), S1_PREFILL (1000000), S1_ROWS (ROWS), S1_REPEATS (3),
# S1_SHARED_BUFFERS (16MB), S1_CHECKPOINT_TIMEOUT (30s), S1_MAX_WAL (128MB), QUICK (1: small
# sizes, to check the script), NAME (sql-edition-pgNN), OUT (bench/out), MACHINE_NOTE,
# BENCH_WORK, KEEP_WORK.  Output: OUT/NAME.txt (the tables) and OUT/NAME.csv (the runs, for
# bench/spread.py).
set -euo pipefail
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib.sh
. "$BENCH/../scripts/lib.sh"
# shellcheck source=bench/common.sh
. "$BENCH/common.sh"

MODE=${1:-all}
case $MODE in calls | fresh | s1 | all) ;; *) ou_die "usage: bench/sql_edition.sh [calls|fresh|s1|all]" ;; esac
if [ -n "${QUICK:-}" ]; then
	N=${N:-20000} ROUNDS=${ROUNDS:-3} ROWS=${ROWS:-20000} REPEATS=${REPEATS:-2} S1_PREFILL=${S1_PREFILL:-50000}
	S1_REPEATS=${S1_REPEATS:-2}
fi
N=${N:-200000}
ROUNDS=${ROUNDS:-7}
ROWS=${ROWS:-1000000}
CLIENTS=${CLIENTS:-"1 2"}
REPEATS=${REPEATS:-5}
ROWS_PER_XACT=${ROWS_PER_XACT:-1000}
S1_PREFILL=${S1_PREFILL:-1000000}
S1_ROWS=${S1_ROWS:-$ROWS}
S1_REPEATS=${S1_REPEATS:-3}
S1_SHARED_BUFFERS=${S1_SHARED_BUFFERS:-16MB}
S1_CHECKPOINT_TIMEOUT=${S1_CHECKPOINT_TIMEOUT:-30s}
S1_MAX_WAL=${S1_MAX_WAL:-128MB}

ou_bench_pg
NAME=${NAME:-sql-edition-pg$major}
OUT=${OUT:-$BENCH/out}
mkdir -p "$OUT"
TXT=$OUT/$NAME.txt CSV=$OUT/$NAME.csv
ou_bench_work ou_sqled_bench
port=$((56000 + RANDOM % 900))
export PGOPTIONS='-c client_min_messages=warning'
# the SQL edition as this checkout makes it, copied for the whole run
python3 "$OU_ROOT/scripts/sql_edition.py" --out "$WORK/sql-edition" >/dev/null
load() { echo "# load average (1, 5, 15 min) $1: $(cut -d' ' -f1-3 /proc/loadavg)"; }
{
	echo "# bench/sql_edition.sh $MODE: $(for k in N ROUNDS ROWS CLIENTS REPEATS ROWS_PER_XACT S1_PREFILL S1_ROWS S1_REPEATS \
		S1_SHARED_BUFFERS S1_CHECKPOINT_TIMEOUT S1_MAX_WAL QUICK; do [ -z "${!k:-}" ] || printf '%s="%s" ' "$k" "${!k}"; done)"
	echo "# machine: $(ou_bench_machine)"
} | tee "$TXT" >"$CSV"

# both editions in one database; GENS: the generators of the insert parts
setup() {
	psql -qX -v ON_ERROR_STOP=1 <<EOF
CREATE SCHEMA c_ed;
CREATE EXTENSION ordered_uuid SCHEMA c_ed;
CREATE SCHEMA sqled;
SET search_path = sqled;
\i $WORK/sql-edition/ordered_uuid_sql.sql
RESET search_path;
EOF
	echo "# server: PostgreSQL $(psql -qAtX -c 'SHOW server_version'), shared_buffers $(psql -qAtX -c 'SHOW shared_buffers'), SQL edition $(psql -qAtX -c 'SELECT sqled.ordered_uuid_sql_version()')" | tee -a "$TXT" >>"$CSV"
}
GENS="'sqled.uuid_striped_nextval()', 'c_ed.uuid_striped_nextval()', 'c_ed.uuid_v7_nextval()', 'sqled.uuid_v7_nextval()', 'gen_random_uuid()'"
[ "$major" -lt 18 ] || GENS="$GENS, 'uuidv7()'"

run_calls() {
	ou_server_start "$pg_config" "$SRV" "$port" jit=off
	setup
	load "before the calls" | tee -a "$TXT"
	psql -qX -v ON_ERROR_STOP=1 -P pager=off -v rounds="$ROUNDS" -v n="$N" <<'SQL' | tee -a "$TXT"
CREATE SEQUENCE s;
CREATE TEMP TABLE f (ord int, expr text);
INSERT INTO f VALUES (0, '1'), (1, 'gen_random_uuid()'),
	(2, 'c_ed.uuid_v7_nextval()'), (3, 'sqled.uuid_v7_nextval()'),
	(4, 'c_ed.uuid_striped_nextval()'), (5, 'sqled.uuid_striped_nextval()'),
	(6, 'c_ed.uuid_time_nextval()'), (7, 'sqled.uuid_time_nextval()'),
	(8, 'c_ed.uuid_sequence_nextval(''s'')'), (9, 'sqled.uuid_sequence_nextval(''s'')'),
	(10, 'c_ed.uuid_v7_nextval(''1 hour'')'), (11, 'sqled.uuid_v7_nextval(''1 hour'')');
INSERT INTO f SELECT 12, 'uuidv7()' WHERE current_setting('server_version_num')::int >= 180000;
CREATE TEMP TABLE t (expr text, round int, seconds float8);
SELECT set_config('ou.n', :'n', false), set_config('ou.rounds', :'rounds', false) \g /dev/null
DO $$
DECLARE
	e text;
	t0 timestamptz;
BEGIN
	FOR e IN SELECT expr FROM f ORDER BY ord LOOP
		EXECUTE format('SELECT count(%s) FROM generate_series(1, 1000)', e);
	END LOOP;
	FOR r IN 1 .. current_setting('ou.rounds')::int LOOP
		FOR e IN SELECT expr FROM f ORDER BY CASE WHEN r % 2 = 1 THEN ord ELSE -ord END LOOP
			t0 := clock_timestamp();
			EXECUTE format('SELECT count(%s) FROM generate_series(1, %s)', e, current_setting('ou.n'));
			INSERT INTO t VALUES (e, r, extract(epoch FROM clock_timestamp() - t0));
		END LOOP;
	END LOOP;
END $$;
\pset footer off
WITH base AS (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds) AS s FROM t WHERE expr = '1'),
	 m AS (SELECT expr, percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds) AS s, min(seconds) AS lo,
				  max(seconds) AS hi, count(*) AS rounds FROM t WHERE expr <> '1' GROUP BY expr)
SELECT f.expr AS generator,
	   round(((m.s - base.s) / :n * 1e6)::numeric, 2) AS us_per_call,
	   round(((m.lo - base.s) / :n * 1e6)::numeric, 2) AS min, round(((m.hi - base.s) / :n * 1e6)::numeric, 2) AS max,
	   m.rounds
  FROM f JOIN m USING (expr), base ORDER BY f.ord;
SELECT round((percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds) / :n * 1e6)::numeric, 3) AS "count(1) baseline, us per row"
  FROM t WHERE expr = '1';
SQL
	load "after the calls" | tee -a "$TXT"
	ou_server_stop "$pg_config" "$SRV"
	rm -rf "$SRV"
}

run_fresh() {
	local c
	export PGOPTIONS="-c client_min_messages=warning -c search_path=c_ed,public"
	ou_server_start "$pg_config" "$SRV" "$port" max_worker_processes=16
	setup
	for c in $CLIENTS; do
		load "before fresh tables, $c client(s)" | tee -a "$TXT"
		ou_log "fresh tables, $c client(s)"
		ou_bench_insert_spread "fresh tables, $c client(s)" \
			"generators => ARRAY[$GENS], rows => $ROWS, clients => $c, rows_per_xact => $ROWS_PER_XACT, repeats => $REPEATS" \
			"$CSV" | tee -a "$TXT"
		load "after" | tee -a "$TXT"
	done
	ou_server_stop "$pg_config" "$SRV"
	rm -rf "$SRV"
}

run_s1() {
	export PGOPTIONS="-c client_min_messages=warning -c search_path=c_ed,public"
	ou_server_start "$pg_config" "$SRV" "$port" max_worker_processes=16 shared_buffers="$S1_SHARED_BUFFERS" \
		checkpoint_timeout="$S1_CHECKPOINT_TIMEOUT" max_wal_size="$S1_MAX_WAL"
	setup
	echo "# S1: checkpoint_timeout $S1_CHECKPOINT_TIMEOUT, max_wal_size $S1_MAX_WAL, tables prefilled with $S1_PREFILL rows" | tee -a "$TXT" >>"$CSV"
	load "before S1" | tee -a "$TXT"
	ou_log "S1: $S1_PREFILL-row tables, shared_buffers $S1_SHARED_BUFFERS"
	ou_bench_insert_spread "S1, $S1_PREFILL-row tables, shared_buffers $S1_SHARED_BUFFERS, 1 client" \
		"generators => ARRAY[$GENS], rows => $S1_ROWS, clients => 1, rows_per_xact => $ROWS_PER_XACT, prefill => $S1_PREFILL, repeats => $S1_REPEATS" \
		"$CSV" | tee -a "$TXT"
	load "after S1" | tee -a "$TXT"
	ou_server_stop "$pg_config" "$SRV"
	rm -rf "$SRV"
}

case $MODE in
calls) run_calls ;;
fresh) run_fresh ;;
s1) run_s1 ;;
all)
	run_calls
	run_fresh
	run_s1
	;;
esac
if grep -q '^case,' "$CSV"; then "$BENCH/spread.py" markdown "$CSV" | tee -a "$TXT"; fi
ou_log "wrote $TXT and $CSV"
