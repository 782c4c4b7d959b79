#!/usr/bin/env bash
# bench/generator_speed.sh -- the generators' micro-benchmark: calls/s against the speed goal.
#
#   bench/generator_speed.sh            (PG_VERSION=18 by default, or PG_CONFIG=...)
#
# In ONE session on one throwaway server, times
#     SELECT count(f) FROM generate_series(1, 1e6)
# for f = gen_random_uuid(), uuid_time_nextval(), uuid_v7_nextval(),
# uuid_sequence_nextval('s') (and core uuidv7() on PostgreSQL 18), plus two
# references: count(1) (the same query with no function: executor and
# generate_series overhead) and nextval('s') (the sequence alone).  ROUNDS
# rounds (default 5), the functions interleaved in every round (odd rounds in
# the order above, even ones reversed); the median is reported as calls/s and as
# a ratio to gen_random_uuid(), with the fastest and slowest round's seconds and
# the rounds.  "net" subtracts the
# count(1) time, i.e. the cost of the call itself.
# Goal (doc/results.md, Generator speed): time and v7 >= 3x gen_random_uuid(),
# sequence >= 2x (on the plain calls/s of the query above).
# Knobs: N (default 1000000; the query text uses 1e6 when N = 1000000), ROUNDS,
# MACHINE_NOTE, KEEP_WORK.
set -euo pipefail
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib.sh
. "$BENCH/../scripts/lib.sh"
# shellcheck source=bench/common.sh
. "$BENCH/common.sh"

N=${N:-1000000}
ROUNDS=${ROUNDS:-5}
if [ "$N" = 1000000 ]; then NTEXT=1e6; else NTEXT=$N; fi

ou_bench_pg
ou_bench_work ou_genspeed
ou_server_start "$pg_config" "$SRV" $((56000 + RANDOM % 900)) "jit=off"

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)
os=$(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-Linux}")
echo "# $("$pg_config" --version), $os, $(nproc) cores${cpu:+ ($cpu)}${MACHINE_NOTE:+, $MACHINE_NOTE}"
echo "# SELECT count(f) FROM generate_series(1, $NTEXT), $ROUNDS rounds interleaved in one session (even rounds reversed), median with min-max"

psql -qX -v ON_ERROR_STOP=1 -v rounds="$ROUNDS" -v ntext="$NTEXT" -v n="$N" <<'SQL'
CREATE EXTENSION ordered_uuid;
CREATE SEQUENCE s;
CREATE SEQUENCE s_ref;
CREATE TEMP TABLE f (ord int, expr text, goal numeric);
INSERT INTO f VALUES
  (0, '1', NULL),
  (1, 'gen_random_uuid()', NULL),
  (2, 'uuid_time_nextval()', 3),
  (3, 'uuid_v7_nextval()', 3),
  (4, 'uuid_sequence_nextval(''s'')', 2),
  (6, 'nextval(''s_ref'')', NULL),
  (7, 'uuid_striped_nextval()', NULL);
INSERT INTO f SELECT 5, 'uuidv7()', NULL WHERE current_setting('server_version_num')::int >= 180000;
CREATE TEMP TABLE t (expr text, round int, seconds float8);
SELECT set_config('ou.ntext', :'ntext', false), set_config('ou.rounds', :'rounds', false) \g /dev/null
DO $$
DECLARE
  r int;
  e text;
  t0 timestamptz;
BEGIN
  -- one warm-up call of each, then the timed rounds
  FOR e IN SELECT expr FROM f ORDER BY ord LOOP
    EXECUTE format('SELECT count(%s) FROM generate_series(1, 1000)', e);
  END LOOP;
  FOR r IN 1 .. current_setting('ou.rounds')::int LOOP
    FOR e IN SELECT expr FROM f ORDER BY CASE WHEN r % 2 = 1 THEN ord ELSE -ord END LOOP
      t0 := clock_timestamp();
      EXECUTE format('SELECT count(%s) FROM generate_series(1, %s)', e, current_setting('ou.ntext'));
      INSERT INTO t VALUES (e, r, extract(epoch FROM clock_timestamp() - t0));
    END LOOP;
  END LOOP;
END $$;
\pset footer off
WITH m AS (
  SELECT expr, percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds) AS s,
         min(seconds) AS lo, max(seconds) AS hi, count(*) AS rounds
    FROM t GROUP BY expr
), b AS (
  SELECT (SELECT s FROM m WHERE expr = '1') AS base,
         (SELECT s FROM m WHERE expr = 'gen_random_uuid()') AS rnd
)
SELECT CASE WHEN f.expr = '1' THEN 'count(1) (no function: baseline)' ELSE f.expr END AS function,
       round(m.s::numeric, 3) AS median_s,
       round(m.lo::numeric, 3) AS min_s, round(m.hi::numeric, 3) AS max_s, m.rounds,
       round(:n / m.s) AS calls_per_s,
       CASE WHEN f.expr <> '1' THEN round((b.rnd / m.s)::numeric, 2) END AS ratio,
       CASE WHEN f.expr <> '1' THEN round(:n / greatest(m.s - b.base, 1e-6)) END AS net_calls_per_s,
       CASE WHEN f.expr <> '1' THEN round(((b.rnd - b.base) / greatest(m.s - b.base, 1e-6))::numeric, 2) END AS net_ratio,
       CASE WHEN f.goal IS NULL THEN ''
            WHEN b.rnd / m.s >= f.goal THEN format('>= %sx: met', f.goal)
            ELSE format('>= %sx: NOT met', f.goal) END AS goal
  FROM f JOIN m USING (expr) CROSS JOIN b
 ORDER BY f.ord;
SQL
