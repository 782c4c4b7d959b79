#!/usr/bin/env bash
# scripts/build-deb.sh -- build the Debian package postgresql-NN-ordered-uuid
# from debian/ against the distribution's own PostgreSQL (Debian 12: 15),
# install it, and check that CREATE EXTENSION works in a throwaway cluster
# (debian/tests/create-extension, the package's autopkgtest).
#
# Installs the build dependencies with apt (debhelper, postgresql-common's
# pg_buildext, postgresql-server-dev-all and the server), builds from a copy
# of the working tree with dpkg-buildpackage, and leaves the .deb files in
# OUT.  The package is removed again after
# the check unless KEEP_INSTALLED=1 (the source tree's own installs, as in
# make test, would otherwise write over its files).  Needs root or sudo.
# It installs into the distribution's PostgreSQL as scripts/test-stock.sh
# does, so it takes the same lock: one waits for the other.  OUT defaults to
# a new private directory (mktemp), named at the end.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$OU_ROOT"

command -v apt-get >/dev/null || ou_die "needs Debian or Ubuntu (apt-get, dpkg-buildpackage, pg_buildext)"
label="Debian package"
ou_stock_lock "$label"
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/ordered_uuid-deb.XXXXXX")}
# the release's version (the Makefile's RELEASE): the package's upstream version
version=$(sed -n 's/^RELEASE = *//p' Makefile)

ou_apt build-essential fakeroot debhelper dpkg-dev postgresql-common postgresql-server-dev-all postgresql
# the majors this machine builds for: debian/pgversions among those installed
majors=$(pg_buildext supported-versions)
[ -n "$majors" ] || ou_die "no PostgreSQL major of debian/pgversions is installed"
ou_log "building postgresql-{$(echo $majors | tr ' ' ,)}-ordered-uuid $version"

work=$(mktemp -d /tmp/ordered_uuid_deb.XXXXXX)
cleanup() {
	local rc=$?
	if [ -z "${KEEP_INSTALLED:-}" ] && [ -n "${installed:-}" ]; then
		ou_sudo env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq $installed >/dev/null 2>&1 || true
	fi
	[ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
	exit $rc
}
trap cleanup EXIT

src=$work/ordered-uuid-$version
ou_copy_tree "$src"
# debian/changelog names the release packaged last; a newer version in the
# control file gets an entry of its own in the copy.
packaged=$(cd "$src" && dpkg-parsechangelog -S Version)
if [ "${packaged%-*}" != "$version" ]; then
	ou_log "debian/changelog is at $packaged: packaging $version-1 (add an entry to debian/changelog)"
	maintainer=$(sed -n 's/^Maintainer: *//p' "$src/debian/control.in")
	{
		printf 'ordered-uuid (%s-1) unstable; urgency=medium\n\n  * Release %s (see CHANGELOG.md).\n\n' "$version" "$version"
		printf ' -- %s  %s\n\n' "$maintainer" "$(date -R)"
		cat "$src/debian/changelog"
	} >"$work/changelog"
	mv "$work/changelog" "$src/debian/changelog"
fi

ou_log "dpkg-buildpackage (log: $work/build.log)"
(cd "$src" && pg_buildext updatecontrol && dpkg-buildpackage -b -us -uc) >"$work/build.log" 2>&1 ||
	{ tail -n 40 "$work/build.log" >&2; ou_die "dpkg-buildpackage failed (KEEP_WORK=1 keeps $work)"; }
mkdir -p "$out"
debs=()
for m in $majors; do
	deb=$(ls "$work"/postgresql-"$m"-ordered-uuid_"$version"-*_*.deb)
	cp "$deb" "$out/"
	debs+=("$out/$(basename "$deb")")
done
ou_log "built ${debs[*]}"

ou_log "installing the packages"
installed=
for m in $majors; do installed="$installed postgresql-$m-ordered-uuid"; done
ou_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${debs[@]}" \
	>"$work/install.log" 2>&1 || { cat "$work/install.log" >&2; ou_die "apt-get install of the packages failed"; }

failures=0
for m in $majors; do
	pkg=postgresql-$m-ordered-uuid
	so=$(dpkg -L "$pkg" | grep '/ordered_uuid\.so$' || true)
	[ "$so" = "/usr/lib/postgresql/$m/lib/ordered_uuid.so" ] ||
		{ ou_log "FAIL: $pkg does not install /usr/lib/postgresql/$m/lib/ordered_uuid.so"; failures=$((failures + 1)); }
done
# the package's own test (autopkgtest's debian/tests): CREATE EXTENSION in a
# throwaway cluster of each major, made and dropped by pg_virtualenv
ou_log "debian/tests/create-extension"
(cd "$src" && ou_sudo debian/tests/create-extension) || { ou_log "FAIL: debian/tests/create-extension"; failures=$((failures + 1)); }

if [ -n "${KEEP_INSTALLED:-}" ]; then
	ou_log "installed:$installed (apt-get remove$installed removes it)"
else
	ou_log "removing$installed again (KEEP_INSTALLED=1 keeps it); the packages are in $out"
fi
[ $failures = 0 ]
