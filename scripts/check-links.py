#!/usr/bin/env python3
"""scripts/check-links.py BUNDLE.zip|DIRECTORY -- every relative link and image
of every Markdown page in the release bundle (or under a directory, such as a
checkout) names a file or directory there, and every #anchor of a link names a
heading of the page it points to.

Looks at inline links and images ([text](target), ![alt](target)), reference
definitions ([name]: target) and HTML src/href attributes; skips URLs with a
scheme (https:, mailto:).  Anchors are the slugs GitHub gives headings
(lowercased, punctuation other than '-' and '_' removed, spaces made '-', a
repeated heading suffixed -1, -2, ...) and HTML id/name attributes.  Prints
each broken one as PAGE -> TARGET, one a line, and exits 1 if there is any.
"""
import os
import posixpath
import re
import sys
import zipfile

INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.M)
HTML = re.compile(r"""<(?:img|a)\b[^>]*?\b(?:src|href)\s*=\s*["']([^"']+)["']""", re.I)
HTML_ID = re.compile(r"""<[a-z]+\b[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']""", re.I)
FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1", re.M | re.S)
CODE = re.compile(r"`[^`\n]*`")
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$", re.M)


def targets(text):
    """The link targets of a Markdown page, code blocks and spans left out."""
    text = CODE.sub("", FENCE.sub("", text))
    for pattern in (INLINE, REFDEF, HTML):
        for m in pattern.finditer(text):
            yield m.group(1)


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    text = re.sub(r"<[^>]+>", "", text)                        # inline HTML
    text = text.lower()
    text = re.sub(r"[^\w\- ]", "", text)                       # keeps letters, digits, _ and -
    return text.replace(" ", "-")


def anchors(text):
    """Every anchor a page defines."""
    found = set(HTML_ID.findall(text))
    seen = {}
    for m in HEADING.finditer(FENCE.sub("", text)):
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def read_tree(source):
    """{path: text or None} for every file of a zip or a directory."""
    files = {}
    if zipfile.is_zipfile(source):
        with zipfile.ZipFile(source) as z:
            for n in z.namelist():
                files[n] = z.read(n).decode("utf-8") if n.endswith(".md") else None
        return files
    for root, dirnames, filenames in os.walk(source):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for f in filenames:
            path = os.path.join(root, f)
            rel = os.path.relpath(path, source).replace(os.sep, "/")
            files[rel] = open(path, encoding="utf-8").read() if f.endswith(".md") else None
    return files


def main():
    files = read_tree(sys.argv[1])
    names = set(files)
    # every directory that holds something counts, listed in the zip or not
    dirs = {posixpath.dirname(n.rstrip("/")) + "/" for n in names}
    for n in list(dirs):
        while n not in ("", "/"):
            n = posixpath.dirname(n.rstrip("/")) + "/"
            dirs.add(n)
    page_anchors = {}
    broken = []
    for page in sorted(n for n in names if n.endswith(".md")):
        for target in targets(files[page]):
            if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                continue
            path, _, anchor = target.partition("#")
            path = path.split("?", 1)[0]
            if path:
                resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
            else:
                resolved = page
            if resolved not in names and resolved + "/" not in names and resolved + "/" not in dirs:
                broken.append(f"{page} -> {target}")
                continue
            if anchor and resolved.endswith(".md"):
                if resolved not in page_anchors:
                    page_anchors[resolved] = anchors(files[resolved])
                if anchor not in page_anchors[resolved]:
                    broken.append(f"{page} -> {target}")
    print("\n".join(broken))
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
