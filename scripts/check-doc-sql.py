#!/usr/bin/env python3
"""scripts/check-doc-sql.py [DIRECTORY] -- every ```sql block of README.md and
doc/*.md (under DIRECTORY, default the checkout) runs as written.

Each page's blocks run in order, in one psql session (psql -X -v
ON_ERROR_STOP=1, as a reader pastes them one after the other) in a database
of its own, made afresh for the page; the server is the one the PG*
variables name (scripts/test-doc-sql.sh starts one with the library
preloaded and the collector on, as the docs assume).  The blocks only run:
their results are not compared.  Any error fails the page, named by the
page's line.

A block that cannot run there (it needs Citus, another extension, a second
server, or files) is skipped only when an HTML comment right before it says
why:

    <!-- doc-sql: skip (needs a Citus cluster) -->
    <!-- doc-sql: skip below 19 (uuid to bytea casts are new in PostgreSQL 19) -->

the second one skipping it on servers older than that major only.  A block
that runs too long for a test suite (a benchmark) may run with smaller
figures, the text replaced as a comment right before it says, with the
reason:

    <!-- doc-sql: replace "rows => 100000" "rows => 1000" (a 40 s benchmark) -->

the first text must occur in the block.  A block's setup that the page does
not show, where showing it would not read naturally, runs first when a
comment right before the block gives it:

    <!-- doc-sql: setup CREATE TABLE orders (id uuid PRIMARY KEY); -->

Prints, for each page, how many blocks ran and were skipped; exits 1 if a
block failed, or a doc-sql comment is malformed or stands before no sql
block.  The roles a page creates are
the server's: run it on a throwaway server.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile
import time

FENCE_OPEN = re.compile(r"^( {0,12})(```|~~~)\s*(\S*)")
MARKER = re.compile(r"^\s*<!--\s*doc-sql:(.*?)(-->\s*)?$")
SKIP = re.compile(r"^skip(?:\s+below\s+(\d+))?\s+\((.+)\)$", re.S)
SETUP = re.compile(r"^setup\s+(.+)$", re.S)
REPLACE = re.compile(r'^replace\s+"([^"]+)"\s+"([^"]*)"\s+\((.+)\)$', re.S)
PSQL_ERROR = re.compile(r"^psql:[^:]*:(\d+): (.*)$")


class Block:
    """A ```sql block: its first line in the page (1-based) and its lines."""

    def __init__(self, line, lines):
        self.line = line
        self.lines = lines
        self.skip = None          # the reason, when skipped
        self.skip_below = None    # the major it needs, for "skip below N"
        self.setup = []           # setup statements, each (page line, text)
        self.replace = []         # (old, new, marker's line): what runs in place of the text


def markers_before(lines, i):
    """The doc-sql comments right before line i (0-based): the comment
    lines, ending on the line just above the fence, each with its line."""
    found = []
    j = i - 1
    while j >= 0 and "-->" in lines[j]:
        start = j
        while start >= 0 and "<!--" not in lines[start]:
            start -= 1
        if start < 0 or not MARKER.match(lines[start]):
            break
        text = " ".join(l.strip() for l in lines[start:j + 1])
        text = re.sub(r"^<!--\s*doc-sql:\s*|\s*-->$", "", text)
        found.insert(0, (start + 1, text))
        j = start - 1
    return found


def blocks(root, page):
    """The ```sql blocks of a page, with their markers; raises ValueError
    on a malformed marker."""
    lines = open(os.path.join(root, page), encoding="utf-8").read().split("\n")
    found = []
    used = set()                # the lines of the markers that precede a block
    i = 0
    while i < len(lines):
        m = FENCE_OPEN.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = m.groups()
        end = i + 1
        while end < len(lines) and not re.match(r"^ {0,12}" + fence + r"\s*$", lines[end]):
            end += 1
        if lang == "sql":
            body = [l[len(indent):] if l.startswith(indent) else l.lstrip() for l in lines[i + 1:end]]
            block = Block(i + 2, body)
            for line, text in markers_before(lines, i):
                used.add(line)
                skip, setup, replace = SKIP.match(text), SETUP.match(text), REPLACE.match(text)
                if skip:
                    block.skip, block.skip_below = skip.group(2), skip.group(1) and int(skip.group(1))
                elif setup:
                    block.setup.append((line, setup.group(1)))
                elif replace:
                    if not any(replace.group(1) in l for l in body):
                        raise ValueError(f"{page}:{line}: the block has no {replace.group(1)!r} to replace")
                    block.replace.append((replace.group(1), replace.group(2), line))
                else:
                    raise ValueError(f"{page}:{line}: a doc-sql comment is 'skip (REASON)', 'skip below "
                                     f"MAJOR (REASON)', 'setup SQL' or 'replace \"OLD\" \"NEW\" (REASON)', "
                                     f"not {text!r}")
            found.append(block)
        i = end + 1
    for n, text in enumerate(lines, 1):
        if MARKER.match(text) and n not in used:
            raise ValueError(f"{page}:{n}: a doc-sql comment that does not stand right before a sql block")
    return found


def unterminated(block):
    """Whether the block's last statement lacks its semicolon (psql would
    then join it to the next block's first)."""
    for line in reversed(block.lines):
        code = re.sub(r"\s*--.*$", "", line).strip()
        if code:
            return not (code.endswith(";") or code.startswith("\\") or "\\g" in code)
    return False


def psql(*args, **kwargs):
    """Run psql, no psqlrc, stopping at the first error."""
    return subprocess.run(["psql", "-X", "-v", "ON_ERROR_STOP=1", *args],
                          capture_output=True, text=True, **kwargs)


def server_major():
    """The major version of the server the PG* variables name."""
    r = psql("-qtA", "-d", "postgres", "-c", "SHOW server_version_num")
    if r.returncode != 0:
        sys.exit(f"cannot reach the server: {r.stderr.strip()}")
    return int(r.stdout.strip()) // 10000


def run_page(page, page_blocks, major):
    """Run a page's blocks in a fresh database of its own; return the
    number run, of those run with a replacement, and skipped, and the
    failure (None when none)."""
    db = "doc_sql_" + re.sub(r"[^a-z0-9]+", "_", page.lower())
    for sql in (f'DROP DATABASE IF EXISTS "{db}"', f'CREATE DATABASE "{db}"'):
        r = psql("-q", "-d", "postgres", "-c", sql)
        if r.returncode != 0:
            return 0, 0, 0, f"{page}: {sql}: {r.stderr.strip()}"
    script, where = [], []      # the session's lines, and each one's page line
    ran = replaced = skipped = 0
    for b in page_blocks:
        if b.skip and (b.skip_below is None or major < b.skip_below):
            skipped += 1
            continue
        if unterminated(b):
            return ran, replaced, skipped, f"{page}:{b.line}: the block's last statement has no semicolon"
        for line, sql in b.setup:
            script.append(sql)
            where.append(line)
        for n, text in enumerate(b.lines):
            for old, new, _ in b.replace:
                text = text.replace(old, new)
            script.append(text)
            where.append(b.line + n)
        ran += 1
        replaced += bool(b.replace)
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write("\n".join(script) + "\n")
    try:
        r = psql("-d", db, "-f", f.name)
    finally:
        os.unlink(f.name)
    if r.returncode == 0:
        psql("-q", "-d", "postgres", "-c", f'DROP DATABASE IF EXISTS "{db}"')
        return ran, replaced, skipped, None
    # psql names the line of its file where the failing statement ended
    errors = []
    for text in r.stderr.splitlines():
        m = PSQL_ERROR.match(text)
        if m and int(m.group(1)) <= len(where):
            errors.append(f"{page}:{where[int(m.group(1)) - 1]}: {m.group(2)}")
        elif errors:
            errors.append("    " + text)
    return ran, replaced, skipped, "\n".join(errors) or f"{page}: psql failed: {r.stderr.strip()}"


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    pages = ["README.md"] + sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "doc", "*.md")))
    major = server_major()
    failed = 0
    for page in pages:
        try:
            page_blocks = blocks(root, page)
        except ValueError as e:
            print(e)
            failed += 1
            continue
        if not page_blocks:
            continue
        start = time.monotonic()
        ran, replaced, skipped, failure = run_page(page, page_blocks, major)
        print(f"{page}: {ran} ran" + (f" ({replaced} with a replacement)" if replaced else "")
              + f", {skipped} skipped" + (", FAILED" if failure else "")
              + f" ({time.monotonic() - start:.0f} s)", flush=True)
        if failure:
            print(failure)
            failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
