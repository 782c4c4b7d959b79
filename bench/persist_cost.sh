#!/usr/bin/env bash
# bench/persist_cost.sh -- what it costs to save the collector's statistics
# at a clean shutdown and to restore them at the next start, with every table
# full at the largest ordered_uuid.max_entries: five tables (the detailed
# profile on) of 1,000,000 entries each.
#
#   OU_CACHE=... PG_MAJOR=18 REPEATS=5 bench/persist_cost.sh
#
# Two throwaway servers with the same settings: "full", whose tables the test
# module's ou_test_collector_fill() fills once (a clean restart keeps them
# full), and "empty" (what the worker samples itself, a few hundred entries).
# REPEATS rounds, each a stop and a start of one server and then of the
# other, the order alternating from round to round (full first, then empty
# first), so that drift hits both.  Per run: the wall time of pg_ctl stop and
# of pg_ctl start (until the server accepts connections), the postmaster's
# own time to write the file and to read it back (its DEBUG1 lines), and the
# file's size.  Prints one line per run and the medians (min-max).
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
cd "$OU_ROOT"

major=${PG_MAJOR:-18} repeats=${REPEATS:-5}
entries=1000000
pg_config=$(ou_fetch_pg "$major")
ou_use_pg "$pg_config" "-Wall -Werror"
make -s -C test/module PG_CONFIG="$pg_config" >/dev/null
ou_sudo make -s install-test-module PG_CONFIG="$pg_config" >/dev/null
dir=${DIR:-/tmp/persist-cost-$major} port=5693
bindir=$("$pg_config" --bindir)
export PATH LD_LIBRARY_PATH
PATH=$bindir:$PATH
LD_LIBRARY_PATH=$(ou_libpath "$pg_config")
OU_SERVER_USER=$(ou_server_user)
opts=(shared_preload_libraries=ordered_uuid ordered_uuid.max_entries=$entries
	ordered_uuid.profile_queries=on log_min_messages=debug1 autovacuum=off)
trap 'for s in full empty; do ou_server_stop "$pg_config" "$dir/$s"; done' EXIT
rm -rf "$dir"
mkdir -p "$dir"

q() { psql -XAtq -v ON_ERROR_STOP=1 -h "$dir/$1" -p "$port" -U postgres -d postgres -c "$2"; }
now() { date +%s.%N; }
# the seconds of the last "WHAT ... in N s" DEBUG1 line of SERVER's log
logged_s() { sed -n "s/.*$2.* in \([0-9.]*\) s\$/\1/p" "$dir/$1/server.log" | tail -n 1; }

for s in full empty; do
	ou_server_start "$pg_config" "$dir/$s" "$port" "${opts[@]}"
	q "$s" "CREATE EXTENSION ordered_uuid" >/dev/null
done
q full "CREATE FUNCTION ou_test_collector_fill(int, timestamptz) RETURNS bigint
	AS 'ordered_uuid_test', 'ou_test_collector_fill' LANGUAGE C" >/dev/null
echo "# filled: $(q full "SELECT ou_test_collector_fill($entries, NULL)") entries"

# run SERVER: prints "SERVER stop_s save_s file_mb start_s restore_s entries"
run() {
	local s=$1 t0 t1 t2 mb
	t0=$(now)
	ou_as_server_user "$bindir/pg_ctl" -D "$dir/$s/data" -m fast -w -t 600 stop >/dev/null
	t1=$(now)
	mb=$(python3 -c "print('%.1f' % ($(stat -c %s "$dir/$s/data/pg_stat/ordered_uuid.stat") / 1048576))")
	ou_server_start "$pg_config" "$dir/$s" "$port" "${opts[@]}"
	t2=$(now)
	python3 -c "print('$s %.2f %s $mb %.2f %s %s' % ($t1 - $t0, '$(logged_s "$s" "saved the collector")',
		$t2 - $t1, '$(logged_s "$s" "restored the collector")',
		'$(q "$s" "SELECT profile_entries + extend_entries + split_entries FROM collector_info()")'))"
}

echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# server stop_s save_s file_mb start_s restore_s entries_in_3_tables"
for ((i = 1; i <= repeats; i++)); do
	if ((i % 2)); then order="full empty"; else order="empty full"; fi
	for s in $order; do run "$s"; done
done | tee "$dir/runs"
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$dir/runs" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    f = line.split()
    runs.setdefault(f[0], []).append([float(x) for x in f[1:6]])
names = ["stop_s", "save_s", "file_mb", "start_s", "restore_s"]
for s, rows in runs.items():
    cols = list(zip(*rows))
    print("%s (%d runs): " % (s, len(rows)) + ", ".join(
        "%s %.2f (%.2f-%.2f)" % (n, statistics.median(c), min(c), max(c)) for n, c in zip(names, cols)))
PY
