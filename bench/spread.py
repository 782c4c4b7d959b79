#!/usr/bin/env python3
"""bench/spread.py -- medians and spread of interleaved repetitions.

    bench/spread.py markdown RUNS.csv [SUBJECT] [VALUE]
    bench/spread.py summary RUNS.csv KEYS VALUE

RUNS.csv has one line per run (lines starting with '# ' are comments; the
ones named 'run: ', 'server: ' and 'machine: ' are printed first).  Its columns include
'case' (what the runs share: the clients, the table), 'rep' (the
repetition, from 1), 'generator' and the measured VALUE (default
rows_per_sec).

markdown: per case, one table row per generator: the median of VALUE with
its minimum and maximum and the number of runs, and for every generator
other than SUBJECT (default: striped; a generator of that name, else the
first whose name contains it) the ratio SUBJECT / generator of the
medians, with the minimum and maximum of the per-pair ratios (SUBJECT's
repetition i over the generator's repetition i: runs made side by side).
A ratio is a fair comparison only when its per-pair range stays on one side
of 1.

summary: CSV of the median, minimum, maximum and number of runs of VALUE per
distinct combination of the comma-separated KEYS columns, in the order
they first appear.

Only the standard library: the scripts run it before any virtualenv.
"""
import csv
import sys


def read(path):
    """(comment lines as {key: [values]}, rows as dicts) of a CSV with '# key: value' lines."""
    meta, lines = {}, []
    with open(path, newline="") as f:
        for line in f:
            if line.startswith("# "):
                key, _, value = line[2:].partition(": ")
                meta.setdefault(key.strip(), []).append(value.strip())
            else:
                lines.append(line)
    return meta, list(csv.DictReader(lines))


def median(values):
    """The median (the mean of the two middle values of an even count)."""
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2.0


def spread(values):
    """(median, min, max, runs) of a list of numbers."""
    return median(values), min(values), max(values), len(values)


def order(rows, key):
    """The distinct values of a column, in the order they first appear."""
    seen = []
    for r in rows:
        if r[key] not in seen:
            seen.append(r[key])
    return seen


def fmt(x):
    """A rate or a time as a person reads it: thousands separated, no more digits than it has."""
    if abs(x) >= 100:
        return "{:,.0f}".format(x)
    return "{:.3g}".format(x)


def markdown(path, subject="striped", value="rows_per_sec"):
    meta, rows = read(path)
    for run in meta.get("run", []):
        print("Run: `%s`\n" % run)
    for key in ("server", "machine"):
        for line in meta.get(key, []):
            print("%s: %s\n" % (key.capitalize(), line))
    for case in order(rows, "case"):
        cr = [r for r in rows if r["case"] == case]
        by = {}
        for r in cr:
            by.setdefault(r["generator"], {})[int(r["rep"])] = float(r[value])
        # the subject: a generator of that name, or the first whose name contains it
        subj = next((g for g in by if g == subject), next((g for g in by if subject in g), None))
        print("**%s**\n" % case)
        print("| generator | %s: median (min–max) | runs | %s / generator: ratio of medians (per-pair min–max) |"
              % (value, subject))
        print("|---|---:|---:|---:|")
        for g in order(cr, "generator"):
            med, lo, hi, n = spread(list(by[g].values()))
            ratio = ""
            if subj is not None and g != subj:
                pairs = [by[subj][i] / by[g][i] for i in by[g] if i in by[subj] and by[g][i] > 0]
                mine = median(list(by[subj].values()))
                if pairs and med > 0:
                    ratio = "%.2f× (%.2f–%.2f)" % (mine / med, min(pairs), max(pairs))
            print("| %s | %s (%s–%s) | %d | %s |" % (g, fmt(med), fmt(lo), fmt(hi), n, ratio))
        print()


def summary(path, keys, value):
    keys = keys.split(",")
    rows = read(path)[1]
    groups = {}
    for r in rows:
        groups.setdefault(tuple(r[k] for k in keys), []).append(float(r[value]))
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(keys + [value + "_median", value + "_min", value + "_max", "runs"])
    for k, v in groups.items():
        med, lo, hi, n = spread(v)
        out.writerow(list(k) + ["%.6g" % med, "%.6g" % lo, "%.6g" % hi, n])


def main():
    a = sys.argv[1:]
    if len(a) >= 2 and a[0] == "markdown":
        markdown(*a[1:4])
    elif len(a) == 4 and a[0] == "summary":
        summary(a[1], a[2], a[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
