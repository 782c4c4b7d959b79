#!/usr/bin/env python3
"""scripts/monitoring_check.py -- check the shipped monitoring files against a
real Prometheus that scrapes a real postgres_exporter (scripts/test-monitoring.sh
runs it once the workloads are done).

    monitoring_check.py PROMETHEUS_URL START_UNIX_SECONDS [SAVE_JSON]

Reads monitoring/ordered_uuid_exporter_queries.yaml, ordered_uuid_rules.yml and
ordered_uuid_dashboard.json; runs psql (PGHOST, PGPORT, ... from the environment:
the exporter's role, so that relation names read as the exporter reads them)
for the views' own values, in the extension's schema ordered_uuid.  Checks, each printed as "ok N - what" or
"not ok N - what":

  - the exporter read the queries file and every query ran (no load or scrape
    error);
  - every metric the queries file defines has series in Prometheus;
  - every rule is loaded and healthy, every metric selector in an alert
    returns series, each alert's expression with its comparisons made
    always-true ("!= bool") returns series (except those that compare with
    an earlier day, "offset"), and OrderedUuidCollectorRestarted fires (the
    test killed the worker);
  - every dashboard panel's query returns series over the test's time range,
    a panel's queries are all rates or all levels (one unit on its axis)
    unless an override gives one its own unit, and no two panels overlap;
  - the scraped counters equal the views' values: a view read before a scrape
    and again after it brackets the scraped value, and where the workload's
    own rows did not move between the two reads, they are equal;
  - the WAL per relation adds up in Prometheus: in one scrape, the relation
    series plus the parts outside them (records without block references,
    pruned, evicted: not 0, the test evicts) equal the totals of the WAL read.

SAVE_JSON: write the dashboard queries' query_range results there (for
doc/monitoring.png, drawn by scripts/monitoring_plot.py).
Exits non-zero when a check failed.
"""
import json
import os
import re
import subprocess
import sys
import time
import urllib.parse
import urllib.request

from monitoring_file import Report, metric_names, read_queries

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MON = os.path.join(ROOT, "monitoring")

URL, START = sys.argv[1], float(sys.argv[2])
SAVE = sys.argv[3] if len(sys.argv) > 3 else None

report = Report()


def api(path, **params):
    url = URL + path + ("?" + urllib.parse.urlencode(params) if params else "")
    with urllib.request.urlopen(url, timeout=30) as r:
        body = json.load(r)
    if body.get("status") != "success":
        raise RuntimeError(f"{path}: {body}")
    return body["data"]


def query(expr, at=None):
    """Instant query: list of (labels, value)."""
    params = {"query": expr}
    if at is not None:
        params["time"] = f"{at:.3f}"
    try:
        data = api("/api/v1/query", **params)
    except Exception as e:  # a bad expression: HTTP 400 or status error
        raise RuntimeError(f"{expr}: {e}")
    if data["resultType"] == "scalar":
        return [({}, float(data["result"][1]))]
    return [(s["metric"], float(s["value"][1])) for s in data["result"]]


def psql(sql):
    out = subprocess.run(["psql", "-XAtq", "-v", "ON_ERROR_STOP=1", "-F", "\t", "-c", sql],
                         check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines() if line]


# ---- the queries file: keys, metric names, their usages --------------------------
metrics = metric_names(read_queries(os.path.join(MON, "ordered_uuid_exporter_queries.yaml")))
report("the queries file defines metrics", len(metrics) >= 20, f"{len(metrics)} found")

# ---- the exporter itself ------------------------------------------------------
err = query("pg_exporter_user_queries_load_error")
report("the exporter loaded the queries file",
       len(err) > 0 and all(v == 0 for _, v in err), str(err))
err = query("pg_exporter_last_scrape_error")
report("the exporter's last scrape ran every query without error",
       len(err) == 1 and err[0][1] == 0, str(err))

# ---- every metric has series ---------------------------------------------------
for name, usage in sorted(metrics.items()):
    series = query(name)
    ok = len(series) > 0
    if ok and usage == "COUNTER":
        ok = name.endswith("_total")
    report(f"metric {name} ({usage.lower()}) has series", ok, f"{len(series)} series")

# ---- the rules -----------------------------------------------------------------
groups = api("/api/v1/rules")["groups"]
rules = [r for g in groups for r in g["rules"]]
report("Prometheus loaded the rules", len(rules) >= 8, f"{len(rules)} rules")
selector = re.compile(r"\b(ordered_uuid_[a-z_]+)(\{[^}]*\})?")
for r in rules:
    name = r.get("name")
    report(f"rule {name} is healthy", r.get("health") == "ok", r.get("lastError", ""))
    expr = r["query"]
    for sel in sorted({m.group(0) for m in selector.finditer(expr)}):
        try:
            found = query(sel)
        except RuntimeError as e:
            found, sel = [], f"{sel} ({e})"
        report(f"rule {name}: {sel} has series", len(found) > 0)
    if "offset" in expr:
        continue
    relaxed = re.sub(r"\s(>|<|==|>=|<=)\s", " != bool ", expr)
    try:
        found = query(relaxed)
    except RuntimeError as e:
        found = []
        relaxed += f" ({e})"
    report(f"rule {name}: its expression, comparisons made always-true, returns series",
           len(found) > 0, relaxed)
alerts = api("/api/v1/alerts")["alerts"]
report("alert OrderedUuidCollectorRestarted fires after the worker was killed",
       any(a["labels"]["alertname"] == "OrderedUuidCollectorRestarted" and a["state"] == "firing"
           for a in alerts), str([a["labels"]["alertname"] for a in alerts]))

# ---- the dashboard ---------------------------------------------------------------
dash = json.load(open(os.path.join(MON, "ordered_uuid_dashboard.json")))
# One unit on a panel's axis: its queries are all rates (rate, increase) or
# all levels, unless an override gives a query's series a unit of their own.
for p in dash["panels"]:
    overridden = {o["matcher"].get("options") for o in p.get("fieldConfig", {}).get("overrides", [])
                  if o.get("matcher", {}).get("id") == "frameRefId"
                  and any(x.get("id") == "unit" for x in o.get("properties", []))}
    kinds = {bool(re.search(r"\b(i?rate|increase)\(", t["expr"])) for t in p.get("targets", [])
             if t["refId"] not in overridden}
    report(f"panel '{p['title']}': one unit for its queries", len(kinds) <= 1,
           "it mixes rates and levels on one axis")
# no two panels overlap on the 24-column grid
boxes = [(p["title"], p["gridPos"]) for p in dash["panels"]]
overlaps = [(a, b) for i, (a, g) in enumerate(boxes) for b, h in boxes[i + 1:]
            if g["x"] < h["x"] + h["w"] and h["x"] < g["x"] + g["w"]
            and g["y"] < h["y"] + h["h"] and h["y"] < g["y"] + g["h"]]
report("the dashboard's panels lie within 24 columns and do not overlap",
       not overlaps and all(g["x"] + g["w"] <= 24 for _, g in boxes), str(overlaps))
end = time.time()
saved = []
variables = {"$__rate_interval": "20s", "$topn": "10", "$server": ".*"}
for p in dash["panels"]:
    for t in p.get("targets", []):
        expr = t["expr"]
        for k, v in variables.items():
            expr = expr.replace(k, v)
        try:
            data = api("/api/v1/query_range", query=expr, start=f"{START:.3f}",
                       end=f"{end:.3f}", step="2s")
            result = data["result"]
        except Exception as e:
            result, expr = [], f"{expr} ({e})"
        points = sum(len(s["values"]) for s in result)
        report(f"panel '{p['title']}' {t['refId']}: returns series", points > 0, expr)
        saved.append({"panel": p["title"], "refId": t["refId"], "legend": t.get("legendFormat", ""),
                      "unit": p["fieldConfig"]["defaults"].get("unit", ""), "result": result})
if SAVE:
    with open(SAVE, "w") as f:
        json.dump({"start": START, "end": end, "panels": saved}, f)

# ---- scraped counters against the views -------------------------------------------
# Read the views, wait for a scrape that began after that read, take what it
# scraped, read the views again: the scraped value lies between the two
# reads.  Keys are the labels the queries file makes, built here from the
# views' own columns, for the rows this database names.
VIEWS = {
    "ordered_uuid_index_leaf_splits_total": (
        "SELECT index::text, leaf_splits FROM ordered_uuid.index_split_stats WHERE index IS NOT NULL", "index"),
    "ordered_uuid_index_upper_splits_total": (
        "SELECT index::text, upper_splits FROM ordered_uuid.index_split_stats WHERE index IS NOT NULL", "index"),
    "ordered_uuid_index_root_splits_total": (
        "SELECT index::text, root_splits FROM ordered_uuid.index_split_stats WHERE index IS NOT NULL", "index"),
    "ordered_uuid_extend_lock_waits_total": (
        "SELECT relation::text, waits FROM ordered_uuid.extend_lock_stats WHERE relation IS NOT NULL", "relation"),
    "ordered_uuid_extend_lock_samples_total": (
        "SELECT relation::text, samples FROM ordered_uuid.extend_lock_stats WHERE relation IS NOT NULL", "relation"),
    "ordered_uuid_extend_lock_wait_seconds_total": (
        "SELECT relation::text, extract(epoch FROM est_wait_time) FROM ordered_uuid.extend_lock_stats"
        " WHERE relation IS NOT NULL", "relation"),
    "ordered_uuid_collector_rounds_total": ("SELECT '', rounds FROM ordered_uuid.collector_info()", None),
    "ordered_uuid_collector_wal_records_total": ("SELECT '', wal_records FROM ordered_uuid.collector_info()", None),
    "ordered_uuid_collector_wal_skipped_bytes_total": (
        "SELECT '', wal_skipped_bytes FROM ordered_uuid.collector_info()", None),
    "ordered_uuid_wait_samples_total": (
        "SELECT backend_type || '/' || wait_event_type || '/' || wait_event, sum(samples)"
        " FROM ordered_uuid.wait_profile GROUP BY 1", ("backend_type", "wait_event_type", "wait_event")),
}
# relation_wal_stats: one row per relation and fork
for metric, column in (("records", "records"), ("bytes", "wal_bytes"), ("fpi", "fpis"),
                       ("fpi_bytes", "fpi_bytes")):
    VIEWS[f"ordered_uuid_relation_wal_{metric}_total"] = (
        f"SELECT relation::text || '/' || fork, {column} FROM ordered_uuid.relation_wal_stats"
        " WHERE relation IS NOT NULL", ("relation", "fork"))
# relation_wal_info(): the totals the rows add up to, and the parts of them
# outside the rows (one series per part)
PARTS = {"records": ("relation_records", ("no_block_records", "pruned_records", "evicted_records")),
         "bytes": ("wal_bytes", ("no_block_bytes", "pruned_bytes", "evicted_bytes")),
         "fpi": ("fpis", ("0", "pruned_fpis", "evicted_fpis")),
         "fpi_bytes": ("fpi_bytes", ("0", "pruned_fpi_bytes", "evicted_fpi_bytes"))}
for metric, (total, (no_block, pruned, evicted)) in PARTS.items():
    VIEWS[f"ordered_uuid_relation_wal_all_{metric}_total"] = (
        f"SELECT '', {total} FROM ordered_uuid.relation_wal_info()", None)
    VIEWS[f"ordered_uuid_relation_wal_other_{metric}_total"] = (
        f"SELECT p.part, p.v FROM ordered_uuid.relation_wal_info() w,"
        f" LATERAL (VALUES ('no_block', {no_block}), ('pruned', {pruned}), ('evicted', {evicted})) p (part, v)",
        "part")
# the workload's own rows: quiet once it is done, so the reads must agree
# (schema-qualified: public is not on the exporter's search_path); S1's
# index has full-page images (the checkpoints between its batches)
QUIET = {("ordered_uuid_index_leaf_splits_total", "public.s1_pkey"),
         ("ordered_uuid_relation_wal_records_total", "public.s1_pkey/main"),
         ("ordered_uuid_relation_wal_bytes_total", "public.s1_pkey/main"),
         ("ordered_uuid_relation_wal_fpi_total", "public.s1_pkey/main"),
         ("ordered_uuid_relation_wal_fpi_bytes_total", "public.s1_pkey/main"),
         ("ordered_uuid_extend_lock_waits_total", "public.s2"),
         ("ordered_uuid_extend_lock_samples_total", "public.s2")}


def read_views():
    out = {}
    for name, (sql, _) in VIEWS.items():
        out[name] = {k: float(v) for k, v in psql(sql)}
    return out


def scraped(name, label, at):
    vals = {}
    expr = name if label is not None else name
    if isinstance(label, tuple):
        expr = f"sum by ({', '.join(label)}) ({name})"
    for labels, v in query(expr, at):
        if label is None:
            k = ""
        elif isinstance(label, tuple):
            k = "/".join(labels.get(x, "") for x in label)
        else:
            k = labels.get(label, "")
        vals[k] = v
    return vals


before = read_views()
# a scrape that began after the first read had ended: its sample's timestamp
# is later (one that began while the views were being read may have read a
# view before we did)
before_t = time.time()
deadline = time.time() + 30
at = None
while time.time() < deadline:
    ts = query("max(timestamp(ordered_uuid_collector_rounds_total))")
    if ts and ts[0][1] > before_t + 0.001:
        at = time.time()
        break
    time.sleep(0.5)
report("Prometheus scraped again after the views were read", at is not None)
if at is not None:
    got = {name: scraped(name, label, at) for name, (_, label) in VIEWS.items()}
    after = read_views()
    for name in VIEWS:
        b, g, a = before[name], got[name], after[name]
        keys = set(b) & set(a)
        bad = [f"{k}: {b[k]} <= {g.get(k)} <= {a[k]}" for k in sorted(keys)
               if k not in g or not (b[k] - 1e-6 <= g[k] <= a[k] + 1e-6)]
        report(f"{name}: scraped values lie between two reads of the view ({len(keys)} keys)",
               len(keys) > 0 and not bad, "; ".join(bad[:5]))
    for name, k in sorted(QUIET):
        b, g, a = before[name].get(k), got[name].get(k), after[name].get(k)
        report(f"{name}{{{k}}} scraped equals the view at a quiet moment ({g})",
               b is not None and b > 0 and b == a == g, f"view {b}, scraped {g}, view again {a}")

# ---- the WAL per relation adds up, through Prometheus -----------------------------
# The relation series plus the parts outside them equal the totals of the WAL
# read, for each measure, in one scrape.  The exporter runs its queries one
# after another: a scrape during which the worker added a slice of WAL may be
# off, so wait (at most 30 s) for one that adds up.  The test evicted entries
# (ordered_uuid.max_entries below the relation files it wrote): the evicted
# part is not 0.
evicted = query('ordered_uuid_relation_wal_other_bytes_total{part="evicted"}')
report("entries of relation_wal_stats were evicted, their bytes kept in the evicted part",
       len(evicted) == 1 and evicted[0][1] > 0, str(evicted))
off = {}
deadline = time.time() + 30
last = None
while time.time() < deadline:
    ts = query("max(timestamp(ordered_uuid_relation_wal_all_bytes_total))")
    if ts and ts[0][1] != last:
        last = ts[0][1]
        off = {}
        for metric in PARTS:
            got = query(f"sum(ordered_uuid_relation_wal_{metric}_total)"
                        f" + sum(ordered_uuid_relation_wal_other_{metric}_total)"
                        f" - sum(ordered_uuid_relation_wal_all_{metric}_total)")
            off[metric] = got[0][1] if got else None
        if all(v == 0 for v in off.values()):
            break
    time.sleep(0.5)
report("the relation series plus the other parts equal the WAL read (records, bytes, fpi, fpi_bytes)",
       bool(off) and all(v == 0 for v in off.values()), f"series + parts - totals: {off}")

sys.exit(report.summary("monitoring"))
