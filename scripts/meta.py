#!/usr/bin/env python3
"""scripts/meta.py -- keep META.json's versions equal to the control file's.

  meta.py --check VERSION   exit 1 (and say which) if META.json disagrees
  meta.py --write VERSION   rewrite the release and "provides" versions
"""
import json
import sys
from pathlib import Path

META = Path(__file__).resolve().parent.parent / "META.json"


def versions(meta):
    """Yield (where, version) for every version that must equal the release's."""
    yield "version", meta["version"]
    for name, p in meta.get("provides", {}).items():
        yield f"provides.{name}.version", p.get("version")


def main():
    mode, version = sys.argv[1], sys.argv[2]
    meta = json.loads(META.read_text())
    if mode == "--check":
        bad = [f"{w} = {v}" for w, v in versions(meta) if v != version]
        if bad:
            sys.exit(f"META.json disagrees with ordered_uuid.control ({version}): "
                     + ", ".join(bad) + "; run `make meta`")
    elif mode == "--write":
        meta["version"] = version
        for p in meta.get("provides", {}).values():
            p["version"] = version
        META.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
