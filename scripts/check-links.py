#!/usr/bin/env python3
"""scripts/check-links.py BUNDLE.zip -- every relative link and image of every
Markdown page in the release bundle names a file or directory of the bundle.

Looks at inline links and images ([text](target), ![alt](target)), reference
definitions ([name]: target) and HTML src/href attributes; skips URLs with a
scheme (https:, mailto:) and links within the page (#anchor).  Prints each
broken one as PAGE -> TARGET, one a line, and exits 1 if there is any.
"""
import posixpath
import re
import sys
import zipfile

INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.M)
HTML = re.compile(r"""<(?:img|a)\b[^>]*?\b(?:src|href)\s*=\s*["']([^"']+)["']""", re.I)
FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1", re.M | re.S)
CODE = re.compile(r"`[^`\n]*`")


def targets(text):
    """The link targets of a Markdown page, code blocks and spans left out."""
    text = CODE.sub("", FENCE.sub("", text))
    for pattern in (INLINE, REFDEF, HTML):
        for m in pattern.finditer(text):
            yield m.group(1)


def main():
    with zipfile.ZipFile(sys.argv[1]) as z:
        names = set(z.namelist())
    # every directory that holds something counts, listed in the zip or not
    dirs = {posixpath.dirname(n.rstrip("/")) + "/" for n in names}
    for n in list(dirs):
        while n not in ("", "/"):
            n = posixpath.dirname(n.rstrip("/")) + "/"
            dirs.add(n)
    broken = []
    for page in sorted(n for n in names if n.endswith(".md")):
        with zipfile.ZipFile(sys.argv[1]) as z:
            text = z.read(page).decode("utf-8")
        for target in targets(text):
            if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("#"):
                continue
            path = target.split("#", 1)[0].split("?", 1)[0]
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
            if resolved not in names and resolved + "/" not in names and resolved + "/" not in dirs:
                broken.append(f"{page} -> {target}")
    print("\n".join(broken))
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
