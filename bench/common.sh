# bench/common.sh -- sourced by the benchmark scripts of bench/ (after scripts/lib.sh): which
# PostgreSQL to use, the life of the throwaway server and its work directory, the machine line
# of the results.

# ou_bench_pg: set pg_config (PG_CONFIG, or a PostgreSQL PG_VERSION fetched like `make test`
# does) and major; build the extension and install it into that PostgreSQL.
ou_bench_pg() {
	if [ -n "${PG_CONFIG:-}" ]; then
		pg_config=$PG_CONFIG
	else
		ou_base_deps
		pg_config=$(ou_fetch_pg "${PG_VERSION:-$OU_DEFAULT_VERSION}")
	fi
	major=$("$pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
	ou_log "building and installing ordered_uuid into $("$pg_config" --version)"
	ou_use_pg "$pg_config"
}

# ou_bench_work PREFIX: set WORK (BENCH_WORK, or a new directory /tmp/PREFIX.XXXXXX) and SRV, the
# server directory inside it; on every exit path run ou_bench_on_exit (when the script defines
# one), stop the server and remove WORK unless KEEP_WORK is set.
ou_bench_work() {
	WORK=${BENCH_WORK:-$(mktemp -d "/tmp/$1.XXXXXX")}
	chmod 755 "$WORK"
	SRV=$WORK/server
	trap ou_bench_cleanup EXIT
	trap 'exit 130' INT TERM
}

ou_bench_cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	! declare -F ou_bench_on_exit >/dev/null || ou_bench_on_exit
	ou_server_stop "$pg_config" "$SRV"
	if [ -n "${KEEP_WORK:-}" ]; then ou_log "kept $WORK"; else rm -rf "$WORK"; fi
	exit "$rc"
}

# ou_bench_machine: "OS, N cores (CPU), RAM" and MACHINE_NOTE, for the header of results
ou_bench_machine() {
	local os cpu mem
	os=$(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-Linux}")
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)
	mem=$(awk '/^MemTotal/ {printf "%.0f GiB RAM", $2 / 1048576}' /proc/meminfo)
	echo "$os, $(nproc) cores${cpu:+ ($cpu)}, $mem${MACHINE_NOTE:+, $MACHINE_NOTE}"
}

# ou_bench_pgbench LOG PGBENCH-ARGUMENTS...: run pgbench with its output in LOG, wait (at most
# 10 s) until its connections have gone (backends flush their WAL statistics when they exit),
# print "transactions tps"
ou_bench_pgbench() {
	local log=$1 n tx tps
	shift
	pgbench "$@" >"$log" 2>&1 || { cat "$log" >&2; ou_die "pgbench failed"; }
	for n in $(seq 100); do
		[ "$(psql -qAtX -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pgbench'")" != 0 ] ||
			break
		sleep 0.1
	done
	sleep 0.5
	tx=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$log")
	tps=$(sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p' "$log")
	[ -n "$tx" ] && [ -n "$tps" ] || { cat "$log" >&2; ou_die "could not parse pgbench output"; }
	echo "$tx $tps"
}

# ou_bench_insert_spread CASE ARGS CSV: one bench_insert(ARGS) call (with repeats => N its
# repetitions interleaved); print its rows (the medians, the minimum and maximum of rows/s and the
# runs) and append one line per run (case, rep, generator, rows_per_sec) to CSV, with the header
# first when CSV has none, for bench/spread.py.
ou_bench_insert_spread() {
	local case=$1 args=$2 csv=$3 tmp
	tmp=$(mktemp)
	psql -qX -v ON_ERROR_STOP=1 -P pager=off \
		-c "CREATE TEMP TABLE ou_result AS SELECT * FROM bench_insert($args)" \
		-c "SELECT generator, rows, runs, round(rows_per_sec::numeric) AS rows_per_sec,
		           round(rows_per_sec_min::numeric) AS min, round(rows_per_sec_max::numeric) AS max,
		           round(seconds::numeric, 2) AS seconds, round(wal_bytes_per_row::numeric, 1) AS wal_bytes_per_row,
		           round(fpi_per_row::numeric, 4) AS fpi_per_row, round(leaf_splits_per_1k::numeric, 2) AS leaf_splits_per_1k,
		           pg_size_pretty(index_bytes) AS index, round(avg_leaf_density::numeric, 1) AS avg_leaf_density,
		           top_wait_events
		      FROM ou_result" \
		-c "\\copy (SELECT '${case//\'/\'\'}' AS case, r.rep, o.generator, r.rows_per_sec FROM ou_result o, unnest(o.rows_per_sec_runs) WITH ORDINALITY r(rows_per_sec, rep) ORDER BY o.run_order[r.rep]) TO '$tmp' CSV HEADER"
	if grep -q '^case,' "$csv" 2>/dev/null; then tail -n +2 "$tmp" >>"$csv"; else cat "$tmp" >>"$csv"; fi
	rm -f "$tmp"
}

# in_order REP WORD...: the words in repetition REP's order: odd repetitions as given, even ones
# reversed (as bench_insert(repeats => N) does)
in_order() {
	local r=$1 i
	shift
	local -a w=("$@")
	if [ $((r % 2)) = 0 ]; then
		for ((i = ${#w[@]} - 1; i >= 0; i--)); do printf '%s ' "${w[$i]}"; done
	else
		printf '%s ' "${w[@]}"
	fi
}
