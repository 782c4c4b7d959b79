#!/usr/bin/env bash
# scripts/test-lifecycle.sh [PG_CONFIG|MAJOR] [WORKDIR] -- the collector and
# the WAL diagnostics across a server's life, with real servers: a restart
# (the statistics saved and restored; files not to be trusted, a full disk,
# an immediate stop), a crash (kill -9 of a backend), a physical standby, its
# promotion to a new timeline, and pg_upgrade from this version (and from
# OU_UPGRADE_FROM, the pg_config of an older version, when set:
# scripts/test.sh sets it to the first version's on the last).  Called by scripts/test-one.sh once per version (with
# OU_LIFECYCLE_BUILT=1: the extension is built and installed already); run
# alone it fetches PostgreSQL MAJOR (default 18) and builds and installs the
# extension first.
#
# Prints one "ok N - what" or "not ok N - what" line per check and a last
# line "lifecycle: N passed, M failed"; exits non-zero if any failed.  Every
# wait gives up after OU_LC_WAIT seconds (default 60).  Stops its servers on
# every exit path.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$OU_ROOT"

pg_config=$(ou_pg_config_arg "${1:-}")
work=${2:-$(mktemp -d /tmp/ou-lifecycle.XXXXXX)}
wait_s=${OU_LC_WAIT:-60}
bindir=$("$pg_config" --bindir)
label=$("$pg_config" --version)
if [ -z "${OU_LIFECYCLE_BUILT:-}" ]; then
	ou_use_pg "$pg_config" "-Wall -Werror"
	make -s -C test/module PG_CONFIG="$pg_config" PG_CFLAGS="-Wall -Werror" >/dev/null
	ou_sudo make -s install-test-module PG_CONFIG="$pg_config" >/dev/null
fi
export PATH LD_LIBRARY_PATH
PATH=$bindir:$PATH
LD_LIBRARY_PATH=$(ou_libpath "$pg_config")
OU_SERVER_USER=$(ou_server_user)

primary=$work/primary standby=$work/standby port=5432
opts=(shared_preload_libraries=ordered_uuid wal_level=replica max_wal_senders=4
	hot_standby=on wal_keep_size=256MB ordered_uuid.sample_interval=10)

stop_all() {
	local d
	for d in "$primary" "$standby" "$work/upgrade-old" "$work/upgrade-new"; do
		[ -f "$d/data/postmaster.pid" ] &&
			ou_as_server_user "$bindir/pg_ctl" -D "$d/data" -m immediate -w -t 30 stop >/dev/null 2>&1
	done
	return 0
}
rm -rf "$primary" "$standby"
mkdir -p "$work"
chmod 755 "$work"

passed=0 failed=0 n=0 finished=
trap 'stop_all; [ -n "$finished" ] || echo "# lifecycle on $label: stopped early after $n checks ($failed failed)"' EXIT
# sql DIR QUERY: one value, unaligned, as the superuser postgres
sql() { psql -XAtq -v ON_ERROR_STOP=1 -h "$1" -p "$port" -U postgres -d postgres -c "$2"; }
# report WHAT STATUS [DETAIL]: one check's line
report() {
	n=$((n + 1))
	if [ "$2" = 0 ]; then
		echo "ok $n - $1"
		passed=$((passed + 1))
	else
		echo "not ok $n - $1"
		[ -z "${3:-}" ] || printf '#   %s\n' "$3"
		failed=$((failed + 1))
	fi
}
# check WHAT DIR QUERY: passes when QUERY answers t
check() {
	local got
	got=$(sql "$2" "$3" 2>&1) || true
	if [ "$got" = t ]; then report "$1" 0; else report "$1" 1 "$3 -> $got"; fi
}
# check_soon WHAT DIR QUERY: passes when QUERY answers t within wait_s
# seconds (for figures that a concurrent change may make differ for a moment)
check_soon() {
	local i
	for ((i = 0; i < wait_s * 5; i++)); do
		[ "$(sql "$2" "$3" 2>/dev/null)" = t ] && { report "$1" 0; return 0; }
		sleep 0.2
	done
	check "$@"
}
# await DIR QUERY: until QUERY answers t (errors, say while the server
# restarts, count as not yet); after wait_s seconds a failed check
await() {
	local i
	for ((i = 0; i < wait_s * 5; i++)); do
		[ "$(sql "$1" "$2" 2>/dev/null)" = t ] && return 0
		sleep 0.2
	done
	report "wait for: $2" 1 "gave up after ${wait_s}s"
}
start() { ou_server_start "$pg_config" "$1" "$port" "${opts[@]}"; }
stop() { ou_server_stop "$pg_config" "$1"; }

# the collector has followed the WAL of DIR up to its flush position now
caught_up() {
	local lsn
	lsn=$(sql "$1" "SELECT pg_current_wal_flush_lsn()")
	await "$1" "SELECT wal_reached >= '$lsn' FROM collector_info()"
}
# index_split_stats's counts of INDEX on DIR equal pgstatindex's pages
# (ascending inserts into an index created while the collector ran: every
# leaf split adds a leaf page, every upper or root split an internal page,
# every root split a level)
exact() {
	check "$1" "$2" "SELECT s.leaf_splits = i.leaf_pages - 1 AND s.upper_splits + s.root_splits = i.internal_pages
			AND s.root_splits = i.tree_level AND s.leaf_splits > 10
		FROM index_split_stats s, pgstatindex('$3') i WHERE s.index = '$3'::regclass"
}

# relation_wal_exact WHAT DIR TLI: relation_wal_stats of DIR, per relation
# file and fork, equals pg_waldump's count of the same WAL (timeline TLI,
# from the collector's wal_start to wal_reached): records with a block of it,
# bytes of the records whose first block is of it (len tot), images and
# their stored length (BLCKSZ - hole length - compression saved, from
# --bkp-details); the relation files it pruned sum to its pruned totals; at
# least two relation files (a table and its index) compared
walrel_sql="SELECT 'range ' || wal_start || ' ' || wal_reached || ' ' || pruned_records || '|' || pruned_bytes
		|| '|' || pruned_fpis || '|' || pruned_fpi_bytes FROM relation_wal_info()
	UNION ALL SELECT tablespace || '/' || datid || '/' || relfilenode || '/' || fork || ' ' || records || '|'
		|| wal_bytes || '|' || fpis || '|' || fpi_bytes FROM relation_wal_stats"
relation_wal_exact() {
	local i rows r1 start end bs seg rc=0 detail
	for ((i = 0; i < wait_s * 5; i++)); do
		rows=$(sql "$2" "$walrel_sql" 2>/dev/null) || rows=
		r1=$(sql "$2" "SELECT 'range ' || wal_start || ' ' || wal_reached FROM relation_wal_info()" 2>/dev/null) || r1=
		[ -n "$r1" ] && [[ $(grep '^range ' <<<"$rows") == "$r1 "* ]] && break
		sleep 0.2
	done
	read -r _ start end _ <<<"$(grep '^range ' <<<"$rows")"
	bs=$(sql "$2" "SELECT current_setting('block_size')")
	# the segments holding start and end named (start "+ 1": pg_walfile_name()
	# names the segment before a segment's first byte); without them
	# pg_waldump takes its segment size from whichever file it lists first,
	# which may be one made ahead, all zeros ("invalid WAL segment size")
	seg=$(sql "$2" "SELECT pg_walfile_name('$start'::pg_lsn + 1) || ' ' || pg_walfile_name('$end')")
	detail=$(ou_as_server_user "$bindir/pg_waldump" -p "$2/data/pg_wal" -t "$3" -b -s "$start" -e "$end" $seg 2>&1 |
		awk -v bs="$bs" -v view="$rows" '
		/^rmgr:/ { match($0, /len \(rec\/tot\): *[0-9]+\/ *[0-9]+/); t = substr($0, RSTART, RLENGTH);
			sub(/.*\/ */, "", t); tot = t; nb = 0; split("", seen); next }
		/blkref #[0-9]+: rel / { match($0, /rel [0-9]+\/[0-9]+\/[0-9]+ fork [a-z]+/); r = substr($0, RSTART + 4, RLENGTH - 4);
			sub(/ fork /, "/", r);
			if (!(r in seen)) { seen[r] = 1; rec[r]++; if (nb == 0) byt[r] += tot }
			nb++
			if ($0 ~ /\(FPW/) { fp[r]++; match($0, /hole: offset: [0-9]+, length: [0-9]+/);
				h = substr($0, RSTART, RLENGTH); sub(/.*length: /, "", h); sv = 0;
				if (match($0, /compression saved: [0-9]+/)) { sv = substr($0, RSTART + 19, RLENGTH - 19) }
				fb[r] += bs - h - sv } }
		END {
			n = split(view, lines, "\n"); bad = 0; live = 0
			for (i = 1; i <= n; i++) {
				split(lines[i], f, " ")
				if (f[1] == "range") { pruned = f[4]; continue }
				got = (rec[f[1]] + 0) "|" (byt[f[1]] + 0) "|" (fp[f[1]] + 0) "|" (fb[f[1]] + 0)
				if (got != f[2]) { bad++; print "# " f[1] ": view " f[2] ", pg_waldump " got }
				inview[f[1]] = 1; live++ }
			for (r in rec) if (!(r in inview)) { pr += rec[r]; pb += byt[r]; pf += fp[r]; pfb += fb[r] }
			if ((pr + 0) "|" (pb + 0) "|" (pf + 0) "|" (pfb + 0) != pruned) {
				bad++; print "# pruned: view " pruned ", pg_waldump " (pr + 0) "|" (pb + 0) "|" (pf + 0) "|" (pfb + 0) }
			if (live < 2) { bad++; print "# only " live " relation files" }
			exit bad > 0 }') || rc=1
	report "$1" $rc "$detail"
}

echo "# lifecycle on $label in $work"
start "$primary"
sql "$primary" "CREATE EXTENSION ordered_uuid" >/dev/null
sql "$primary" "CREATE EXTENSION pgstattuple" >/dev/null
await "$primary" "SELECT state = 'running' FROM collector_info()"

# The worker is stopped (SIGSTOP) while it sleeps in its latch wait, so it
# holds no lock and reads no WAL meanwhile.  stall / unstall:
stall() {
	local pid i
	pid=$(sql "$primary" "SELECT worker_pid FROM collector_info()")
	for ((i = 0; i < wait_s * 20; i++)); do
		kill -STOP "$pid"
		sleep 0.05
		[ "$(sql "$primary" "SELECT wait_event FROM pg_stat_activity WHERE pid = $pid")" = Extension ] && {
			stalled=$pid
			return 0
		}
		kill -CONT "$pid"
		sleep 0.02
	done
	report "stall the collector in its latch wait" 1 "gave up"
}
unstall() { kill -CONT "$stalled" 2>/dev/null || true; }
# set NAME=VALUE... (VALUE DEFAULT resets) and reload
set_conf() {
	local kv
	for kv in "$@"; do
		if [ "${kv#*=}" = DEFAULT ]; then
			sql "$primary" "ALTER SYSTEM RESET ${kv%%=*}"
		else
			sql "$primary" "ALTER SYSTEM SET ${kv%%=*} = '${kv#*=}'"
		fi
	done
	sql "$primary" "SELECT pg_reload_conf()" >/dev/null
}
# stop the primary while its worker is stalled: the shutdown's SIGTERM is
# pending (ShdPnd, bit 15) before it runs again, so it reads no more WAL
stop_stalled() {
	local i stopper
	ou_as_server_user "$bindir/pg_ctl" -D "$primary/data" -m fast -w -t "$wait_s" stop >/dev/null 2>&1 &
	stopper=$!
	for ((i = 0; i < wait_s * 20; i++)); do
		[ -e "/proc/$stalled" ] || break
		(($(printf '%d' "0x$(sed -n 's/^ShdPnd:\t//p' "/proc/$stalled/status" 2>/dev/null || echo 0)") & 0x4000)) && break
		sleep 0.05
	done
	unstall
	wait "$stopper" || report "stop the primary while its worker is stalled" 1 "pg_ctl stop failed"
}

# ---- restart: the statistics outlive a clean shutdown, as core's ----------
# The WAL per relation equals pg_waldump's, through TRUNCATE, VACUUM FULL,
# an immediate checkpoint and a random-key index after it, and on across a
# clean restart; z is dropped in the last moments before the shutdown, while
# the worker reads nothing: it reads the drop after the restart and prunes z.
for q in "SELECT ordered_uuid_reset()" "CREATE TABLE w (id uuid PRIMARY KEY, doc text)" \
	"ALTER TABLE w ALTER doc SET STORAGE EXTERNAL" \
	"INSERT INTO w SELECT gen_random_uuid(), repeat('d', 3000) FROM generate_series(1, 2000)" "TRUNCATE w" \
	"INSERT INTO w SELECT gen_random_uuid(), 'd' FROM generate_series(1, 5000)" "VACUUM FULL w" "CHECKPOINT" \
	"INSERT INTO w SELECT gen_random_uuid(), 'd' FROM generate_series(1, 5000)" \
	"CREATE TABLE a (id int PRIMARY KEY)" "INSERT INTO a SELECT generate_series(1, 20000)" \
	"CREATE TABLE z (id int PRIMARY KEY)" "INSERT INTO z SELECT generate_series(1, 20000)"; do
	sql "$primary" "$q" >/dev/null
done
sql "$primary" "CREATE DATABASE zdb" >/dev/null
psql -XAtq -v ON_ERROR_STOP=1 -h "$primary" -p "$port" -U postgres -d zdb \
	-c "CREATE TABLE zz (id int PRIMARY KEY); INSERT INTO zz SELECT generate_series(1, 20000)" >/dev/null
caught_up "$primary"
exact "before a restart: a's splits counted exactly" "$primary" a_pkey
relation_wal_exact "relation_wal_stats equals pg_waldump per relation file (records, bytes, images)" "$primary" 1
z_nodes=$(sql "$primary" "SELECT pg_relation_filenode('z') || ', ' || pg_relation_filenode('z_pkey')")
zdb=$(sql "$primary" "SELECT oid FROM pg_database WHERE datname = 'zdb'")
IFS='|' read -r old_pid reset0 pruned0 <<<"$(sql "$primary" "SELECT concat_ws('|', worker_pid, stats_reset, split_pruned) FROM collector_info()")"
# (DROP DATABASE waits for every process, the worker too: not while stalled)
sql "$primary" "DROP DATABASE zdb"
stall
sql "$primary" "DROP TABLE z"
stop_stalled
start "$primary"
await "$primary" "SELECT state = 'running' FROM collector_info()"
caught_up "$primary"
check "after a clean restart: the statistics go on (restored, stats_reset kept), with a new worker" "$primary" \
	"SELECT stats_restored AND stats_saved_at IS NOT NULL AND stats_start_reason LIKE 'restored%'
		AND worker_pid <> $old_pid AND stats_reset::text = '$reset0' FROM collector_info()"
exact "after a clean restart: a's splits go on, exactly" "$primary" a_pkey
check "after a clean restart: z, dropped while the worker read nothing before the shutdown, and database zdb are pruned" "$primary" \
	"SELECT split_pruned > $pruned0
		AND NOT EXISTS (SELECT FROM relation_wal_stats WHERE relfilenode IN ($z_nodes) OR datid = $zdb)
		AND NOT EXISTS (SELECT FROM index_split_stats WHERE relfilenode IN ($z_nodes) OR datid = $zdb) FROM collector_info()"
relation_wal_exact "after a clean restart: relation_wal_stats equals pg_waldump from before the restart to after it" "$primary" 1
sql "$primary" "CREATE TABLE b (id int PRIMARY KEY); INSERT INTO b SELECT generate_series(1, 20000)"
caught_up "$primary"
exact "after a restart: a new index's splits counted exactly" "$primary" b_pkey

# ---- full tables across a clean restart; files not to be trusted ----------
# Made-up entries (of databases that do not exist: nothing else touches
# them) in every table, the detailed profile on, stats_reset two hours back
# as after a long run.
sql "$primary" "CREATE FUNCTION ou_test_collector_fill(int, timestamptz) RETURNS bigint
	AS 'ordered_uuid_test', 'ou_test_collector_fill' LANGUAGE C" >/dev/null
made_up="SELECT count(*) || ' ' || md5(string_agg(r, ',' ORDER BY r)) FROM (
	SELECT concat_ws(':', 'p', datid, samples, est_time) AS r FROM wait_profile WHERE datid::bigint >= 4200000000
	UNION ALL SELECT concat_ws(':', 'e', datid, relid, waits, samples, est_wait_time, max_waiters, last_wait)
	  FROM extend_lock_stats WHERE datid::bigint >= 4200000000
	UNION ALL SELECT concat_ws(':', 's', datid, tablespace, relfilenode, leaf_splits, upper_splits, root_splits)
	  FROM index_split_stats WHERE datid::bigint >= 4200000000
	UNION ALL SELECT concat_ws(':', 'w', datid, relfilenode, fork, records, wal_bytes, fpis, fpi_bytes)
	  FROM relation_wal_stats WHERE datid::bigint >= 4200000000
	UNION ALL SELECT concat_ws(':', 'd', datid, queryid, userid, samples, est_time)
	  FROM wait_profile_detail WHERE datid::bigint >= 4200000000) x"
no_history="SELECT count(*) = 0 FROM write_path_report() WHERE finding LIKE 'too little history%'"
# restart_with OPTION...: a clean restart with the usual settings and these
restart_with() {
	stop "$primary"
	ou_server_start "$pg_config" "$primary" "$port" "${opts[@]}" "$@"
	await "$primary" "SELECT state = 'running' FROM collector_info()"
}
restart_with ordered_uuid.max_entries=4000 ordered_uuid.profile_queries=on
check "a restart that turns the detailed profile on: the rest restored, the detailed profile afresh" "$primary" \
	"SELECT stats_restored AND stats_start_reason LIKE 'restored%wait_profile_detail afresh: it was off at the last shutdown' FROM collector_info()"
sql "$primary" "SELECT ou_test_collector_fill(2000, now() - interval '2 hours')" >/dev/null
before=$(sql "$primary" "$made_up")
# tranche_rows NAME: the made-up samples on the collector's tranche show as NAME
tranche_rows() {
	echo "SELECT count(*) = 200 AND bool_and(wait_event_type = 'LWLock' AND wait_event = '$1')
	   FROM wait_profile WHERE datid::bigint >= 4200000000 AND (datid::bigint - 4200000000) % 10 = 0"
}
check "before a clean restart: the samples on the collector's own LWLock tranche show its name" "$primary" \
	"$(tranche_rows ordered_uuid)"
check "write_path_report() before a clean restart: two hours of history" "$primary" "$no_history"
restart_with ordered_uuid.max_entries=4000 ordered_uuid.profile_queries=on
check "after a clean restart: every made-up entry of the five tables back, unchanged (${before%% *} entries)" "$primary" \
	"SELECT ($made_up) = '$before' AND '$before' LIKE '10000 %'"
check "after a clean restart: an extension's LWLock tranche (an id given out at start) is LWLock / extension, its samples kept" "$primary" \
	"$(tranche_rows extension)"
check "write_path_report() after a clean restart keeps its history" "$primary" "$no_history"
# a smaller max_entries: each table keeps its most recently used entries;
# the WAL counts of those left out go to relation_wal_info()'s evicted ones
evicted0=$(sql "$primary" "SELECT evicted_records FROM relation_wal_info()")
restart_with ordered_uuid.max_entries=1000 ordered_uuid.profile_queries=on
check "a restart with a smaller max_entries keeps each table's 1000 most recently used entries, the rest counted as evicted" "$primary" \
	"SELECT c.extend_entries <= 1000 AND c.split_entries <= 1000 AND c.extend_evicted >= 2000 - e.n
		AND e.lo = 4200000000 + 2000 - e.n AND s.lo = 4200000000 + 2000 - s.n AND e.n > 500 AND s.n > 500
	   FROM collector_info() c,
			(SELECT count(*) AS n, min(datid::bigint) AS lo FROM extend_lock_stats WHERE datid::bigint >= 4200000000) e,
			(SELECT count(*) AS n, min(datid::bigint) AS lo FROM index_split_stats WHERE datid::bigint >= 4200000000) s"
check "... and the WAL counts of the made-up relation_wal_stats entries left out are in its evicted totals" "$primary" \
	"SELECT w.n <= 1000 AND w.lo = 4200000000 + 2000 - w.n
		AND i.evicted_records - $evicted0 >= (2000 - w.n) * (2000 - w.n + 1) / 2
	   FROM relation_wal_info() i,
			(SELECT count(*) AS n, min(datid::bigint) AS lo FROM relation_wal_stats WHERE datid::bigint >= 4200000000) w"
# files not to be trusted: ignored with a LOG line, the statistics afresh,
# the file gone
file=$primary/data/pg_stat/ordered_uuid.stat
logged=0
# ignored WHAT REASON: after a start, the file was ignored for REASON
ignored() {
	local got rc=0 lines
	got=$(sql "$primary" "SELECT stats_start_reason FROM collector_info() WHERE NOT stats_restored" 2>&1) || true
	[[ $got == "afresh: the saved statistics were ignored because $2"* ]] || rc=1
	lines=$(grep -c "ignoring the collector's saved statistics in file" "$primary/server.log" || true)
	[ "$lines" -gt "$logged" ] && [ ! -e "$file" ] || rc=1
	logged=$lines
	report "$1" $rc "$got"
}
stop "$primary"
# (the byte in the middle of the entries, complemented)
off=$(($(stat -c %s "$file") / 2))
byte=$(od -An -tu1 -j "$off" -N1 "$file")
printf "\\$(printf %03o $((255 - byte)))" | dd of="$file" bs=1 seek="$off" conv=notrunc status=none
restart_with
ignored "a file with one byte changed is ignored" "the file's checksum does not match its contents"
stop "$primary"
truncate -s -100 "$file"
restart_with
ignored "a truncated file is ignored" "the file is truncated or too long"
# a file made to pass the checksum, with a fork number out of range (which
# names the fork from an array of four): checked and ignored, never used.
# The header (collector_persist.h): header_size at byte 12, entry_size[5] at
# 48, entries[5] at 72; the WAL per relation is the fourth table, the fork
# number 12 bytes into its entry; then the CRC-32C of all before it.
sql "$primary" "CREATE TABLE fork_t AS SELECT 1 AS x" >/dev/null
caught_up "$primary"
stop "$primary"
perl -e '
	open my $f, "+<:raw", $ARGV[0] or die "$ARGV[0]: $!";
	local $/; my $d = <$f>;
	my $hs = unpack "V", substr($d, 12, 4);
	my @size = unpack "V5", substr($d, 48, 20);
	my @n = unpack "Q<5", substr($d, 72, 40);
	die "no entry of relation_wal_stats\n" unless $n[3];
	substr($d, $hs + $n[0] * $size[0] + $n[1] * $size[1] + $n[2] * $size[2] + 12, 4) = pack "l<", 99;
	my @t = map { my $c = $_; $c = $c & 1 ? ($c >> 1) ^ 0x82F63B78 : $c >> 1 for 1 .. 8; $c } 0 .. 255;
	my $c = 0xFFFFFFFF;
	$c = $t[($c ^ $_) & 0xFF] ^ ($c >> 8) for unpack "C*", substr($d, 0, -4);
	substr($d, -4) = pack "V", $c ^ 0xFFFFFFFF;
	seek $f, 0, 0; print $f $d; close $f or die;' "$file"
restart_with
ignored "a file with a valid checksum and a fork number out of range is ignored" \
	"an entry of the file's relation_wal_stats is invalid"
# the server runs meanwhile without the library: relations dropped then
# would come back under their old counts
stop "$primary"
ou_server_start "$pg_config" "$primary" "$port" wal_level=replica max_wal_senders=4
restart_with
ignored "a file saved before the server ran without the library is ignored" "the file was saved at checkpoint"
# a full disk at the shutdown loses the file, not the shutdown
if [ -c /dev/full ]; then
	ln -s /dev/full "$file.tmp"
	rc=0
	ou_as_server_user "$bindir/pg_ctl" -D "$primary/data" -m fast -w -t "$wait_s" stop >/dev/null || rc=1
	grep -q 'could not write file "pg_stat/ordered_uuid.stat.tmp": No space left on device' "$primary/server.log" || rc=1
	[ ! -e "$file" ] && [ ! -L "$file.tmp" ] || rc=1
	report "a full disk at a shutdown (the file written to /dev/full): the shutdown completes, the file is lost, with a LOG line" $rc
	ou_server_start "$pg_config" "$primary" "$port" "${opts[@]}"
	await "$primary" "SELECT state = 'running' FROM collector_info()"
	check "after it: the statistics start afresh, as none were saved" "$primary" \
		"SELECT NOT stats_restored AND stats_start_reason LIKE 'afresh: no saved statistics%' FROM collector_info()"
else
	report "a full disk at a shutdown # SKIP no /dev/full" 0
fi
# ordered_uuid.save_statistics = off: nothing saved
set_conf ordered_uuid.save_statistics=off
stop "$primary"
rc=0
[ ! -e "$file" ] || rc=1
report "save_statistics = off: nothing saved at a clean shutdown" $rc
restart_with
check "save_statistics = off: the statistics start afresh, and say why" "$primary" \
	"SELECT NOT stats_restored AND stats_start_reason = 'afresh: ordered_uuid.save_statistics is off' FROM collector_info()"
set_conf ordered_uuid.save_statistics=DEFAULT
# an immediate stop is a crash to the statistics, as to core's
ou_as_server_user "$bindir/pg_ctl" -D "$primary/data" -m immediate -w -t "$wait_s" stop >/dev/null
restart_with
check "after an immediate stop: the statistics start afresh, and say why" "$primary" \
	"SELECT NOT stats_restored AND stats_start_reason LIKE 'afresh: the server did not shut down cleanly%' FROM collector_info()"

# ---- retention: a checkpoint while the worker is stalled loses nothing -----
# churn, a burst into a live index, a WAL switch and an immediate checkpoint
# while the worker reads nothing: every split is counted once it goes on
burst_while_stalled() {
	sql "$primary" "CREATE TABLE $1 (id int PRIMARY KEY); INSERT INTO $1 SELECT generate_series(1, 1000)"
	caught_up "$primary"
	stall
	# (from a new segment: the worker keeps the one it reads open, and reads
	# an open segment to its end even once it is recycled)
	sql "$primary" "SELECT pg_switch_wal()" >/dev/null
	for i in $(seq 1 120); do
		sql "$primary" "CREATE TABLE churn_$i (id int PRIMARY KEY); INSERT INTO churn_$i SELECT generate_series(1, 400); DROP TABLE churn_$i"
	done
	sql "$primary" "INSERT INTO $1 SELECT generate_series(1001, 31000)"
	sql "$primary" "SELECT pg_switch_wal()" >/dev/null
	sql "$primary" "CHECKPOINT"
	sql "$primary" "SELECT pg_switch_wal()" >/dev/null
	sql "$primary" "CHECKPOINT"
	unstall
	caught_up "$primary"
}
# a server that keeps no WAL for wal_keep_size
start_lean() { ou_server_start "$pg_config" "$primary" "$port" "${opts[@]}" wal_keep_size=0 min_wal_size=32MB; }
stop "$primary"
start_lean
await "$primary" "SELECT state = 'running' FROM collector_info()"
check "retention: the collector's slot keeps the WAL it has not read" "$primary" \
	"SELECT c.wal_retention = 'slot' AND s.active AND s.restart_lsn <= c.wal_reached
	   FROM collector_info() c, pg_replication_slots s WHERE s.slot_name = 'ordered_uuid_collector'"
skipped=$(sql "$primary" "SELECT wal_skipped_bytes FROM collector_info()")
burst_while_stalled r1
exact "retention: churn, a burst and a checkpoint while stalled: r1's splits counted exactly" "$primary" r1_pkey
check "retention: nothing skipped, no lag left" "$primary" \
	"SELECT wal_skipped_bytes = $skipped AND wal_lag_bytes < 1000000 FROM collector_info()"
# past ordered_uuid.max_wal_keep_size it lets go, skips and counts; a bound
# below 1MB is that bound (1.3.0 rounded it to 0: no slot)
set_conf ordered_uuid.max_wal_keep_size=512kB
await "$primary" "SELECT setting = '0.5' FROM pg_settings WHERE name = 'ordered_uuid.max_wal_keep_size'"
check "retention: max_wal_keep_size = '512kB' is 512kB, with a slot (not 0: no slot)" "$primary" \
	"SELECT current_setting('ordered_uuid.max_wal_keep_size') = '512kB' AND wal_retention = 'slot' FROM collector_info()"
rc=0
out=$(sql "$primary" "ALTER SYSTEM SET ordered_uuid.max_wal_keep_size = '-0.5'" 2>&1) && rc=1
[[ $out == *"It must be -1 (no bound), 0 (no slot) or a positive size."* ]] || rc=1
report "retention: max_wal_keep_size = '-0.5' is rejected, with a clear message" $rc "$out"
sql "$primary" "CREATE TABLE r2 (id int PRIMARY KEY); INSERT INTO r2 SELECT generate_series(1, 1000)"
caught_up "$primary"
stall
lag_from=$(sql "$primary" "SELECT pg_current_wal_flush_lsn()")
sql "$primary" "INSERT INTO r2 SELECT generate_series(1001, 200000)"
check "retention: while stalled, the lag shows in bytes and time" "$primary" \
	"SELECT pg_current_wal_flush_lsn() - '$lag_from' <= wal_lag_bytes AND wal_lag > '0' FROM collector_info()"
unstall
caught_up "$primary"
rc=0
grep -q "ordered_uuid collector is more than ordered_uuid.max_wal_keep_size (512kB) behind the WAL" "$primary/server.log" || rc=$?
report "retention: past max_wal_keep_size it lets go, and says so (LOG)" $rc
check_soon "retention: caught up again, the slot holds again" "$primary" \
	"SELECT wal_retention = 'slot' FROM collector_info()"
set_conf ordered_uuid.max_wal_keep_size=DEFAULT
# A checkpoint recycles the segment that the worker, behind by more than
# max_wal_keep_size, is reading (open, its slot let go): renamed to a future
# segment, whose WAL then overwrites it.  The worker skips it and counts it,
# never an error (1.3.0 read the new WAL as the old and ended with
# "unexpected pageaddr").  The worker is stopped in the middle of a page read
# (wait event WALRead) or between two page reads of a segment it has open,
# behind the flush position and behind its slot's restart_lsn (the slot has
# let go of it): either way it reads on from that open file, which the next
# checkpoint may recycle.  Waiting for WALRead alone missed the read on a
# busy machine.
# stall_reading PID: stop the worker so, and set reading to the segment it
# has open
stall_reading() {
	local pid=$1 i ev flushed kept
	for ((i = 0; i < wait_s * 10; i++)); do
		kill -STOP "$pid"
		ev=$(sql "$primary" "SELECT pg_walfile_name(pg_current_wal_flush_lsn()) || ' ' ||
				coalesce((SELECT pg_walfile_name(min(restart_lsn)) FROM pg_replication_slots
						  WHERE slot_name LIKE 'ordered_uuid%'), 'none')")
		reading=$(readlink /proc/"$pid"/fd/* 2>/dev/null | sed -n 's|.*/pg_wal/\([0-9A-F]\{24\}\)$|\1|p' | head -n 1)
		flushed=${ev% *} kept=${ev#* }
		if [ -n "$reading" ] && [[ $reading < $flushed ]] && [[ $kept == none || $reading < $kept ]]; then
			stalled=$pid
			return 0
		fi
		kill -CONT "$pid"
		sleep 0.0$((RANDOM % 3))
	done
	report "stop the collector while it reads WAL, behind" 1 "gave up"
	return 1
}
# (min_wal_size 1GB: a checkpoint recycles every segment it removes)
stop "$primary"
ou_server_start "$pg_config" "$primary" "$port" "${opts[@]}" wal_keep_size=0 min_wal_size=1GB
await "$primary" "SELECT state = 'running' AND wal_reached IS NOT NULL FROM collector_info()"
set_conf ordered_uuid.max_wal_keep_size=512kB
sql "$primary" "CREATE TABLE r4 (id int PRIMARY KEY); INSERT INTO r4 SELECT generate_series(1, 1000)"
caught_up "$primary"
read -r pid0 skipped <<<"$(sql "$primary" "SELECT concat_ws(' ', worker_pid, wal_skipped_bytes) FROM collector_info()")"
errors0=$(grep -c "could not read WAL" "$primary/server.log" || true)
stall
sql "$primary" "INSERT INTO r4 SELECT generate_series(1001, 400000)"
unstall
if stall_reading "$pid0"; then
	sql "$primary" "CHECKPOINT"
	recycled=$(readlink "/proc/$pid0/fd/"* 2>/dev/null | sed -n 's|.*/pg_wal/\([0-9A-F]\{24\}\)$|\1|p' | head -n 1)
	for ((i = 0; i < 20; i++)); do
		[[ $(sql "$primary" "SELECT pg_walfile_name(pg_current_wal_insert_lsn())") > "$recycled" ]] && break
		sql "$primary" "INSERT INTO r4 VALUES (-$i); SELECT pg_switch_wal()" >/dev/null
	done
	rc=0
	[ -n "$recycled" ] && [ "$recycled" != "$reading" ] || rc=1
	report "retention: a checkpoint recycled the segment the worker reads, past max_wal_keep_size ($reading, now ${recycled:-gone}), and new WAL overwrote it" $rc
	unstall
fi
caught_up "$primary"
check "retention: the same worker skipped the recycled segment and counted it" "$primary" \
	"SELECT worker_pid = $pid0 AND wal_skipped_bytes > $skipped FROM collector_info()"
rc=0
[ "$(grep -c "could not read WAL" "$primary/server.log" || true)" = "$errors0" ] || rc=1
report "retention: no ERROR for the recycled segment in the server log" $rc \
	"$(grep "could not read WAL" "$primary/server.log" | tail -n 1)"
set_conf ordered_uuid.max_wal_keep_size=DEFAULT
# across a restart: a new worker, a new slot, and the same holds
stop "$primary"
start_lean
await "$primary" "SELECT state = 'running' FROM collector_info()"
check "retention: after a restart, one slot, the new worker's" "$primary" \
	"SELECT count(*) = 1 AND bool_and(s.active_pid = c.worker_pid)
	   FROM pg_replication_slots s, collector_info() c WHERE s.slot_name LIKE 'ordered_uuid%'"
skipped=$(sql "$primary" "SELECT wal_skipped_bytes FROM collector_info()")
burst_while_stalled r3
exact "retention: after a restart, a burst and a checkpoint while stalled: r3's splits counted exactly" "$primary" r3_pkey
check "retention: after a restart, nothing skipped" "$primary" \
	"SELECT wal_skipped_bytes = $skipped FROM collector_info()"
# no slot to be had: the worker runs without one, never an error
stop "$primary"
ou_server_start "$pg_config" "$primary" "$port" "${opts[@]}" max_replication_slots=0
await "$primary" "SELECT state = 'running' AND wal_reached IS NOT NULL FROM collector_info()"
check "retention: with max_replication_slots = 0 it follows the WAL without a slot" "$primary" \
	"SELECT wal_retention = 'none: no free replication slot' FROM collector_info()"
stop "$primary"
ou_server_start "$pg_config" "$primary" "$port" "${opts[@]}" wal_level=minimal max_wal_senders=0
await "$primary" "SELECT state = 'running' AND wal_reached IS NOT NULL FROM collector_info()"
check "retention: with wal_level = minimal it follows the WAL without a slot" "$primary" \
	"SELECT wal_retention = 'none: wal_level is minimal' FROM collector_info()"
# a REPLICATION role's persistent slot of its name holds the only slot: the
# worker follows the WAL without one, and never uses nor drops it (not even
# a new worker)
stop "$primary"
ou_server_start "$pg_config" "$primary" "$port" wal_level=replica max_wal_senders=4 max_replication_slots=1
sql "$primary" "CREATE ROLE ou_repl LOGIN REPLICATION"
repl() { psql -XAtq -v ON_ERROR_STOP=1 -h "$primary" -p "$port" -U ou_repl -d postgres -c "$1"; }
repl "SELECT pg_create_physical_replication_slot('ordered_uuid_collector', true)" >/dev/null
stop "$primary"
ou_server_start "$pg_config" "$primary" "$port" "${opts[@]}" max_replication_slots=1
await "$primary" "SELECT state = 'running' AND wal_reached IS NOT NULL FROM collector_info()"
theirs="SELECT NOT s.active AND NOT s.temporary AND s.restart_lsn IS NOT NULL AND c.wal_retention = 'none: slot name in use'
	   FROM pg_replication_slots s, collector_info() c WHERE s.slot_name = 'ordered_uuid_collector'"
check "retention: a slot of its name exists (a REPLICATION role's): it follows the WAL without one, and leaves it alone" "$primary" "$theirs"
old_pid=$(sql "$primary" "SELECT worker_pid FROM collector_info()")
sql "$primary" "SELECT pg_terminate_backend($old_pid)" >/dev/null
await "$primary" "SELECT state = 'running' AND worker_pid <> $old_pid AND wal_reached IS NOT NULL FROM collector_info()"
check "retention: a new worker leaves that slot alone too" "$primary" "$theirs"
# the role frees the last slot (say, to recreate a standby's): the worker
# does not take it behind the administrator's back (1.3.0 retried every 10 s)
repl "SELECT pg_drop_replication_slot('ordered_uuid_collector')" >/dev/null
sleep 12
caught_up "$primary"
check "retention: a slot freed while the worker runs stays free (12 s later)" "$primary" \
	"SELECT count(*) = 0 FROM pg_replication_slots"
check "retention: the administrator takes the freed slot" "$primary" \
	"SELECT (pg_create_physical_replication_slot('ou_standby')).slot_name = 'ou_standby'"
sql "$primary" "SELECT pg_drop_replication_slot('ou_standby')" >/dev/null 2>&1 || true
# a new worker takes its slot: restarting the worker is how to ask for one
old_pid=$(sql "$primary" "SELECT worker_pid FROM collector_info()")
sql "$primary" "SELECT pg_terminate_backend($old_pid)" >/dev/null
await "$primary" "SELECT state = 'running' AND worker_pid <> $old_pid FROM collector_info()"
check_soon "retention: a new worker takes its slot once one is free" "$primary" \
	"SELECT c.wal_retention = 'slot' AND s.active_pid = c.worker_pid
	   FROM collector_info() c, pg_replication_slots s WHERE s.slot_name = 'ordered_uuid_collector'"
# without the library: no slot is left to hold WAL
stop "$primary"
ou_server_start "$pg_config" "$primary" "$port" wal_level=replica max_wal_senders=4
check "retention: started without the library, no slot of ours is left" "$primary" \
	"SELECT count(*) = 0 FROM pg_replication_slots WHERE slot_name LIKE 'ordered_uuid%'"
stop "$primary"
start "$primary"
await "$primary" "SELECT state = 'running' FROM collector_info()"

# ---- crash: kill -9 of a backend; the postmaster reinitialises memory -------
old_pid=$(sql "$primary" "SELECT worker_pid FROM collector_info()")
psql -XAtq -h "$primary" -p "$port" -U postgres -d postgres -c "SELECT pg_sleep(600)" >/dev/null 2>&1 &
sleeper=$!
await "$primary" "SELECT count(*) = 1 FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(600)'"
victim=$(sql "$primary" "SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(600)'")
t_crash=$(date -u '+%Y-%m-%d %H:%M:%S+00')
kill -9 "$victim"
wait "$sleeper" 2>/dev/null || true
await "$primary" "SELECT state = 'running' AND worker_pid <> $old_pid FROM collector_info()"
check "after a crash: the collector is back with a new worker" "$primary" \
	"SELECT state = 'running' AND worker_pid <> $old_pid FROM collector_info()"
check_soon "after a crash: shared state reinitialised and consistent" "$primary" \
	"SELECT c.stats_reset >= '$t_crash' AND c.split_entries = (SELECT count(*) FROM ordered_uuid_index_split_stats())
		AND c.split_entries <= c.max_entries AND c.split_dropped = 0 AND c.wal_start IS NOT NULL
	   FROM collector_info() c"
check_soon "after a crash: one slot of ours, the new worker's" "$primary" \
	"SELECT count(*) = 1 AND bool_and(s.active_pid = c.worker_pid)
	   FROM pg_replication_slots s, collector_info() c WHERE s.slot_name LIKE 'ordered_uuid%'"
rc=0
grep -q "all server processes terminated; reinitializing" "$primary/server.log" || rc=$?
report "after a crash: the server reinitialised (its log says so)" $rc
check "after a crash: the statistics start afresh, and say why" "$primary" \
	"SELECT NOT stats_restored AND stats_start_reason = 'afresh: the server reinitialised after a server process crashed'
	   FROM collector_info()"
sql "$primary" "CREATE TABLE c (id int PRIMARY KEY); INSERT INTO c SELECT generate_series(1, 20000)"
caught_up "$primary"
exact "after a crash: a new index's splits counted exactly" "$primary" c_pkey

# ---- a physical standby: the collector does not run; diagnostics do -------
mkdir -p "$standby"
chmod 755 "$standby"
chown "$OU_SERVER_USER" "$standby"
ou_as_server_user "$bindir/pg_basebackup" -h "$primary" -p "$port" -U postgres \
	-D "$standby/data" -R -X stream -c fast >/dev/null
start "$standby"
await "$standby" "SELECT pg_is_in_recovery()"
check "standby: collector_info() says it is in recovery, with no worker" "$standby" \
	"SELECT state = 'recovery' AND worker_pid IS NULL FROM collector_info()"
check "standby: nothing of the primary's statistics came with the base backup, and it says so" "$standby" \
	"SELECT NOT stats_restored AND stats_start_reason = 'afresh: the server starts from a base backup' FROM collector_info()"
rc=0
sql "$standby" "SELECT count(*) FROM index_split_stats" 2>&1 | grep "does not run during recovery" >/dev/null || rc=$?
report "standby: the views say why they are empty (a NOTICE)" $rc
rc=0
sql "$standby" "SELECT count(*) FROM relation_wal_stats" 2>&1 | grep "does not run during recovery" >/dev/null || rc=$?
report "standby: relation_wal_stats says why it is empty (a NOTICE)" $rc
lsn0=$(sql "$primary" "CREATE TABLE d (id int PRIMARY KEY); SELECT pg_current_wal_flush_lsn()" | tail -n 1)
sql "$primary" "INSERT INTO d SELECT generate_series(1, 20000)"
lsn1=$(sql "$primary" "SELECT pg_current_wal_flush_lsn()")
await "$standby" "SELECT pg_last_wal_replay_lsn() >= '$lsn1'"
splits="SELECT leaf_splits || '/' || upper_splits || '/' || root_splits FROM index_splits('$lsn0', '$lsn1')
	WHERE relfilenode = pg_relation_filenode('d_pkey')"
on_primary=$(sql "$primary" "$splits")
check "standby: index_splits() over replayed WAL equals the primary's ($on_primary)" "$standby" \
	"SELECT ($splits) = '$on_primary' AND '$on_primary' <> ''"
check "standby: index_splits() equals pgstatindex" "$standby" \
	"SELECT s.leaf_splits = i.leaf_pages - 1 AND s.upper_splits + s.root_splits = i.internal_pages
		AND s.root_splits = i.tree_level FROM index_splits('$lsn0', '$lsn1') s, pgstatindex('d_pkey') i
	  WHERE s.relfilenode = pg_relation_filenode('d_pkey')"

# a start inside the zeroed pages after a WAL switch record, as received
sw=$(sql "$primary" "CREATE TABLE g (id int PRIMARY KEY); SELECT pg_switch_wal()" | tail -n 1)
sql "$primary" "INSERT INTO g SELECT generate_series(1, 20000)"
lsn1=$(sql "$primary" "SELECT pg_current_wal_flush_lsn()")
await "$standby" "SELECT pg_last_wal_replay_lsn() >= '$lsn1'"
check "standby: index_splits() from inside a WAL switch's padding equals pgstatindex" "$standby" \
	"SELECT s.leaf_splits = i.leaf_pages - 1 AND s.root_splits = i.tree_level AND s.leaf_splits > 10
		FROM index_splits('$sw'::pg_lsn + 8192) s, pgstatindex('g_pkey') i
	  WHERE s.relfilenode = pg_relation_filenode('g_pkey')"

# a standby keeps what it had across a clean restart (made-up entries: the
# worker does not run there)
quiet="SET client_min_messages = warning;"
sql "$standby" "SELECT ou_test_collector_fill(10, NULL)" >/dev/null
stop "$standby"
start "$standby"
await "$standby" "SELECT pg_is_in_recovery()"
check "standby: a clean restart keeps what it had (restored: its 10 made-up entries)" "$standby" \
	"$quiet SELECT c.stats_restored AND (SELECT count(*) FROM extend_lock_stats WHERE datid::bigint >= 4200000000) = 10
	   FROM collector_info() c"

# ---- promotion: a new timeline; splits counted across the switch ------------
lsn0=$(sql "$primary" "CREATE TABLE e (id int PRIMARY KEY); SELECT pg_current_wal_flush_lsn()" | tail -n 1)
sql "$primary" "INSERT INTO e SELECT generate_series(1, 20000)"
lsn1=$(sql "$primary" "SELECT pg_current_wal_flush_lsn()")
await "$standby" "SELECT pg_last_wal_replay_lsn() >= '$lsn1'"
stop "$primary"
ou_as_server_user "$bindir/pg_ctl" -D "$standby/data" -w -t "$wait_s" promote >/dev/null
await "$standby" "SELECT NOT pg_is_in_recovery()"
check "promotion: the new primary writes timeline 2" "$standby" \
	"SELECT pg_walfile_name(pg_current_wal_lsn()) LIKE '00000002%'"
sql "$standby" "INSERT INTO e SELECT generate_series(20001, 40000)"
lsn2=$(sql "$standby" "SELECT pg_current_wal_flush_lsn()")
check "promotion: index_splits() across the timeline switch equals pgstatindex" "$standby" \
	"SELECT s.leaf_splits = i.leaf_pages - 1 AND s.upper_splits + s.root_splits = i.internal_pages
		AND s.root_splits = i.tree_level AND s.leaf_splits > 20 FROM index_splits('$lsn0', '$lsn2') s, pgstatindex('e_pkey') i
	  WHERE s.relfilenode = pg_relation_filenode('e_pkey')"
await "$standby" "SELECT state = 'running' FROM collector_info()"
check "promotion: the collector runs on the new primary" "$standby" \
	"SELECT state = 'running' AND worker_pid IS NOT NULL FROM collector_info()"
check "promotion: the new primary starts its own statistics (the standby's dropped), and says why" "$standby" \
	"SELECT NOT stats_restored AND stats_start_reason LIKE 'afresh: the server is on timeline 2, the saved statistics were of timeline 1%'
		AND NOT EXISTS (SELECT FROM extend_lock_stats WHERE datid::bigint >= 4200000000) FROM collector_info()"
caught_up "$standby"
sql "$standby" "CREATE TABLE f (id int PRIMARY KEY); INSERT INTO f SELECT generate_series(1, 20000)"
caught_up "$standby"
exact "promotion: a new index's splits counted exactly on timeline 2" "$standby" f_pkey
sql "$standby" "SELECT ordered_uuid_reset(); CHECKPOINT; INSERT INTO f SELECT generate_series(20001, 30000); UPDATE f SET id = -id WHERE id % 10 = 0" >/dev/null
caught_up "$standby"
relation_wal_exact "promotion: relation_wal_stats equals pg_waldump on timeline 2" "$standby" 2

# ---- pg_upgrade, the library preloaded on both sides ------------------------
# upgrade OLD_PG_CONFIG: pg_upgrade from a cluster of OLD_PG_CONFIG (with the
# library installed) to one of this version.  The old cluster has a logical
# slot (test_decoding), which pg_upgrade of 17 and later recreates in the new
# one, whose max_replication_slots leaves room for it alone: the collector
# must take no slot while pg_upgrade runs the new cluster (binary-upgrade
# mode; 1.3.0 took one, and pg_upgrade failed).
upgrade() {
	local old_pgc=$1 od=$work/upgrade-old nd=$work/upgrade-new uw=$work/upgrade
	local old_bin old_major new_major checksums= rc=0 what retention=slot
	old_bin=$("$old_pgc" --bindir)
	old_major=$("$old_pgc" --version | sed 's/^PostgreSQL \([0-9]*\).*/\1/')
	new_major=$("$pg_config" --version | sed 's/^PostgreSQL \([0-9]*\).*/\1/')
	what="pg_upgrade $old_major -> $new_major"
	# 18's initdb turns data checksums on, and pg_upgrade needs both alike
	[ "$new_major" -lt 18 ] || [ "$old_major" -ge 18 ] || checksums=--no-data-checksums
	rm -rf "$od" "$nd" "$uw"
	mkdir -p "$od" "$nd" "$uw"
	chmod 755 "$od" "$nd" "$uw"
	chown "$OU_SERVER_USER" "$od" "$nd" "$uw"
	ou_as_server_user "$old_bin/initdb" -D "$od/data" -U postgres -E UTF8 --locale=C --auth=trust >/dev/null
	ou_as_server_user "$bindir/initdb" -D "$nd/data" -U postgres -E UTF8 --locale=C --auth=trust $checksums >/dev/null
	# pg_upgrade starts both servers with their own configuration files
	printf '%s\n' "shared_preload_libraries = 'ordered_uuid'" "wal_level = logical" \
		"max_replication_slots = 2" >>"$od/data/postgresql.conf"
	printf '%s\n' "shared_preload_libraries = 'ordered_uuid'" "wal_level = logical" \
		"max_replication_slots = 1" >>"$nd/data/postgresql.conf"
	ou_server_start "$old_pgc" "$od" "$port"
	sql "$od" "CREATE EXTENSION ordered_uuid; CREATE TABLE up (id int PRIMARY KEY); INSERT INTO up SELECT generate_series(1, 1000)"
	await "$od" "SELECT state = 'running' FROM collector_info()"
	sql "$od" "SELECT pg_create_logical_replication_slot('ou_upgrade', 'test_decoding')" >/dev/null
	ou_server_stop "$old_pgc" "$od"
	(cd "$uw" && ou_as_server_user env LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$("$old_pgc" --libdir)" \
		"$bindir/pg_upgrade" -b "$old_bin" -B "$bindir" -d "$od/data" -D "$nd/data" -U postgres) \
		>"$uw/pg_upgrade.out" 2>&1 || rc=$?
	report "$what: succeeds, the library preloaded on both sides, one logical slot" $rc \
		"$(tail -n 5 "$uw/pg_upgrade.out" | tr '\n' ' ')"
	[ "$rc" = 0 ] || {
		tail -n 20 "$nd"/data/pg_upgrade_output.d/*/log/pg_upgrade_server.log 2>/dev/null | sed 's/^/#   /'
		return 0
	}
	# what the old cluster saved at its last clean shutdown (pg_upgrade's own
	# starts leave it alone), copied into the new one, is not taken
	rc=0
	[ -f "$od/data/pg_stat/ordered_uuid.stat" ] && cp "$od/data/pg_stat/ordered_uuid.stat" "$nd/data/pg_stat/" &&
		chown "$OU_SERVER_USER" "$nd/data/pg_stat/ordered_uuid.stat" || rc=1
	report "$what: the old cluster's saved statistics are there to be copied" $rc
	ou_server_start "$pg_config" "$nd" "$port"
	await "$nd" "SELECT state = 'running' FROM collector_info()"
	check "$what: nothing of the collector's statistics survives (the old cluster's file, copied over, is ignored)" "$nd" \
		"SELECT NOT stats_restored AND stats_start_reason LIKE 'afresh: the saved statistics were ignored because the file was written by %'
			AND extend_entries = 0 FROM collector_info()"
	if [ "$old_major" -ge 17 ]; then
		# the logical slot came along and fills max_replication_slots
		retention='none: no free replication slot'
		check "$what: the logical slot came along" "$nd" \
			"SELECT count(*) = 1 FROM pg_replication_slots WHERE slot_name = 'ou_upgrade' AND slot_type = 'logical'"
	fi
	check "$what: the collector runs on the new cluster ($retention), the data came along" "$nd" \
		"SELECT c.wal_retention = '$retention' AND (SELECT count(*) FROM up) = 1000 FROM collector_info() c"
	ou_server_stop "$pg_config" "$nd"
}
stop "$standby"
upgrade "$pg_config"
if [ -n "${OU_UPGRADE_FROM:-}" ] && [ "$OU_UPGRADE_FROM" != "$pg_config" ]; then
	# the library built from a copy of the tree and installed into the old version
	rm -rf "$work/src-old"
	ou_copy_tree "$work/src-old"
	(ou_use_pg "$OU_UPGRADE_FROM" "" "$work/src-old")
	upgrade "$OU_UPGRADE_FROM"
fi

finished=1
echo "# lifecycle on $label: $passed passed, $failed failed"
[ "$failed" = 0 ]
