#!/usr/bin/env bash
# bench/run.sh -- the pgbench harness of ordered_uuid: scenarios S1-S3 of
# doc/scenarios.md measured from outside the server, written as CSV and charted.
#
#   bench/run.sh [s1]   S1: grow one table per generator from 0 to ROWS rows in
#                       STEPS steps; at each size run pgbench (single-row INSERTs,
#                       key from the column default) for SECONDS with CLIENTS
#                       clients; record rows/s, WAL bytes/row, FPI/row, index size.
#   bench/run.sh s2     S2: CLIENTS concurrent COPY (and INSERT ... SELECT) batches
#                       of 455-byte rows into one unindexed table: rows/s, MB/s,
#                       the share of samples waiting on the relation extension lock.
#   bench/run.sh s3     S3: single-row INSERTs spread over 128 unindexed tables,
#                       logged and unlogged: rows/s, WAL bytes/row, wait profile.
#
# Every measurement runs REPEATS times (default 3), the repetitions interleaved:
# repetition 1 of every generator (S1) or variant (S2, S3) in the order given,
# repetition 2 in the reverse order, and so on; the CSV has one line per run
# (its repetition in the column rep) and the chart the median with a bar from the
# slowest to the fastest run.
#
# Knobs (environment): PG_VERSION (default 18) or PG_CONFIG (an installed
# PostgreSQL), ROWS, STEPS, DURATION, REPEATS, CLIENTS, THREADS, GENERATORS, SHARED_BUFFERS,
# MAX_WAL_SIZE, CHECKPOINT_TIMEOUT, SYNCHRONOUS_COMMIT, S2_BATCH, S3_TABLES,
# NAME (CSV name), OUT (directory, default bench/out, not in git), MACHINE_NOTE,
# BENCH_WORK, KEEP_WORK, NO_PLOT.  See doc/pgbench.md.
#
# Everything runs on a throwaway server (initdb'd under BENCH_WORK, private socket,
# as the unprivileged user of scripts/lib.sh when run as root), stopped and removed
# on every exit path.  Results: bench/out/NAME.csv (+ .png/.svg chart for S1); the
# results of the reference run are committed under bench/results/.
set -euo pipefail
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib.sh
. "$BENCH/../scripts/lib.sh"
# shellcheck source=bench/common.sh
. "$BENCH/common.sh"

MODE=${1:-s1}
case $MODE in s1 | s2 | s3) ;; *) ou_die "usage: bench/run.sh [s1|s2|s3]" ;; esac

# ---- knobs -------------------------------------------------------------------
ROWS=${ROWS:-2000000}              # S1: final table size
STEPS=${STEPS:-8}                  # S1: measured sizes are 0, ROWS/STEPS, ..., ROWS
SECONDS_PER_RUN=${DURATION:-15}    # pgbench -T of every measurement (bash owns $SECONDS)
REPEATS=${REPEATS:-3}              # runs of every measurement, interleaved
CLIENTS=${CLIENTS:-8}
THREADS=${THREADS:-2}
GENERATORS=${GENERATORS:-"random time sequence v7 bigint"}
SHARED_BUFFERS=${SHARED_BUFFERS:-64MB}
MAX_WAL_SIZE=${MAX_WAL_SIZE:-4GB}
CHECKPOINT_TIMEOUT=${CHECKPOINT_TIMEOUT:-30min}
SYNCHRONOUS_COMMIT=${SYNCHRONOUS_COMMIT:-on}
S2_BATCH=${S2_BATCH:-10000}        # rows per COPY / INSERT batch
S3_TABLES=${S3_TABLES:-128}
MACHINE_NOTE=${MACHINE_NOTE:-}

# the generators S1 knows by name; GENERATORS may also hold name=expression
declare -A GEN_EXPR=(
	[random]="gen_random_uuid()"
	[time]="uuid_time_nextval()"
	[sequence]="uuid_sequence_nextval('s1_seq')"
	[v7]="uuid_v7_nextval()"
	[uuidv7]="uuidv7()"
	[bigint]="bigint identity"
	[striped]="uuid_striped_nextval()"
)

# ---- PostgreSQL, extension, server ---------------------------------------------
ou_bench_pg
NAME=${NAME:-$MODE-pg$major}
OUT=${OUT:-$BENCH/out}
CSV=$OUT/$NAME.csv

SAMPLER_PID=
ou_bench_on_exit() { [ -z "$SAMPLER_PID" ] || kill "$SAMPLER_PID" 2>/dev/null || true; }
ou_bench_work ou_pgbench

port=$((55000 + RANDOM % 900))
ou_log "starting a throwaway server in $SRV"
ou_server_start "$pg_config" "$SRV" "$port" \
	"shared_buffers=$SHARED_BUFFERS" "max_wal_size=$MAX_WAL_SIZE" "checkpoint_timeout=$CHECKPOINT_TIMEOUT" \
	"synchronous_commit=$SYNCHRONOUS_COMMIT" "autovacuum=off" "max_connections=$((CLIENTS + 20))" \
	"wal_compression=off" "track_wal_io_timing=off" "jit=off"
export PGDATABASE=ou_bench
psql -qX -d postgres -c 'CREATE DATABASE ou_bench'

q() { psql -qAtX -v ON_ERROR_STOP=1 -c "$1"; }
q 'CREATE EXTENSION ordered_uuid'

# ---- metadata -------------------------------------------------------------------
PG_FULL=$(q 'SHOW server_version')
write_header() { # the comment lines every CSV starts with
	local settings
	settings=$(q "SELECT string_agg(name || '=' || current_setting(name), ' ' ORDER BY name)
	              FROM pg_settings WHERE name IN ('shared_buffers', 'max_wal_size', 'checkpoint_timeout',
	              'synchronous_commit', 'fsync', 'full_page_writes', 'wal_compression', 'autovacuum',
	              'wal_buffers', 'checkpoint_completion_target', 'wal_level')")
	{
		echo "# ordered_uuid bench/run.sh $MODE, $(date -u '+%Y-%m-%d %H:%M UTC')"
		echo "# server: PostgreSQL $PG_FULL"
		echo "# machine: $(ou_bench_machine)"
		echo "# settings: $settings"
		echo "# run: $*"
	} >"$CSV"
}

# pgbench SCRIPT [pgbench options...]: runs it, prints "transactions tps" and
# keeps its output in $WORK; waits until its backends have gone (and flushed
# their WAL statistics) before returning.
run_pgbench() {
	local script=$1
	shift
	ou_bench_pgbench "$WORK/pgbench.$(date +%s%N).log" -n -c "$CLIENTS" -j "$THREADS" -T "$SECONDS_PER_RUN" \
		-f "$script" "$@"
}

wal_lsn() { q 'SELECT pg_current_wal_insert_lsn()'; }

wal_fpi() { q 'SELECT wal_fpi FROM pg_stat_wal'; }

# Wait-event sampler for S2/S3: a background session that records, every 20 ms
# for SECONDS, the wait event of every pgbench backend (CPU = active, no wait).
sampler_setup() {
	q 'CREATE UNLOGGED TABLE IF NOT EXISTS ou_waits (run text, wev text)'
}
sampler_start() { # RUN-LABEL
	psql -qAtX -v ON_ERROR_STOP=1 -c "DO \$\$
	DECLARE stop timestamptz := clock_timestamp() + interval '$((SECONDS_PER_RUN + 1)) s';
	BEGIN
	  PERFORM pg_sleep(0.3);
	  WHILE clock_timestamp() < stop LOOP
	    PERFORM pg_stat_clear_snapshot();
	    INSERT INTO ou_waits
	      SELECT '$1', CASE WHEN wait_event IS NULL THEN 'CPU'
	                        ELSE wait_event_type || ':' || wait_event END
	        FROM pg_stat_activity WHERE application_name = 'pgbench' AND state <> 'idle';
	    PERFORM pg_sleep(0.02);
	  END LOOP;
	END \$\$" >/dev/null 2>&1 &
	SAMPLER_PID=$!
}
sampler_wait() { # in the main shell: the sampler is its child
	wait "$SAMPLER_PID" || true
	SAMPLER_PID=
}
sampler_report() { # RUN-LABEL -> "extend_share top_waits"
	q "WITH w AS (SELECT wev, count(*) AS n, sum(count(*)) OVER () AS total
	              FROM ou_waits WHERE run = '$1' GROUP BY wev)
	   SELECT coalesce(round(100.0 * sum(n) FILTER (WHERE wev = 'Lock:extend') / max(total), 1), 0) || ' ' ||
	          coalesce((SELECT string_agg(wev || ' ' || round(100.0 * n / total) || '%', '; ' ORDER BY n DESC)
	                      FROM (SELECT * FROM w ORDER BY n DESC LIMIT 5) t), '')
	   FROM w"
}

# ---- S1 ---------------------------------------------------------------------------
s1() {
	local g name expr script
	local -a names=()
	q 'CREATE SEQUENCE s1_seq'
	for g in $GENERATORS; do
		if [[ $g == *=* ]]; then name=${g%%=*} expr=${g#*=}; else name=$g expr=${GEN_EXPR[$g]:-}; fi
		[ -n "$expr" ] || ou_die "unknown generator '$g' (known: ${!GEN_EXPR[*]}; or name=expression)"
		if [ "$expr" = "bigint identity" ]; then
			q "CREATE TABLE s1_$name (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY)"
		else
			q "CREATE TABLE s1_$name (id uuid DEFAULT $expr PRIMARY KEY)"
		fi
		script=$BENCH/s1_$name.sql
		if [ ! -f "$script" ]; then
			script=$WORK/s1_$name.sql
			echo "INSERT INTO s1_$name DEFAULT VALUES;" >"$script"
		fi
		names+=("$name")
		GEN_EXPR[$name]=$expr
	done
	write_header "rows=$ROWS steps=$STEPS seconds=$SECONDS_PER_RUN repeats=$REPEATS clients=$CLIENTS threads=$THREADS" \
		"pgbench -M prepared, one single-row INSERT per transaction; CHECKPOINT before every measurement;" \
		"growth between steps by INSERT ... SELECT FROM generate_series (not measured)"
	echo "pg_version,generator,expression,step,table_rows,clients,seconds,transactions,rows_per_sec,wal_bytes_per_row,fpi_per_row,index_bytes,table_bytes,rep" >>"$CSV"

	local step target cur lsn0 fpi0 res tx tps line t0 rep
	for ((step = 0; step <= STEPS; step++)); do
		target=$((ROWS * step / STEPS))
		for rep in $(seq "$REPEATS"); do
		for name in $(in_order "$rep" "${names[@]}"); do
			t0=$(date +%s)
			cur=$(q "SELECT count(*) FROM s1_$name")
			if [ "$cur" -lt "$target" ]; then
				q "INSERT INTO s1_$name SELECT FROM generate_series(1, $((target - cur)))"
				cur=$target
			fi
			q 'CHECKPOINT'
			lsn0=$(wal_lsn) fpi0=$(wal_fpi)
			script=$BENCH/s1_$name.sql
			[ -f "$script" ] || script=$WORK/s1_$name.sql
			res=$(run_pgbench "$script" -M prepared)
			read -r tx tps <<<"$res"
			line=$(q "SELECT format('%s,%s,\"%s\",%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s', '$major', '$name',
			                 replace('${GEN_EXPR[$name]//\'/\'\'}', '\"', '\"\"'), $step, $cur, $CLIENTS,
			                 $SECONDS_PER_RUN, $tx, round($tps, 1),
			                 round(pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '$lsn0') / greatest($tx, 1), 1),
			                 round((wal_fpi - $fpi0)::numeric / greatest($tx, 1), 4),
			                 pg_relation_size('s1_${name}_pkey'), pg_relation_size('s1_$name'), $rep)
			          FROM pg_stat_wal")
			echo "$line" >>"$CSV"
			ou_log "S1 step $step/$STEPS repetition $rep $name: $cur rows, $tps tps ($(($(date +%s) - t0)) s)"
		done
		done
	done
	[ -n "${NO_PLOT:-}" ] || "$BENCH/plot.py" "$CSV" || ou_log "plot failed (the CSV is in $CSV)"
}

# ---- S2 ---------------------------------------------------------------------------
s2() {
	q "CREATE TABLE s2 (id int, c1 text, c2 text, c3 text, c4 text, c5 text, c6 text, c7 text, c8 text,
	                    c9 text, c10 text, c11 text, c12 text, c13 timestamp)"
	q "CREATE UNLOGGED TABLE s2_src (LIKE s2)"
	q "INSERT INTO s2_src SELECT g, $(for i in $(seq 12); do printf 'md5(random()::text || %s), ' "$i"; done)
	     clock_timestamp() FROM generate_series(1, $S2_BATCH) g"
	local file=$SRV/s2_batch.dat
	q "COPY s2_src TO '$file'"
	sampler_setup
	write_header "clients=$CLIENTS threads=$THREADS seconds=$SECONDS_PER_RUN batch_rows=$S2_BATCH" \
		"unindexed table of 455-byte rows (as in S2's published case, doc/scenarios.md); copy = COPY FROM a server-side file, insert = INSERT ... SELECT;" \
		"waits sampled every 20 ms from pg_stat_activity"
	echo "pg_version,variant,clients,seconds,batch_rows,transactions,rows_per_sec,mb_per_sec,bytes_per_row,wal_bytes_per_row,extend_wait_pct,top_waits,rep" >>"$CSV"
	local v lsn0 res tx tps waits ext top line rep
	for rep in $(seq "$REPEATS"); do
	for v in $(in_order "$rep" copy insert); do
		q 'TRUNCATE s2'
		q 'CHECKPOINT'
		lsn0=$(wal_lsn)
		sampler_start "s2-$v-$rep"
		if [ $v = copy ]; then
			res=$(run_pgbench "$BENCH/s2_copy.sql" -M simple -D "file='$file'")
		else
			res=$(run_pgbench "$BENCH/s2_insert.sql" -M prepared)
		fi
		read -r tx tps <<<"$res"
		sampler_wait
		waits=$(sampler_report "s2-$v-$rep")
		ext=${waits%% *} top=${waits#* }
		line=$(q "SELECT format('%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,\"%s\",%s', '$major', '$v', $CLIENTS, $SECONDS_PER_RUN,
		                 $S2_BATCH, $tx, round($tps * $S2_BATCH),
		                 round(pg_relation_size('s2') / 1e6 / ($tx / $tps), 1),
		                 round(pg_relation_size('s2')::numeric / greatest($tx * $S2_BATCH, 1)),
		                 round(pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '$lsn0') / greatest($tx * $S2_BATCH, 1), 1),
		                 '$ext', '$top', $rep)")
		echo "$line" >>"$CSV"
		ou_log "S2 $v: $line"
	done
	done
}

# ---- S3 ---------------------------------------------------------------------------
s3() {
	q "CREATE TABLE s3_proto (id int8, c1 int8 DEFAULT 0, c2 int8 DEFAULT 0, c3 int8 DEFAULT 0,
	                          c4 float8 DEFAULT 0, c5 text DEFAULT repeat('a', 62),
	                          ts timestamp DEFAULT clock_timestamp())"
	q "DO \$\$ BEGIN FOR i IN 1..$S3_TABLES LOOP
	     EXECUTE format('CREATE TABLE s3_l%s (LIKE s3_proto INCLUDING ALL) WITH (autovacuum_enabled = off)', i);
	     EXECUTE format('CREATE UNLOGGED TABLE s3_u%s (LIKE s3_proto INCLUDING ALL) WITH (autovacuum_enabled = off)', i);
	   END LOOP; END \$\$"
	q "CREATE FUNCTION s3_ins(prefix text, sid int, id int8) RETURNS void LANGUAGE plpgsql AS
	   \$\$ BEGIN EXECUTE format('INSERT INTO %I (id) VALUES (\$1)', prefix || sid) USING id; END \$\$"
	sampler_setup
	write_header "tables=$S3_TABLES clients=$CLIENTS threads=$THREADS seconds=$SECONDS_PER_RUN" \
		"pgbench -M prepared; one single-row INSERT per transaction into a random one of the tables (as in S3's published case, doc/scenarios.md);" \
		"waits sampled every 20 ms from pg_stat_activity"
	echo "pg_version,variant,tables,clients,seconds,transactions,rows_per_sec,wal_bytes_per_row,top_waits,rep" >>"$CSV"
	local v prefix lsn0 res tx tps waits line rep
	for rep in $(seq "$REPEATS"); do
	for v in $(in_order "$rep" logged unlogged); do
		prefix=s3_${v:0:1}
		q 'CHECKPOINT'
		lsn0=$(wal_lsn)
		sampler_start "s3-$v-$rep"
		res=$(run_pgbench "$BENCH/s3_insert.sql" -M prepared -D ntables="$S3_TABLES" -D prefix="$prefix")
		read -r tx tps <<<"$res"
		sampler_wait
		waits=$(sampler_report "s3-$v-$rep")
		line=$(q "SELECT format('%s,%s,%s,%s,%s,%s,%s,%s,\"%s\",%s', '$major', '$v', $S3_TABLES, $CLIENTS, $SECONDS_PER_RUN,
		                 $tx, round($tps), round(pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '$lsn0') / greatest($tx, 1), 1),
		                 '${waits#* }', $rep)")
		echo "$line" >>"$CSV"
		ou_log "S3 $v: $line"
	done
	done
}

mkdir -p "$OUT"
"$MODE"
case $MODE in
s1) "$BENCH/spread.py" summary "$CSV" generator,step rows_per_sec >"$OUT/$NAME-summary.csv" ;;
*) "$BENCH/spread.py" summary "$CSV" variant rows_per_sec >"$OUT/$NAME-summary.csv" ;;
esac
ou_log "wrote $CSV and $OUT/$NAME-summary.csv (median, min, max and runs)"
