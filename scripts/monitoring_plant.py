#!/usr/bin/env python3
"""scripts/monitoring_plant.py -- run the exporter's queries against objects an
attacker planted on the monitoring role's search_path (scripts/test-monitoring.sh
runs it on its server once the end-to-end checks are done).

    monitoring_plant.py plant QUERIES_FILE
    monitoring_plant.py check QUERIES_FILE [EXPORTER_URL CLEAN_EXPORTER_URL]

plant, as the superuser of PGHOST/PGPORT: makes the database ou_plant owned by
the role ou_attacker, installs the extension there into schema ordered_uuid,
and the monitoring roles ou_exposed (search_path attacker, pg_catalog, public,
ordered_uuid: the attacker's schema first) and ou_clean (pg_catalog,
ordered_uuid), both IN ROLE pg_monitor.  Then it reads the queries file
(nothing in it is hard-coded here) for every operator symbol, function name
and type name its queries use, and plants, in schema attacker (ou_attacker's)
and in public (as an ordinary role on 14, where public is writable by all; as
the database owner ou_attacker on 15 and later):
  - operators with those symbols (and =, <>, which NULLIF, IN, CASE x WHEN and
    joins look up) for every pair of argument types and as prefix operators;
    the types: TYPES below, every column type of our views and functions the
    queries name, and the types the queries cast to;
  - functions with those names for 0, 1 and 2 arguments of those types and 3
    of TYPES3;
  - views named like each of our views and functions like each of ours (the
    same signature), and domains named like each type.
Every planted object calls attacker.ou_ran(), which counts in a sequence (not
undone when the query fails) and a table and raises a WARNING.

check, as ou_exposed: runs every query with the planted search_path between
two runs with ou_clean's (the collector's sampling and autovacuum paused, the
database vacuumed, retried until the two clean runs agree or the planted run's
numbers lie between theirs) and checks that each succeeds, returns what the
clean runs did (relation names compared without the schemas attacker and
public, which one of the two search_paths holds), and that no planted object ran.  With the two exporters' URLs
(postgres_exporter connected as ou_exposed and as ou_clean) it also checks
that the exporter ran every query without error, exports every metric of the
file, and its ordered_uuid_* series equal the clean exporter's.
Prints "ok N - what" / "not ok N - what"; exits non-zero when a check failed.
"""
import itertools
import os
import re
import subprocess
import sys
import time
import urllib.request

from monitoring_file import Report, metric_names, read_queries

DB, SCHEMA = "ou_plant", "ordered_uuid"
ATTACKER, ORDINARY, EXPOSED, CLEAN = "ou_attacker", "ou_ordinary", "ou_exposed", "ou_clean"
PLANTED_PATH = f"attacker, pg_catalog, public, {SCHEMA}"
CLEAN_PATH = f"pg_catalog, {SCHEMA}"
TYPES = ["text", "name", "oid", "int2", "int4", "int8", "float8", "numeric", "bool", "timestamptz",
         "interval", "pg_lsn", "regclass", '"char"', "varchar",
         "anyelement", "anynonarray", "anycompatible"]
TYPES3 = ["text", "oid", "int8", "float8", "anyelement"]
ALWAYS_OPS = ["=", "<>"]
# words followed by "(" that are not function calls
NOT_FUNCTIONS = {"values", "in", "exists", "any", "all", "some", "operator", "lateral", "and", "or",
                 "not", "on", "where", "select", "from", "join", "using", "when", "then", "else",
                 "case", "end", "over", "filter", "as", "cast"}

report = Report()


def psql(sql, user="postgres", db=DB, check=True):
    """Run sql through psql -XAtq as user; (returncode, stdout, stderr)."""
    env = dict(os.environ, PGUSER=user, PGDATABASE=db)
    if user != EXPOSED:
        # our own statements see none of the plants
        env["PGOPTIONS"] = "-c search_path=pg_catalog"

    r = subprocess.run(["psql", "-XAtq", "-v", "ON_ERROR_STOP=1", "-F", "\t"], input=sql, env=env,
                       capture_output=True, text=True)
    if check and r.returncode != 0:
        raise RuntimeError(f"psql as {user}: {r.stderr.strip()[:2000]}")
    return r.returncode, r.stdout, r.stderr


TOKEN = re.compile(r"""(?P<str>'(?:[^']|'')*')|(?P<comment>--[^\n]*)|(?P<qid>"(?:[^"]|"")+")"""
                   r"""|(?P<id>[A-Za-z_][A-Za-z0-9_$]*)|(?P<num>[0-9]+(?:\.[0-9]*)?)|(?P<op>[-+*/<>=~!@#%^&|`?]+)"""
                   r"""|(?P<cast>::)|(?P<p>[(),.;\[\]:])|(?P<ws>\s+)""")


def tokens(sql):
    out = []
    for m in TOKEN.finditer(sql):
        kind = m.lastgroup
        if kind in ("ws", "comment", "str", "num"):
            continue
        text = m.group(0)
        if kind == "qid":
            kind, text = "id", text[1:-1].replace('""', '"')
        out.append((kind, text if kind != "id" or m.group("qid") else text.lower()))
    return out


def names_used(queries):
    """(operator symbols, function names, type names, other identifiers) the queries use."""
    ops, funcs, types, idents = set(ALWAYS_OPS), set(), set(), set()
    for q in queries.values():
        t = tokens(q["query"])
        for i, (kind, text) in enumerate(t):
            if kind == "op":
                ops.add(text)
            elif kind == "id":
                idents.add(text)
                nxt = t[i + 1] if i + 1 < len(t) else ("", "")
                prev = t[i - 1] if i > 0 else ("", "")
                if nxt == ("p", "(") and text not in NOT_FUNCTIONS and prev[1].lower() != "as":
                    funcs.add(text)
        # the type after "::", its schema skipped
        for i, (kind, text) in enumerate(t):
            if kind == "cast":
                j = i + 1
                while j + 2 < len(t) and t[j + 1] == ("p", "."):
                    j += 2
                if j < len(t) and t[j][0] == "id":
                    types.add(t[j][1])
    return ops, funcs, types, idents


def qi(name):
    return '"' + name.replace('"', '""') + '"'


def lit(s):
    return "'" + s.replace("'", "''") + "'"


def setup():
    psql(f"""
DROP DATABASE IF EXISTS {DB};
DO $$ BEGIN
  CREATE ROLE {ATTACKER} LOGIN; CREATE ROLE {ORDINARY} LOGIN;
  CREATE ROLE {EXPOSED} LOGIN IN ROLE pg_monitor; CREATE ROLE {CLEAN} LOGIN IN ROLE pg_monitor;
EXCEPTION WHEN duplicate_object THEN NULL; END $$;
CREATE DATABASE {DB} OWNER {ATTACKER};
ALTER ROLE {EXPOSED} IN DATABASE {DB} SET search_path = {PLANTED_PATH};
ALTER ROLE {CLEAN} IN DATABASE {DB} SET search_path = {CLEAN_PATH};
""", db="postgres")
    psql(f"CREATE SCHEMA {SCHEMA}; GRANT USAGE ON SCHEMA {SCHEMA} TO PUBLIC;"
         f" CREATE EXTENSION ordered_uuid SCHEMA {SCHEMA};")
    psql(f"""CREATE SCHEMA attacker;
GRANT USAGE ON SCHEMA attacker TO PUBLIC;
CREATE TABLE attacker.ou_ran (what text, by_role name);
CREATE SEQUENCE attacker.ou_ran_seq;
GRANT INSERT ON attacker.ou_ran TO PUBLIC;
GRANT USAGE ON SEQUENCE attacker.ou_ran_seq TO PUBLIC;
CREATE FUNCTION attacker.ou_ran(what text) RETURNS bool LANGUAGE plpgsql AS $f$
BEGIN
  PERFORM pg_catalog.nextval('attacker.ou_ran_seq');
  INSERT INTO attacker.ou_ran VALUES (what, CURRENT_USER);
  RAISE WARNING 'ou-planted-ran: % as %', what, CURRENT_USER;
  RETURN true;
END $f$;
""", user=ATTACKER)


def catalog(funcs, idents):
    """Our objects named in the queries, their column types, and every relation
    and function of the extension: (views, functions, column types)."""
    ext = f"""d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
  AND d.refobjid OPERATOR(pg_catalog.=) (SELECT oid FROM pg_catalog.pg_extension WHERE extname OPERATOR(pg_catalog.=) 'ordered_uuid')
  AND d.deptype OPERATOR(pg_catalog.=) 'e'"""
    _, out, _ = psql(f"""SET search_path = pg_catalog;
SELECT c.relname FROM pg_depend d JOIN pg_class c ON d.classid OPERATOR(pg_catalog.=) 'pg_class'::regclass
  AND c.oid OPERATOR(pg_catalog.=) d.objid WHERE {ext} AND c.relkind OPERATOR(pg_catalog.=) 'v';""")
    views = out.split()
    _, out, _ = psql(f"""SET search_path = pg_catalog;
SELECT p.proname, pg_get_function_arguments(p.oid), pg_get_function_result(p.oid), p.pronargs,
       (SELECT string_agg(DISTINCT format_type(t, NULL), ',') FROM unnest(coalesce(p.proallargtypes,
            p.proargtypes::oid[]) || p.prorettype) AS t)
  FROM pg_depend d JOIN pg_proc p ON d.classid OPERATOR(pg_catalog.=) 'pg_proc'::regclass
  AND p.oid OPERATOR(pg_catalog.=) d.objid WHERE {ext} AND p.prokind OPERATOR(pg_catalog.=) 'f'
  -- planner support and selectivity functions take or return internal: no
  -- SQL can call them, nor can a PL/pgSQL function of that type be planted
  AND NOT ('internal'::pg_catalog.regtype::pg_catalog.oid OPERATOR(pg_catalog.=) ANY
       (pg_catalog.array_append(coalesce(p.proallargtypes, p.proargtypes::pg_catalog.oid[]), p.prorettype)));""")
    functions = [line.split("\t") for line in out.splitlines() if line]
    coltypes = set()
    for name, _, _, _, tys in functions:
        if name in funcs:
            coltypes.update(x for x in tys.split(",") if x != "record")
    for v in views:
        if v in idents:
            _, out, _ = psql(f"""SET search_path = pg_catalog;
SELECT DISTINCT format_type(atttypid, NULL) FROM pg_attribute
 WHERE attrelid OPERATOR(pg_catalog.=) '{SCHEMA}.{v}'::regclass AND attnum OPERATOR(pg_catalog.>) 0;""")
            coltypes.update(out.split("\n"))
    coltypes.discard("")
    return views, functions, coltypes


def type_sql(t):
    """A type as pg_catalog.x (format_type's SQL spellings mapped back)."""
    spelled = {"bigint": "int8", "integer": "int4", "smallint": "int2", "boolean": "bool",
               "double precision": "float8", "real": "float4", "character varying": "varchar",
               "timestamp with time zone": "timestamptz", "timestamp without time zone": "timestamp",
               "time with time zone": "timetz", "time without time zone": "time", "character": "bpchar"}
    t = spelled.get(t, t)
    if t.endswith("[]"):
        return type_sql(t[:-2]) + "[]"
    return "pg_catalog." + (t if t.startswith('"') else qi(t))


def plant_sql(schema, ops, funcs, types, views, functions, coltypes):
    """The statements that plant everything into schema."""
    alltypes = sorted({type_sql(t) for t in TYPES} | {type_sql(t) for t in coltypes})
    types3 = [type_sql(t) for t in TYPES3]
    stmts = ["BEGIN;", "SET LOCAL search_path = pg_catalog;"]
    k = itertools.count()

    def func(name, args, result="pg_catalog.text", ret="RETURN NULL;", what=None):
        fname = f"{schema}.{qi(name)}"
        what = f"{schema}.{what or name}({args})"
        stmts.append(f"CREATE FUNCTION {fname}({args}) RETURNS {result} LANGUAGE plpgsql AS "
                     f"$f$BEGIN PERFORM attacker.ou_ran({lit(what)}); {ret} END$f$;")
        return fname

    for op in sorted(ops):
        result = "pg_catalog.bool" if op in ("=", "<>", "<", ">", "<=", ">=", "~", "!~") else "pg_catalog.text"
        for left, right in itertools.product([None] + alltypes, alltypes):
            f = func(f"op_{next(k)}", ", ".join(x for x in (left, right) if x), result,
                     what=f"operator {op}")
            leftarg = f"LEFTARG = {left}, " if left else ""
            stmts.append(f"CREATE OPERATOR {schema}.{op} ({leftarg}RIGHTARG = {right}, FUNCTION = {f});")
    # ours with their own signatures (their results, so that a query runs them)
    ours = {}
    for name, args, result, nargs, _ in functions:
        ours.setdefault(name, set()).add(int(nargs))
        ret = "RETURN;" if "OUT " in args or result.startswith(("SETOF", "TABLE")) or result == "void" else "RETURN NULL;"
        func(name, args, result, ret)
    for name in sorted(funcs):
        sigs = [()] + [(a,) for a in alltypes] + list(itertools.product(alltypes, alltypes)) \
            + list(itertools.product(types3, types3, types3))
        for sig in sigs:
            if len(sig) not in ours.get(name, ()):
                func(name, ", ".join(sig))
    for v in views:
        stmts.append(f"CREATE VIEW {schema}.{qi(v)} AS SELECT v.* FROM {SCHEMA}.{qi(v)} AS v "
                     f"WHERE attacker.ou_ran({lit(f'{schema}.{v} (view)')});")
    for t in sorted(types | {t.strip('"') for t in TYPES if not t.startswith("any")}):
        base = psql(f"SET search_path = pg_catalog; SELECT to_regtype({lit(t)})::oid::regtype;")[1].strip()
        if base:
            stmts.append(f"CREATE DOMAIN {schema}.{qi(t)} AS {type_sql(base)} "
                         f"CHECK (attacker.ou_ran({lit(f'{schema}.{t} (domain)')}));")
    return "\n".join(stmts + ["COMMIT;"]) + "\n"


def plant(path):
    setup()
    queries = read_queries(path)
    ops, funcs, types, idents = names_used(queries)
    views, functions, coltypes = catalog(funcs, idents)
    print(f"# planting: operators {sorted(ops)}, functions {sorted(funcs)}, types {sorted(types)}, "
          f"our views {views}, column types {sorted(coltypes)}")
    v14 = int(psql("SHOW server_version_num;")[1]) < 150000
    psql(plant_sql("attacker", ops, funcs, types, views, functions, coltypes), user=ATTACKER)
    psql(plant_sql("public", ops, funcs, types, views, functions, coltypes),
         user=ORDINARY if v14 else ATTACKER)
    _, out, _ = psql("SELECT count(*) FROM pg_proc WHERE pronamespace IN "
                     "('attacker'::regnamespace, 'public'::regnamespace);")
    print(f"# planted {out.strip()} functions in schemas attacker and public "
          f"(public as {ORDINARY if v14 else ATTACKER})")


def ran():
    _, out, _ = psql("SELECT last_value * is_called::int FROM attacker.ou_ran_seq;"
                     "SELECT coalesce(string_agg(DISTINCT what || ' as ' || by_role, '; '), '') FROM attacker.ou_ran;")
    count, what = (out.split("\n") + [""])[:2]
    return int(count), what


def unqualified(text):
    """A relation's name as regclass prints it depends on the search_path: a
    relation in schema attacker or public prints without its schema under
    PLANTED_PATH, with it under CLEAN_PATH.  Drop those two schemas' names
    from both sides of a comparison."""
    return re.sub(r"(?<![\w.])(attacker|public)\.", "", text)


def rows(text):
    return sorted(unqualified(text).splitlines())


def between(planted, clean1, clean2):
    """The planted run's rows match the two clean runs' field by field: equal
    text, or numbers between the clean runs' (the collector's own state, its
    WAL read and lag, moves between any two runs: the worker reads the WAL
    once per sample_interval, and the server logs a running transactions
    record every 15 s while anything writes)."""
    if not len(planted) == len(clean1) == len(clean2):
        return False
    for p, a, b in zip(planted, clean1, clean2):
        fields = [r.split("\t") for r in (p, a, b)]
        if len({len(f) for f in fields}) != 1:
            return False
        for x, y, z in zip(*fields):
            if x == y == z:
                continue
            try:
                x, y, z = float(x), float(y), float(z)
            except ValueError:
                return False
            if not min(y, z) <= x <= max(y, z):
                return False
    return True


def quiet():
    """Pause the collector's sampling and autovacuum, vacuum the database (the
    plants' catalog rows get their hint bits, whose WAL the collector reads),
    and wait until the collector has read all the WAL: the clean runs agree."""
    psql("ALTER SYSTEM SET ordered_uuid.sample_interval = 60000; ALTER SYSTEM SET autovacuum = off;"
         " SELECT pg_reload_conf();")
    psql("VACUUM;")
    for _ in range(60):
        if psql("SELECT wal_lag_bytes FROM ordered_uuid.collector_info();")[1].strip() == "0":
            break
        time.sleep(1)


def check_sql(queries):
    quiet()
    _, out, _ = psql("SHOW search_path;", user=EXPOSED)
    report("the monitoring role's search_path puts the attacker's schema first",
           out.strip() == PLANTED_PATH, out.strip())
    for key, q in sorted(queries.items()):
        sql = q["query"]
        script = (f"SET search_path = {CLEAN_PATH};\n{sql};\n\\echo @@\nRESET search_path;\n{sql};\n"
                  f"\\echo @@\nSET search_path = {CLEAN_PATH};\n{sql};\n")
        ok = False
        for _ in range(20):
            before = ran()[0]
            rc, out, err = psql(script, user=EXPOSED, check=False)
            if rc != 0:
                detail = err.strip()[:500]
                break
            clean1, planted, clean2 = [rows(p) for p in out.split("@@\n")]
            detail = (f"{len(planted)} rows; planted {planted[:3]}, clean {clean1[:3]}"
                      + (f"; {err.strip()[:300]}" if err.strip() else ""))
            if ran()[0] != before:
                break
            if clean1 != clean2 and not between(planted, clean1, clean2):
                detail += "; the clean runs never agreed, nor lay the planted one between them"
                time.sleep(1)
                continue
            ok = between(planted, clean1, clean2) and len(planted) > 0
            break
        report(f"query {key} as {EXPOSED} succeeds and returns what it does without the plants",
               ok, detail)
    count, what = ran()
    report("no planted object ran during the queries", count == 0, f"{count} calls: {what}")


def scrape(url):
    with urllib.request.urlopen(url + "/metrics", timeout=30) as r:
        body = r.read().decode()
    out = {}
    for line in body.splitlines():
        if line and not line.startswith("#"):
            series, _, value = line.rpartition(" ")
            out[series] = value
    return out


def check_exporter(queries, url, clean_url):
    metrics = set(metric_names(queries))
    ours = None
    for _ in range(20):
        c1, got, c2 = scrape(clean_url), scrape(url), scrape(clean_url)
        # the collector's own state (rounds, WAL read and lag) moves between any
        # two scrapes: compare the series of the views, which hold still
        pick = [{unqualified(s): v for s, v in d.items() if s.startswith("ordered_uuid_")
                 and not s.startswith("ordered_uuid_collector_")} for d in (c1, got, c2)]
        if pick[0] == pick[2]:
            ours = pick
            break
        time.sleep(1)
    report(f"the exporter as {EXPOSED} ran every query without error",
           got.get("pg_exporter_last_scrape_error") == "0" and
           all(v == "0" for s, v in got.items() if s.startswith("pg_exporter_user_queries_load_error")),
           str({s: v for s, v in got.items() if s.startswith("pg_exporter_")}))
    names = {re.sub(r"\{.*", "", s) for s in got}
    missing = sorted(metrics - names)
    report(f"the exporter as {EXPOSED} exports every metric of the file ({len(metrics)})",
           not missing, f"missing: {missing}")
    if ours is None:
        report("two scrapes of the clean exporter agreed", False)
    else:
        diff = sorted(set(ours[1].items()) ^ set(ours[0].items()))
        report(f"the exporter's ordered_uuid_* series as {EXPOSED} equal those as {CLEAN} "
               f"({len(ours[1])} series)", not diff and len(ours[1]) > 0, str(diff[:6]))
    count, what = ran()
    report("no planted object ran during the scrapes", count == 0, f"{count} calls: {what}")


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("plant", "check"):
        sys.exit(__doc__)
    path = sys.argv[2]
    if sys.argv[1] == "plant":
        plant(path)
        return
    queries = read_queries(path)
    report(f"the queries file has queries ({len(queries)})", len(queries) >= 5)
    try:
        check_sql(queries)
        if len(sys.argv) >= 5:
            check_exporter(queries, sys.argv[3], sys.argv[4])
    finally:
        psql("ALTER SYSTEM RESET ordered_uuid.sample_interval; ALTER SYSTEM RESET autovacuum;"
             " SELECT pg_reload_conf();")
    sys.exit(report.summary("monitoring plants"))


if __name__ == "__main__":
    main()
