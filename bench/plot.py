#!/usr/bin/env python3
"""bench/plot.py -- chart an S1 CSV of bench/run.sh or a CSV of bench/scaling.sh.

    bench/plot.py bench/results/s1-pg18.csv [OUT_BASENAME]
    bench/plot.py --markdown bench/results/s1-pg18.csv   (a table instead)

S1: two panels against table size, one line per generator: rows/s (pgbench
tps, one row per transaction) and WAL bytes per inserted row.  Scaling: one
panel per variant (memory, disk), tps against the number of clients: with
repeated runs of a point (the column rep) the median, with a bar from the
slowest to the fastest run, and the runs in the legend.  Writes
OUT_BASENAME.png and OUT_BASENAME.svg (default: next to the CSV).  The title
carries the PostgreSQL version, the machine and the settings from the CSV's
'# ' header lines.

Needs matplotlib: when it is missing, the script makes a virtualenv under
.cache/plot-venv of the repository, installs matplotlib from PyPI into it and
re-runs itself there.
"""
import os
import sys

from plot_env import pyplot

plt = pyplot("plot.py")
from spread import order, read, spread  # noqa: E402
import matplotlib.ticker  # noqa: E402

# fixed colours/styles so that every chart reads the same way
STYLE = {
    "random": ("tab:red", "o", "gen_random_uuid()"),
    "time": ("tab:blue", "s", "uuid_time_nextval()"),
    "sequence": ("tab:green", "^", "uuid_sequence_nextval(seq)"),
    "v7": ("tab:purple", "D", "uuid_v7_nextval()"),
    "uuidv7": ("tab:pink", "v", "uuidv7() (core, PG 18)"),
    "bigint": ("black", "x", "bigint identity"),
    "sequence_cache": ("tab:olive", "<", "uuid_sequence_nextval(seq CACHE 64)"),
    "striped": ("tab:orange", "*", "uuid_striped_nextval()"),
}


def s1_points(rows):
    """{(step, generator): (first table_rows, rows/s spread, median WAL bytes/row)} of an S1 CSV;
    a step's repeated runs (the column rep) make one point."""
    runs = {}
    for r in rows:
        runs.setdefault((int(r["step"]), r["generator"]), []).append(r)
    return {k: (min(int(r["table_rows"]) for r in v),
                spread([float(r["rows_per_sec"]) for r in v]),
                spread([float(r["wal_bytes_per_row"]) for r in v])[0]) for k, v in runs.items()}


def markdown(rows):
    """Print rows/s (the median, with min–max when a step ran more than once) and WAL bytes/row
    per table size and generator as a markdown table."""
    gens, sizes = order(rows, "generator"), sorted({int(r["step"]) for r in rows})
    cell = s1_points(rows)
    names = [STYLE.get(g, (None, None, g))[2] for g in gens]
    print("| rows in table | " + " | ".join(names) + " |")
    print("|---:|" + "---:|" * len(gens))
    for step in sizes:
        first = next(cell[(step, g)] for g in gens if (step, g) in cell)
        out = []
        for g in gens:
            p = cell.get((step, g))
            if p is None:
                out.append("")
                continue
            rate = "%.0f" % p[1][0] + (" (%.0f–%.0f)" % (p[1][1], p[1][2]) if p[1][3] > 1 else "")
            out.append("%s rows/s, %.0f B/row" % (rate, p[2]))
        print("| %.2fM | %s |" % (first[0] / 1e6, " | ".join(out)))


def is_scaling(rows):
    return bool(rows) and "variant" in rows[0] and "clients" in rows[0]


def tps_spread(vr):
    """{(generator, clients): (median, min, max, runs)} of the tps of a variant's runs."""
    runs = {}
    for r in vr:
        runs.setdefault((r["generator"], int(r["clients"])), []).append(float(r["tps"]))
    return {k: spread(v) for k, v in runs.items()}


def markdown_scaling(rows):
    """Print the median tps per generator and client count (with its minimum and maximum when a
    point ran more than once), with the ratio of the medians to gen_random_uuid(), per variant."""
    for variant in order(rows, "variant"):
        vr = [r for r in rows if r["variant"] == variant]
        clients = sorted({int(r["clients"]) for r in vr})
        tps = tps_spread(vr)
        runs = max(s[3] for s in tps.values())
        print("\n%s (%s):\n" % (variant, "median of %d runs (min–max)" % runs if runs > 1 else "one run"))
        print("| key default | " + " | ".join("%d" % c for c in clients) + " | leaf density |")
        print("|---|" + "---:|" * (len(clients) + 1))
        for g in order(vr, "generator"):
            cells = []
            for c in clients:
                t, base = tps.get((g, c)), tps.get(("random", c))
                cell = "" if t is None else "%.0f" % t[0]
                if t is not None and t[3] > 1:
                    cell += " (%.0f–%.0f)" % (t[1], t[2])
                if t is not None and base:
                    cell += " %.2f×" % (t[0] / base[0])
                cells.append(cell)
            dens = [r["avg_leaf_density"] for r in vr if r["generator"] == g and r["avg_leaf_density"]]
            print("| %s | %s | %s |" % (STYLE.get(g, (None, None, g))[2], " | ".join(cells),
                                          "%s %%" % dens[-1] if dens else ""))


def plot_scaling(meta, rows, out):
    variants = order(rows, "variant")
    fig, axes = plt.subplots(1, len(variants), figsize=(6.5 * len(variants), 5.2), squeeze=False)
    for ax, variant in zip(axes[0], variants):
        vr = [r for r in rows if r["variant"] == variant]
        tps = tps_spread(vr)
        for g in order(vr, "generator"):
            pts = sorted((c, s) for (gg, c), s in tps.items() if gg == g)
            colour, marker, label = STYLE.get(g, (None, ".", g))
            x = [p[0] for p in pts]
            med = [p[1][0] for p in pts]
            err = [[p[1][0] - p[1][1] for p in pts], [p[1][2] - p[1][0] for p in pts]]
            runs = max(p[1][3] for p in pts)
            ax.errorbar(x, med, yerr=err if runs > 1 else None, marker=marker, color=colour, capsize=3,
                         label=label + (" (median of %d, min–max)" % runs if runs > 1 else ""))
        ax.set_xscale("log", base=2)
        ax.set_xticks(sorted({int(r["clients"]) for r in vr}))
        ax.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
        ax.set_xlabel("pgbench clients")
        ax.set_ylabel("tps (single-row INSERT transactions)")
        ax.set_title({"memory": "in memory: a fresh table per point",
                      "disk": "larger than shared_buffers: steady state, checkpoints"}.get(variant, variant))
    axes[0][0].legend(title="primary-key default", fontsize=8)
    server = meta.get("server", ["PostgreSQL ?"])[0].split(" (")[0]
    machine = meta.get("machine", ["unknown machine"])[0]
    fig.suptitle("ordered_uuid scaling (pgbench): %s -- %s" % (server, machine), fontsize=11)
    fig.text(0.5, 0.01, meta.get("run", [""])[0][:220], ha="center", fontsize=7, color="dimgray")
    fig.tight_layout(rect=(0, 0.03, 1, 0.95))
    for ext in ("png", "svg"):
        fig.savefig("%s.%s" % (out, ext), dpi=110)
    print("wrote %s.png and %s.svg" % (out, out))


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--markdown":
        rows = read(sys.argv[2])[1]
        if is_scaling(rows):
            markdown_scaling(rows)
        else:
            markdown(rows)
        return
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.splitext(path)[0]
    meta, rows = read(path)
    if is_scaling(rows):
        plot_scaling(meta, rows, out)
        return
    if not rows or "rows_per_sec" not in rows[0]:
        sys.exit("plot.py: %s is not an S1 CSV of bench/run.sh" % path)

    gens = []
    for r in rows:
        if r["generator"] not in gens:
            gens.append(r["generator"])

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5.2))
    points = s1_points(rows)
    for g in gens:
        pts = sorted(p for (step, gg), p in points.items() if gg == g)
        colour, marker, label = STYLE.get(g, (None, ".", g))
        x = [p[0] / 1e6 for p in pts]
        runs = max(p[1][3] for p in pts)
        err = [[p[1][0] - p[1][1] for p in pts], [p[1][2] - p[1][0] for p in pts]]
        ax1.errorbar(x, [p[1][0] for p in pts], yerr=err if runs > 1 else None, marker=marker,
                     color=colour, capsize=3, label=label + (" (median of %d, min–max)" % runs if runs > 1 else ""))
        ax2.plot(x, [p[2] for p in pts], marker=marker, color=colour, label=label)

    clients = rows[0]["clients"]
    seconds = rows[0]["seconds"]
    ax1.set_title("insert throughput (%s clients, %s s per point)" % (clients, seconds))
    ax1.set_xlabel("rows already in the table (millions)")
    ax1.set_ylabel("rows/s (single-row INSERT transactions)")
    ax1.set_ylim(bottom=0)
    ax2.set_title("WAL written per inserted row (CHECKPOINT before each point)")
    ax2.set_xlabel("rows already in the table (millions)")
    ax2.set_ylabel("WAL bytes per row")
    ax2.set_ylim(bottom=0)
    for ax in (ax1, ax2):
        ax.grid(True, alpha=0.3)
    ax1.legend(title="primary-key default", fontsize=9)

    server = meta.get("server", ["PostgreSQL ?"])[0].split(" (")[0]
    machine = meta.get("machine", ["unknown machine"])[0]
    settings = meta.get("settings", [""])[0]
    fig.suptitle("ordered_uuid S1 (pgbench): %s -- %s" % (server, machine), fontsize=11)
    fig.text(0.5, 0.01, settings, ha="center", fontsize=7.5, color="dimgray")
    fig.tight_layout(rect=(0, 0.03, 1, 0.95))
    for ext in ("png", "svg"):
        fig.savefig("%s.%s" % (out, ext), dpi=110)
    print("wrote %s.png and %s.svg" % (out, out))


if __name__ == "__main__":
    main()
