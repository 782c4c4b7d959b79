#!/usr/bin/env python3
"""scripts/sql_edition.py -- generate the SQL edition (ordered_uuid_sql) from
the C edition's install script pieces (extension/*.sql) and the SQL
edition's own pieces (sql-edition/*.sql).

Shared definitions exist once: each object of the SQL edition comes from the
C edition's statement that declares it -- name, arguments, defaults, result,
volatility, strictness, parallel label, comment and grants -- with a body
written in SQL or PL/pgSQL in sql-edition/NN_concern.sql, or the statement as
it is when it already is SQL or PL/pgSQL (shared).  The directives of
sql-edition/*.sql (lines starting with "-- ou:") are described in
doc/sql-edition.md (How it is built); every object of extension/NN_x.sql must be
named by one of them in sql-edition/NN_x.sql, so a new object of the C
edition stops the build until it is given a body, shared or left to the C
edition.

Writes, into --out (default: the top of the checkout):
  ordered_uuid_sql--VERSION.sql  the extension script (what pg_tle runs on
                                 CREATE EXTENSION; frozen at a release into
                                 sql-edition/upgrade/)
  ordered_uuid_sql.sql           the plain file: installs into the current
                                 schema, or updates an older install there
  ordered_uuid_sql.pgtle.sql     the pg_tle package: registers the version and
                                 the update paths with pgtle.install_extension
and prints the paths of the last two, one a line.

--check: only check (the directives, and the frozen script of a released
version against what the pieces assemble to, comment lines aside), write
nothing.  --version, --without and --only make synthetic versions for the
update test (sql/sql_edition_upgrade.sql), --released the plain file of a
released version, which that test updates along the real steps.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = 'ordered_uuid_sql'
# dollar-quote tags the generated files wrap scripts in; no piece may use them
PLAIN_TAG = '$ordered_uuid_sql$'
SCRIPT_TAG = '$ordered_uuid_sql_script$'
FORBIDDEN = (PLAIN_TAG, SCRIPT_TAG, '$_pgtle_o_$', '$_pgtle_i_$')


class Error(Exception):
    pass


# ---- splitting SQL into statements --------------------------------------------

def split_statements(text, where):
    """The statements of text, each (sql, leading_comment_lines), in order.

    A statement ends at a semicolon outside quotes, dollar quotes and
    comments; a line starting with a backslash (a psql meta-command) is a
    statement of its own.  Comment lines between statements are returned with
    the statement they precede ("-- ou:" directives among them).
    """
    out = []
    i = 0
    n = len(text)
    comments = []
    while i < n:
        # skip blank space and collect whole-line comments between statements
        m = re.match(r'[ \t\r\n]+', text[i:])
        if m:
            i += m.end()
            continue
        if text.startswith('--', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            comments.append(text[i:j])
            i = j
            continue
        if text[i] == '\\':
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append((text[i:j], comments))
            comments = []
            i = j
            continue
        start = i
        while True:
            if i >= n:
                raise Error('%s: statement without a final semicolon: %s' % (where, text[start:start + 60]))
            c = text[i]
            if c == ';':
                i += 1
                break
            if c == "'":
                i += 1
                while True:
                    if i >= n:
                        raise Error('%s: unterminated string' % where)
                    if text[i] == "'":
                        if text.startswith("''", i):
                            i += 2
                            continue
                        i += 1
                        break
                    i += 1
                continue
            if c == '"':
                j = text.find('"', i + 1)
                if j < 0:
                    raise Error('%s: unterminated identifier' % where)
                i = j + 1
                continue
            if text.startswith('--', i):
                j = text.find('\n', i)
                i = n if j < 0 else j
                continue
            if text.startswith('/*', i):
                j = text.find('*/', i + 2)
                if j < 0:
                    raise Error('%s: unterminated comment' % where)
                i = j + 2
                continue
            if c == '$':
                m = re.match(r'\$([A-Za-z_][A-Za-z_0-9]*)?\$', text[i:])
                if m and not (i > 0 and re.match(r'[A-Za-z_0-9]', text[i - 1])):
                    tag = m.group(0)
                    j = text.find(tag, i + len(tag))
                    if j < 0:
                        raise Error('%s: unterminated dollar quote %s' % (where, tag))
                    i = j + len(tag)
                    continue
            i += 1
        out.append((text[start:i], comments))
        comments = []
    if comments:
        out.append((None, comments))
    return out


# ---- naming the object a statement creates or refers to -----------------------

TYPE_SYNONYMS = {
    'integer': 'int', 'int4': 'int', 'int8': 'bigint', 'int2': 'smallint',
    'bool': 'boolean', 'float8': 'double precision', 'float4': 'real',
    'timestamp with time zone': 'timestamptz', 'varchar': 'character varying',
}


def norm_type(t):
    t = re.sub(r'\s+', ' ', t.strip().lower())
    return TYPE_SYNONYMS.get(t, t)


def split_top(s, sep=','):
    """s split at sep outside parentheses and quotes."""
    parts, depth, cur, q = [], 0, '', None
    for c in s:
        if q:
            cur += c
            if c == q:
                q = None
            continue
        if c in "'\"":
            q = c
        elif c in '([':
            depth += 1
        elif c in ')]':
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(cur)
            cur = ''
            continue
        cur += c
    if cur.strip():
        parts.append(cur)
    return parts


def matching_paren(s, i):
    """The index of the parenthesis closing the one at s[i]."""
    depth = 0
    q = None
    for j in range(i, len(s)):
        c = s[j]
        if q:
            if c == q:
                q = None
            continue
        if c in "'\"":
            q = c
        elif c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
            if depth == 0:
                return j
    raise Error('unbalanced parentheses in: %s' % s[:80])


def arg_types(arglist, declaration):
    """The identity types of an argument list: declaration (CREATE FUNCTION:
    [mode] [name] type [DEFAULT x], OUT arguments left out) or reference
    (COMMENT ON FUNCTION f(type, ...))."""
    types = []
    for a in split_top(arglist):
        a = re.split(r'\s+DEFAULT\s+|\s*=\s*', a.strip(), maxsplit=1, flags=re.I)[0].strip()
        words = a.split()
        mode = words[0].upper() if words else ''
        if mode in ('OUT', 'TABLE'):
            continue
        if mode in ('IN', 'INOUT', 'VARIADIC'):
            words = words[1:]
        if declaration and len(words) > 1 and not re.match(r'(?i)(double|character|timestamp|time|bit)$', words[0]):
            words = words[1:]
        types.append(norm_type(' '.join(words)))
    return types


def function_id(name, arglist, declaration):
    return '%s(%s)' % (name.lower(), ', '.join(arg_types(arglist, declaration)))


def statement_object(sql):
    """(kind, object id, is_definition) of a statement: kind 'create' for the
    statement that makes an object, 'attach' for a COMMENT, GRANT or REVOKE
    on one, 'meta' for a psql meta-command; None when unknown."""
    s = re.sub(r'\s+', ' ', strip_comments(sql))
    if s.startswith('\\'):
        return ('meta', None)
    m = re.match(r'(?i)CREATE (?:OR REPLACE )?FUNCTION ((?:@extschema@\.)?[\w]+) ?\(', s)
    if m:
        name = m.group(1).split('.')[-1]
        close = matching_paren(s, m.end() - 1)
        return ('create', function_id(name, s[m.end():close], True))
    m = re.match(r'(?i)COMMENT ON FUNCTION ((?:@extschema@\.)?[\w]+) ?\(', s)
    if m:
        close = matching_paren(s, m.end() - 1)
        return ('attach', function_id(m.group(1).split('.')[-1], s[m.end():close], False))
    m = re.match(r'(?i)(?:GRANT|REVOKE) .*? ON FUNCTION ((?:@extschema@\.)?[\w]+) ?\(', s)
    if m:
        close = matching_paren(s, m.end() - 1)
        return ('attach', function_id(m.group(1).split('.')[-1], s[m.end():close], False))
    m = re.match(r'(?i)CREATE (?:OR REPLACE )?VIEW ((?:@extschema@\.)?\w+)', s)
    if m:
        return ('create', 'view ' + m.group(1).split('.')[-1].lower())
    m = re.match(r'(?i)(?:COMMENT ON VIEW|GRANT [\w, ]+ ON(?: TABLE)?|REVOKE [\w, ]+ ON(?: TABLE)?) ((?:@extschema@\.)?\w+)', s)
    if m and not re.match(r'(?i)(GRANT|REVOKE) .* ON (FUNCTION|SEQUENCE|SCHEMA)', s):
        return ('attach', 'view ' + m.group(1).split('.')[-1].lower())
    m = re.match(r'(?i)CREATE TYPE ((?:@extschema@\.)?\w+)', s)
    if m:
        return ('create', 'type ' + m.group(1).split('.')[-1].lower())
    m = re.match(r'(?i)COMMENT ON TYPE ((?:@extschema@\.)?\w+)', s)
    if m:
        return ('attach', 'type ' + m.group(1).split('.')[-1].lower())
    m = re.match(r'(?i)CREATE OPERATOR (?:@extschema@\.)?([^\s(]+) ?\((.*)\)$', s.rstrip(';').rstrip())
    if m:
        opts = {}
        for part in split_top(m.group(2)):
            k, _, v = part.partition('=')
            opts[k.strip().lower()] = v.strip()
        return ('create', 'operator %s(%s, %s)' % (m.group(1), norm_type(opts.get('leftarg', 'none')),
                                                   norm_type(opts.get('rightarg', 'none'))))
    m = re.match(r'(?i)COMMENT ON OPERATOR (?:@extschema@\.)?([^\s(]+) ?\(([^)]*)\)', s)
    if m:
        a, b = [norm_type(x) for x in m.group(2).split(',')]
        return ('attach', 'operator %s(%s, %s)' % (m.group(1), a, b))
    m = re.match(r'(?i)CREATE SEQUENCE (?:@extschema@\.)?(\w+)', s)
    if m:
        return ('create', 'sequence ' + m.group(1).lower())
    m = re.match(r'(?i)(?:GRANT|REVOKE) [\w, ]+ ON SEQUENCE (?:@extschema@\.)?(\w+)', s)
    if m:
        return ('attach', 'sequence ' + m.group(1).lower())
    m = re.match(r'(?i)COMMENT ON SEQUENCE (?:@extschema@\.)?(\w+)', s)
    if m:
        return ('attach', 'sequence ' + m.group(1).lower())
    m = re.match(r'(?i)SELECT pg_catalog\.pg_extension_config_dump\(\'@extschema@\.(\w+)\'', s)
    if m:
        return ('attach', 'sequence ' + m.group(1).lower())
    return (None, None)


def strip_comments(sql):
    """sql without the comment lines in front of it."""
    lines = sql.strip().split('\n')
    while lines and lines[0].lstrip().startswith('--'):
        lines.pop(0)
    return '\n'.join(lines).strip()


def attach_kind(sql):
    """'comment' or 'grant' (GRANT and REVOKE) for an attached statement."""
    return 'comment' if re.match(r'(?i)COMMENT', strip_comments(sql)) else 'grant'


# ---- the pieces -----------------------------------------------------------------

LABELS = {
    'volatility': r'\b(IMMUTABLE|STABLE|VOLATILE)\b',
    'strictness': r'\b(STRICT|CALLED ON NULL INPUT|RETURNS NULL ON NULL INPUT)\b',
    'parallel': r'\bPARALLEL (SAFE|RESTRICTED|UNSAFE)\b',
}


def parse_labels(text):
    found = {}
    for k, rx in LABELS.items():
        m = re.search(rx, text, re.I)
        if m:
            found[k] = m.group(0).upper()
    return found


class Piece:
    """One directive of sql-edition/NN_x.sql and the statements after it."""

    def __init__(self, kind, target, cond, labels, where):
        self.kind = kind            # body, shared, replace, add, c-only
        self.target = target        # object id, '*' (c-only) or None (add)
        self.cond = cond            # body: the SQL condition of this variant, or None
        self.labels = labels        # body: labels that differ from the C edition's
        self.where = where
        self.statements = []        # the SQL after the directive
        self.used = False


DIRECTIVE = re.compile(r'--\s*ou:(body|shared|replace|add|c-only)\b\s*(.*)$')


def parse_target(rest, where):
    """The object a directive names, the rest of its line."""
    rest = rest.strip()
    m = re.match(r'(view|type|sequence|operator)\s+(.*)$', rest, re.I)
    if m and m.group(1).lower() != 'operator':
        return '%s %s' % (m.group(1).lower(), m.group(2).strip().lower()), ''
    if m:
        mm = re.match(r'([^\s(]+)\s*\(([^)]*)\)(.*)$', m.group(2))
        if not mm:
            raise Error('%s: cannot read the operator in "%s"' % (where, rest))
        a, b = [norm_type(x) for x in mm.group(2).split(',')]
        return 'operator %s(%s, %s)' % (mm.group(1), a, b), mm.group(3)
    mm = re.match(r'(\w+)\s*\(', rest)
    if not mm:
        raise Error('%s: cannot read the object in "%s"' % (where, rest))
    close = matching_paren(rest, mm.end() - 1)
    return function_id(mm.group(1), rest[mm.end():close], False), rest[close + 1:]


def read_pieces(path):
    """(header comment lines, [Piece]) of one sql-edition file."""
    where = os.path.relpath(path, ROOT)
    with open(path) as f:
        text = f.read()
    pieces = []
    header = []
    pending = []    # comment lines of the piece before its next statement
    seen_directive = False
    for sql, comments in split_statements(text, where):
        for line in comments:
            m = DIRECTIVE.match(line)
            if not m:
                if not seen_directive:
                    header.append(line)
                else:
                    pending.append(line)
                continue
            seen_directive = True
            kind, rest = m.group(1), m.group(2)
            cond = None
            labels = {}
            target = None
            if kind == 'add':
                mb = re.match(r'before\s+(.*)$', rest.strip(), re.I)
                if mb:
                    target, _ = parse_target(mb.group(1), where)
            elif kind == 'c-only' and rest.strip() == '*':
                target = '*'
            else:
                target, tail = parse_target(rest, where)
                mc = re.search(r'\bif\s+(.*)$', tail, re.I)
                if mc:
                    cond = mc.group(1).strip()
                    tail = tail[:mc.start()]
                labels = parse_labels(tail)
            pieces.append(Piece(kind, target, cond, labels, where))
            pending = []
        if sql is not None:
            if not pieces:
                raise Error('%s: a statement before any directive: %s' % (where, sql[:60]))
            pieces[-1].statements.append('\n'.join(pending + [sql.strip()]))
            pending = []
    for p in pieces:
        if p.kind in ('shared', 'c-only') and p.statements:
            raise Error('%s: "ou:%s %s" takes no statements' % (p.where, p.kind, p.target))
        if p.kind in ('body', 'replace', 'add') and not p.statements:
            raise Error('%s: "ou:%s %s" has no statements' % (p.where, p.kind, p.target or ''))
        if p.kind == 'body' and len(p.statements) != 1:
            raise Error('%s: "ou:body %s" takes the body clauses only, ending in one semicolon'
                        % (p.where, p.target))
    return header, pieces


# ---- assembling -----------------------------------------------------------------

def control(path):
    values = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*(\w+)\s*=\s*'([^']*)'", line)
            if m:
                values[m.group(1)] = m.group(2)
    return values


def body_statement(c_sql, piece, c_only):
    """The SQL edition's CREATE FUNCTION for a C function: the C edition's
    declaration with the piece's body clauses and, where the piece says so,
    other labels."""
    m = re.search(r"(?is)\bAS\s+'MODULE_PATHNAME'\s*,\s*'\w+'\s*LANGUAGE\s+C\b(.*);\s*$", c_sql)
    if not m:
        raise Error('%s: %s is not a LANGUAGE C function of the form AS \'MODULE_PATHNAME\', \'symbol\' LANGUAGE C ...'
                    % (piece.where, piece.target))
    header = c_sql[:m.start()].rstrip()
    options = m.group(1)
    sup = re.search(r'(?i)\bSUPPORT\s+(\w+)', options)
    if sup:
        support = '%s(internal)' % sup.group(1).lower()
        if support not in c_only:
            raise Error('%s: the planner support function %s of %s must be left to the C edition (ou:c-only)'
                        % (piece.where, support, piece.target))
        options = options[:sup.start()] + options[sup.end():]
    labels = parse_labels(options)
    leftover = options
    for rx in LABELS.values():
        leftover = re.sub(rx, '', leftover, flags=re.I)
    if leftover.strip():
        raise Error('%s: cannot carry over the options "%s" of %s' % (piece.where, leftover.strip(), piece.target))
    labels.update(piece.labels)
    order = [labels[k] for k in ('volatility', 'strictness', 'parallel') if k in labels]
    body = piece.statements[0]
    lines = body.split('\n')
    comments = []
    while lines and lines[0].lstrip().startswith('--'):
        comments.append(lines.pop(0))
    return '\n'.join(comments + [header, ' '.join(order), '\n'.join(lines).strip()])


def variants_statement(c_sql, pieces, c_only):
    """Body pieces of one function with conditions: a DO block that creates
    the variant whose condition holds on the server it runs on (the last may
    have none)."""
    out = ['DO $ou_variant$', 'BEGIN']
    for i, p in enumerate(pieces):
        stmt = body_statement(c_sql, p, c_only)
        if '$ou_variant' in stmt:
            raise Error('%s: $ou_variant... is a tag of the generated file' % p.where)
        if p.cond:
            out.append('%s %s THEN' % ('IF' if i == 0 else 'ELSIF', p.cond))
        else:
            if i != len(pieces) - 1 or i == 0:
                raise Error('%s: only the last variant of %s may go without a condition' % (p.where, p.target))
            out.append('ELSE')
        out.append('\tEXECUTE $ou_variant_body$\n%s\n$ou_variant_body$;' % stmt)
    out.append('END IF;')
    out.append('END')
    out.append('$ou_variant$;')
    return '\n'.join(out)


def concern_pairs():
    """(C file, SQL edition file) of every concern, in order."""
    c_dir = os.path.join(ROOT, 'extension')
    s_dir = os.path.join(ROOT, 'sql-edition')
    c_files = sorted(f for f in os.listdir(c_dir) if f.endswith('.sql'))
    s_files = sorted(f for f in os.listdir(s_dir) if re.match(r'\d\d_.*\.sql$', f))
    for f in s_files:
        if f not in c_files:
            raise Error('sql-edition/%s has no counterpart in extension/' % f)
    for f in c_files:
        if f not in s_files:
            raise Error('extension/%s has no counterpart sql-edition/%s: say what the SQL edition takes from it' % (f, f))
    return [(os.path.join(c_dir, f), os.path.join(s_dir, f)) for f in c_files]


def index_pieces(pieces):
    """(C-only objects, whether the whole file is, pieces by (kind, object))
    of one sql-edition file."""
    c_only = set()
    whole = False
    by_target = {}
    for p in pieces:
        if p.kind == 'c-only':
            p.used = True
            if p.target == '*':
                whole = True
            else:
                c_only.add(p.target)
        elif p.target is not None:
            by_target.setdefault((p.kind, p.target), []).append(p)
    return c_only, whole, by_target


def made_objects(c_stmts, c_where):
    """The objects a C file makes; an error for a statement of no known
    kind, so that every statement is accounted for."""
    made = []
    for sql, _ in c_stmts:
        if sql is None:
            continue
        kind, obj = statement_object(sql)
        if kind is None:
            raise Error('%s: cannot tell which object this statement is about: %s' % (c_where, sql.strip()[:80]))
        if kind == 'create':
            made.append(obj)
    return made


def object_statements(c_sql, obj, by_target, c_only, anywhere, where):
    """The SQL edition's statements for the C statement that makes obj, and
    the kinds of attached statements (COMMENT, GRANT) it replaces."""
    bodies = by_target.get(('body', obj), [])
    others = by_target.get(('shared', obj), []) + by_target.get(('replace', obj), [])
    if obj in c_only:
        if bodies or others:
            raise Error('%s: %s is left to the C edition and given a body too' % (where, obj))
        return None, set()
    if not bodies and not others:
        raise Error('%s: %s is neither given a body (ou:body), shared (ou:shared), replaced (ou:replace) '
                    'nor left to the C edition (ou:c-only)' % (where, obj))
    if others and len(bodies) + len(others) > 1:
        raise Error('%s: %s is named by more than one directive' % (where, obj))
    for p in bodies + others:
        p.used = True
    if bodies:
        if len(bodies) == 1 and not bodies[0].cond:
            return [body_statement(c_sql, bodies[0], anywhere)], set()
        return [variants_statement(c_sql, bodies, anywhere)], set()
    if others[0].kind == 'shared':
        return [c_sql.strip()], set()
    kinds = set()
    for stmt in others[0].statements:
        kind, target = statement_object(stmt)
        if kind == 'attach' and target == obj:
            kinds.add(attach_kind(stmt))
    return [stmt.strip() for stmt in others[0].statements], kinds


def assemble(without=(), only=None):
    """The statements of the SQL edition's extension script, in order, as a
    list of (concern header lines, [sql]); without: objects to leave out,
    only: the objects to keep (the synthetic versions of the tests)."""
    concerns = []
    all_pieces = []
    pairs = [(c_path, s_path, read_pieces(s_path)) for c_path, s_path in concern_pairs()]
    # what is left to the C edition anywhere (a planner support function of
    # one concern may be attached to functions of another)
    anywhere = set(p.target for _, _, (_, pieces) in pairs for p in pieces if p.kind == 'c-only')
    for c_path, s_path, (header, pieces) in pairs:
        c_where = os.path.relpath(c_path, ROOT)
        with open(c_path) as f:
            c_stmts = split_statements(f.read(), c_where)
        all_pieces += pieces
        c_only, whole, by_target = index_pieces(pieces)
        made = made_objects(c_stmts, c_where)
        for p in pieces:
            if p.kind != 'add' and p.target not in (None, '*') and p.target not in made:
                raise Error('%s: "ou:%s %s": %s makes no such object' % (p.where, p.kind, p.target, c_where))
        if whole:
            c_only.update(made)
        out = []

        def emit(stmts, obj):
            if obj not in without and (only is None or obj in only):
                out.extend(stmts)

        for p in pieces:
            if p.kind == 'add' and p.target is None:
                p.used = True
                for stmt in p.statements:
                    emit([stmt], statement_object(stmt)[1])
        emitted = set()
        replaced = {}
        for sql, _ in c_stmts:
            kind, obj = statement_object(sql) if sql is not None else (None, None)
            if kind == 'create':
                for p in by_target.get(('add', obj), []):
                    p.used = True
                    for stmt in p.statements:
                        emit([stmt], statement_object(stmt)[1])
                stmts, replaced[obj] = object_statements(sql, obj, by_target, c_only, anywhere,
                                                         '%s (in %s)' % (c_where, os.path.relpath(s_path, ROOT)))
                if stmts is not None:
                    emit(stmts, obj)
                    emitted.add(obj)
            elif kind == 'attach':
                if obj in emitted and attach_kind(sql) not in replaced.get(obj, ()):
                    emit([sql.strip()], obj)
                elif obj not in emitted and obj not in c_only:
                    raise Error('%s: %s refers to %s, made nowhere before it' % (c_where, sql.strip()[:60], obj))
        concerns.append((header, out))
    for p in all_pieces:
        if not p.used:
            raise Error('%s: "ou:%s %s" was not used (no such object?)' % (p.where, p.kind, p.target))
    script = '\n'.join('\n'.join(stmts) for _, stmts in concerns)
    for tag in FORBIDDEN:
        if tag in script:
            raise Error('the pieces use %s, a tag the generated files need for themselves' % tag)
    return concerns


def extension_script(version, concerns, comment):
    lines = [
        '-- %s %s: the SQL edition of ordered_uuid, generated by scripts/sql_edition.py' % (NAME, version),
        '-- from extension/*.sql (the C edition) and sql-edition/*.sql: edit those, not this file.',
        '-- %s' % comment,
        '',
        '-- complain if script is sourced in psql, rather than via CREATE EXTENSION',
        '\\echo Use "CREATE EXTENSION %s" to load this file. \\quit' % NAME,
    ]
    for header, stmts in concerns:
        if not stmts:
            continue
        lines.append('')
        lines += header
        for s in stmts:
            lines.append('')
            lines.append(s.strip())
    return '\n'.join(lines).replace('@VERSION@', version) + '\n'


def strip_meta(script):
    """The script without its psql guard and comment lines: what runs."""
    return '\n'.join(l for l in script.split('\n') if not l.startswith('\\') and not l.startswith('--')).strip() + '\n'


def comment_free(script):
    return [l for l in script.split('\n') if not l.startswith('--')]


# ---- versions, frozen scripts and update paths ----------------------------------

def version_key(v):
    return [int(x) if x.isdigit() else x for x in re.split(r'[.-]', v)]


def frozen(frozen_dir):
    """(base versions {version: path}, update steps {(from, to): path})."""
    bases, steps = {}, {}
    if not os.path.isdir(frozen_dir):
        return bases, steps
    for f in os.listdir(frozen_dir):
        m = re.match(re.escape(NAME) + r'--([^-][^/]*?)--([^-][^/]*)\.sql$', f)
        if m:
            steps[(m.group(1), m.group(2))] = os.path.join(frozen_dir, f)
            continue
        m = re.match(re.escape(NAME) + r'--([^-][^/]*)\.sql$', f)
        if m:
            bases[m.group(1)] = os.path.join(frozen_dir, f)
    return bases, steps


def update_chain(steps, target):
    """Every update step, ordered so that each runs after those it follows,
    checked to lead from every starting version to target."""
    graph = {}
    for (a, b) in steps:
        graph.setdefault(a, []).append(b)
    ordered = sorted(steps, key=lambda s: (version_key(s[0]), version_key(s[1])))
    for (a, _) in ordered:
        seen, todo = set(), [a]
        while todo:
            v = todo.pop()
            if v == target:
                break
            for w in graph.get(v, []):
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        else:
            raise Error('the update steps from %s do not lead to %s' % (a, target))
    return ordered


def version_function(version, replace):
    """The function that tells the installed version: created by the script,
    replaced by each update step (the generator adds it to them)."""
    return ("%s FUNCTION @extschema@.%s_version()\nRETURNS text\n"
            "IMMUTABLE PARALLEL SAFE\nLANGUAGE sql\nAS $$ SELECT '%s'::pg_catalog.text $$;"
            % ('CREATE OR REPLACE' if replace else '-- the version of the SQL edition installed in this schema\nCREATE',
               NAME, version))


def plain_file(version, script, steps):
    """The plain SQL file: one DO block, run as the role that will own the
    objects, with the schema to install into first on the search_path."""
    body = strip_meta(script)
    step_sql = []
    for (a, b), path in steps:
        with open(path) as f:
            s = strip_meta(f.read()) + version_function(b, True) + '\n'
        for tag in FORBIDDEN:
            if tag in s:
                raise Error('%s uses %s, a tag the generated files need for themselves' % (path, tag))
        step_sql.append((a, b, s))
    out = [
        '-- %s %s: the SQL edition of ordered_uuid as one plain SQL file, generated by' % (NAME, version),
        '-- scripts/sql_edition.py (make sql-edition).  Run it as the role that is to own the',
        '-- functions, with the schema to install into first on the search_path:',
        '--     SET search_path = myschema;',
        '--     \\i ordered_uuid_sql.sql        (or paste it into any SQL client)',
        '-- It installs in one transaction, or, where an older version of it is installed in that',
        '-- schema, updates that one in place (the functions keep their identity, so column',
        '-- defaults that call them keep working); the same version again changes nothing.',
        '-- Every object it creates goes into that schema, and it calls only pg_catalog and them.',
        '',
        'DO ' + PLAIN_TAG,
        'DECLARE',
        '\ttarget text := pg_catalog.current_schema();',
        '\tinstalled text;',
        '\towner_ok boolean;',
        '\tfound_version regprocedure;',
        'BEGIN',
        "\t-- the checks below resolve only pg_catalog's objects",
        "\tPERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);",
        '\tIF target IS NULL THEN',
        "\t\tRAISE EXCEPTION 'no schema to install %s into', '%s'" % ('%', NAME),
        "\t\t\tUSING ERRCODE = '3F000',",
        "\t\t\t\t  HINT = 'Create the schema, then SET search_path = that schema before running this file.';",
        '\tEND IF;',
        "\tIF target IN ('pg_catalog', 'information_schema') OR target LIKE 'pg\\_temp\\_%' OR target LIKE 'pg\\_toast%' THEN",
        "\t\tRAISE EXCEPTION 'cannot install %s into schema %s', '%s', target" % ('%', '%', NAME),
        "\t\t\tUSING ERRCODE = '42501',",
        "\t\t\t\t  HINT = 'Create a schema of its own (CREATE SCHEMA ordered_uuid) and SET search_path = ordered_uuid first.';",
        '\tEND IF;',
        "\tIF target ~ '[\"$''\\\\]' THEN",
        "\t\tRAISE EXCEPTION 'invalid character in schema %%: must not contain any of %s', target" % '"$\'\'\\',
        "\t\t\tUSING ERRCODE = '22P02', DETAIL = 'The schema''s name is written into the functions (as CREATE EXTENSION does).';",
        '\tEND IF;',
        '\tfound_version := pg_catalog.to_regprocedure(pg_catalog.quote_ident(target) || \'.%s_version()\');' % NAME,
        '\tIF found_version IS NOT NULL THEN',
        '\t\tSELECT pg_catalog.pg_has_role(p.proowner, \'USAGE\') INTO owner_ok',
        '\t\t  FROM pg_catalog.pg_proc p WHERE p.oid OPERATOR(pg_catalog.=) found_version;',
        '\t\tIF NOT owner_ok THEN',
        "\t\t\tRAISE EXCEPTION 'schema %% holds %s of another role', target" % ('%s_version()' % NAME),
        "\t\t\t\tUSING ERRCODE = '42501',",
        "\t\t\t\t\t  HINT = 'Run this file as the role that installed it there, or install into a schema of your own.';",
        '\t\tEND IF;',
        "\t\tEXECUTE pg_catalog.format('SELECT %s.%s_version()', pg_catalog.quote_ident(target)) INTO installed;" % ('%s', NAME),
        '\tEND IF;',
        "\t-- what CREATE EXTENSION sets: the target schema, then pg_catalog, nothing else",
        "\tPERFORM pg_catalog.set_config('search_path', pg_catalog.quote_ident(target) OPERATOR(pg_catalog.||) ', pg_temp', true);",
        '\tIF installed IS NULL THEN',
        "\t\tEXECUTE pg_catalog.replace(%s" % SCRIPT_TAG,
        body.rstrip('\n'),
        "%s, '@extschema@', pg_catalog.quote_ident(target));" % SCRIPT_TAG,
        "\t\tRAISE NOTICE '%s %s installed into schema %%', target;" % (NAME, version),
        "\t\tinstalled := '%s';" % version,
        "\tELSIF installed = '%s' THEN" % version,
        "\t\tRAISE NOTICE '%s %s is installed in schema %%: nothing to do', target;" % (NAME, version),
    ]
    # an older version: its update steps in turn, each from the version the last one left
    out += ['\tELSE', '\t\tLOOP', "\t\t\tEXIT WHEN installed = '%s';" % version]
    for a, b, s in step_sql:
        out += [
            "\t\t\tIF installed = '%s' THEN" % a,
            "\t\t\t\tEXECUTE pg_catalog.replace(%s" % SCRIPT_TAG,
            s.rstrip('\n'),
            "%s, '@extschema@', pg_catalog.quote_ident(target));" % SCRIPT_TAG,
            "\t\t\t\tRAISE NOTICE '%s in schema %%: updated from %s to %s', target;" % (NAME, a, b),
            "\t\t\t\tinstalled := '%s';" % b,
            '\t\t\t\tCONTINUE;',
            '\t\t\tEND IF;',
        ]
    out += ['\t\t\tEXIT;', '\t\tEND LOOP;', '\tEND IF;']
    out += [
        "\tIF installed IS DISTINCT FROM '%s' THEN" % version,
        "\t\tRAISE EXCEPTION '%s %% in schema %%: this file has no update from it to %s', installed, target" % (NAME, version),
        "\t\t\tUSING ERRCODE = '55000';",
        '\tEND IF;',
        'END',
        PLAIN_TAG + ';',
    ]
    return '\n'.join(out) + '\n'


def pgtle_file(version, comment, script, steps):
    """The pg_tle package: registers this version (or adds it to an older
    registration) and every update path, then makes it the default."""
    def q(s):
        return "'" + s.replace("'", "''") + "'"
    lines = [
        '-- %s %s for pg_tle, generated by scripts/sql_edition.py (make sql-edition).' % (NAME, version),
        '-- Run it as a member of pgtle_admin (psql -f, or any SQL client); then, as a role',
        '-- with CREATE on the schema:',
        '--     CREATE EXTENSION %s SCHEMA myschema;' % NAME,
        '-- or, where an older version is installed, ALTER EXTENSION %s UPDATE.' % NAME,
        '-- Running it again changes nothing.',
        '',
        'DO ' + PLAIN_TAG,
        'BEGIN',
        "\tIF NOT EXISTS (SELECT FROM pgtle.available_extensions() a WHERE a.name OPERATOR(pg_catalog.=) %s) THEN" % q(NAME),
        "\t\tPERFORM pgtle.install_extension(%s, %s, %s, %s" % (q(NAME), q(version), q(comment), SCRIPT_TAG),
        script.rstrip('\n'),
        SCRIPT_TAG + ');',
        "\tELSIF NOT EXISTS (SELECT FROM pgtle.available_extension_versions() a",
        "\t\t\t\t\t   WHERE a.name OPERATOR(pg_catalog.=) %s AND a.version OPERATOR(pg_catalog.=) %s) THEN" % (q(NAME), q(version)),
        "\t\tPERFORM pgtle.install_extension_version_sql(%s, %s, %s" % (q(NAME), q(version), SCRIPT_TAG),
        script.rstrip('\n'),
        SCRIPT_TAG + ');',
        '\tEND IF;',
    ]
    for (a, b), path in steps:
        with open(path) as f:
            s = f.read().rstrip('\n') + '\n' + version_function(b, True)
        for tag in FORBIDDEN:
            if tag in s:
                raise Error('%s uses %s, a tag the generated files need for themselves' % (path, tag))
        fname = '%s--%s--%s.sql' % (NAME, a, b)
        lines += [
            "\tIF NOT EXISTS (SELECT FROM pg_catalog.pg_proc p",
            "\t\t\t\t   WHERE p.pronamespace OPERATOR(pg_catalog.=) 'pgtle'::pg_catalog.regnamespace",
            "\t\t\t\t     AND p.proname OPERATOR(pg_catalog.=) %s) THEN" % q(fname),
            "\t\tPERFORM pgtle.install_update_path(%s, %s, %s, %s" % (q(NAME), q(a), q(b), SCRIPT_TAG),
            s,
            SCRIPT_TAG + ');',
            '\tEND IF;',
        ]
    lines += [
        "\tPERFORM pgtle.set_default_version(%s, %s);" % (q(NAME), q(version)),
        'END',
        PLAIN_TAG + ';',
    ]
    return '\n'.join(lines) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', default=ROOT)
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--frozen-dir', default=os.path.join(ROOT, 'sql-edition', 'upgrade'))
    ap.add_argument('--version', help='(tests) the version to write instead of the control file\'s')
    ap.add_argument('--without', action='append', default=[], help='(tests) leave this object out')
    ap.add_argument('--only', action='append', help='(tests) write only the statements of this object '
                    '(an update script, to stdout)')
    ap.add_argument('--released', help='(tests) write the plain file of this released version, from its '
                    'frozen script, to update from')
    args = ap.parse_args()
    ctl = control(os.path.join(ROOT, 'sql-edition', NAME + '.control'))
    version = args.version or ctl['default_version']
    comment = ctl['comment']
    try:
        concerns = assemble(set(args.without), set(args.only) if args.only else None)
        if args.only:
            sys.stdout.write('\n\n'.join(s.strip() for _, st in concerns for s in st).replace('@VERSION@', version) + '\n')
            return 0
        concerns = [(h, st + ([version_function(version, False)] if i == 0 else []))
                    for i, (h, st) in enumerate(concerns)]
        script = extension_script(version, concerns, comment)
        bases, steps = frozen(args.frozen_dir)
        if args.released:
            if args.released not in bases:
                raise Error('%s is not a released version: no frozen script of it in %s'
                            % (args.released, args.frozen_dir))
            with open(bases[args.released]) as f:
                text = plain_file(args.released, f.read(), [])
            os.makedirs(args.out, exist_ok=True)
            with open(os.path.join(args.out, '%s.sql' % NAME), 'w') as f:
                f.write(text)
            print(os.path.join(args.out, '%s.sql' % NAME))
            return 0
        if version in bases and not args.version:
            with open(bases[version]) as f:
                released = f.read()
            if comment_free(released) != comment_free(script):
                raise Error('extension/*.sql and sql-edition/*.sql no longer assemble to %s, the script of the '
                            'released SQL edition %s: a change needs a new version of the SQL edition '
                            '(see doc/sql-edition.md)' % (os.path.relpath(bases[version], ROOT), version))
            script = released
        chain = update_chain(steps, version)
        if args.check:
            return 0
        ordered = [((a, b), steps[(a, b)]) for (a, b) in chain]
        outputs = [
            ('%s--%s.sql' % (NAME, version), script),
            ('%s.sql' % NAME, plain_file(version, script, ordered)),
            ('%s.pgtle.sql' % NAME, pgtle_file(version, comment, script, ordered)),
        ]
        os.makedirs(args.out, exist_ok=True)
        for fname, text in outputs:
            path = os.path.join(args.out, fname)
            tmp = path + '.tmp'
            with open(tmp, 'w') as f:
                f.write(text)
            os.replace(tmp, path)
        for fname, _ in outputs[1:]:
            print(os.path.join(args.out, fname))
        return 0
    except Error as e:
        print('sql_edition.py: %s' % e, file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main())
