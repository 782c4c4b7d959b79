#!/usr/bin/env python3
"""scripts/meta.py -- keep META.json's versions equal to the Makefile's and the control file's.

  meta.py --check RELEASE VERSION   exit 1 (and say which) if META.json disagrees
  meta.py --write RELEASE VERSION   rewrite the release and "provides" versions and files

RELEASE is the release's version (the Makefile's RELEASE): META.json's own
"version".  VERSION is the extension's SQL version (ordered_uuid.control's
default_version), which changes only when the SQL does: each "provides" entry
has it as its version, and names as its file the install script of VERSION:
the one `make` builds, NAME--VERSION.sql, or once VERSION is released its
frozen copy in extension/upgrade/ (which `make` installs instead).  The PGXN client's `pgxn load` and `pgxn unload` skip an
extension whose file does not end in .sql (they take it for something else),
and run CREATE/DROP EXTENSION NAME for one that has a control file.
"""
import json
import sys
from pathlib import Path

META = Path(__file__).resolve().parent.parent / "META.json"


def install_script(name, version):
    """The install script of extension NAME at VERSION, as a path in the bundle."""
    frozen = f"extension/upgrade/{name}--{version}.sql"
    return frozen if (META.parent / frozen).is_file() else f"{name}--{version}.sql"


def versions(meta, release, version):
    """Yield (where, found, wanted) for every field that follows a version."""
    yield "version", meta["version"], release
    for name, p in meta.get("provides", {}).items():
        yield f"provides.{name}.version", p.get("version"), version
        yield f"provides.{name}.file", p.get("file"), install_script(name, version)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    mode, release, version = sys.argv[1:]
    meta = json.loads(META.read_text())
    if mode == "--check":
        bad = [f"{w} = {v} (not {want})" for w, v, want in versions(meta, release, version) if v != want]
        if bad:
            sys.exit(f"META.json disagrees with the Makefile's RELEASE ({release}) or "
                     f"ordered_uuid.control ({version}): " + ", ".join(bad) + "; run `make meta`")
    elif mode == "--write":
        meta["version"] = release
        for name, p in meta.get("provides", {}).items():
            p["version"] = version
            p["file"] = install_script(name, version)
        META.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
