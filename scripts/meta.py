#!/usr/bin/env python3
"""scripts/meta.py -- keep META.json's versions equal to the control file's.

  meta.py --check VERSION   exit 1 (and say which) if META.json disagrees
  meta.py --write VERSION   rewrite the release and "provides" versions and files

Each "provides" entry names as its file the install script of VERSION: the one
`make` builds, NAME--VERSION.sql, or once VERSION is released its frozen copy in
extension/upgrade/ (which `make` installs instead).  The PGXN client's `pgxn load` and `pgxn unload` skip an
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


def versions(meta, version):
    """Yield (where, found, wanted) for every field that follows the version."""
    yield "version", meta["version"], version
    for name, p in meta.get("provides", {}).items():
        yield f"provides.{name}.version", p.get("version"), version
        yield f"provides.{name}.file", p.get("file"), install_script(name, version)


def main():
    mode, version = sys.argv[1], sys.argv[2]
    meta = json.loads(META.read_text())
    if mode == "--check":
        bad = [f"{w} = {v} (not {want})" for w, v, want in versions(meta, version) if v != want]
        if bad:
            sys.exit(f"META.json disagrees with ordered_uuid.control ({version}): "
                     + ", ".join(bad) + "; run `make meta`")
    elif mode == "--write":
        meta["version"] = version
        for name, p in meta.get("provides", {}).items():
            p["version"] = version
            p["file"] = install_script(name, version)
        META.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
