#!/usr/bin/env python3
"""scripts/monitoring_plot.py -- draw the dashboard's series, as Prometheus'
query API returned them to scripts/test-monitoring.sh, into one PNG.

    OU_MONITORING_SAVE=/tmp/mon.json scripts/test-monitoring.sh
    scripts/monitoring_plot.py /tmp/mon.json doc/monitoring

One small chart per dashboard panel of monitoring/ordered_uuid_dashboard.json (its
title, its legend, its unit), time in seconds since the test's start; writes
OUT_BASENAME.png and OUT_BASENAME.svg (the docs embed the SVG).  Needs
matplotlib: bench/plot_env.py installs it into a virtualenv of the cache when
it is missing.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))
from plot_env import pyplot  # noqa: E402

plt = pyplot("monitoring_plot.py")

UNITS = {"ops": "per second", "Bps": "bytes per second", "bytes": "bytes",
         "percentunit": "fraction", "short": "", "none": ""}


def legend(fmt, metric):
    return re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: metric.get(m.group(1), ""), fmt) or str(metric)


def main():
    src, out = sys.argv[1], sys.argv[2]
    data = json.load(open(src))
    panels = {}
    for t in data["panels"]:
        panels.setdefault(t["panel"], []).append(t)
    names = [p for p in panels if p not in ("Collector worker", "Worker restarts (1 h)")]
    cols = 2
    rows = (len(names) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(13, 3.2 * rows), squeeze=False)
    for ax, name in zip(axes.flat, names):
        for t in panels[name]:
            for s in t["result"]:
                xs = [float(v[0]) - data["start"] for v in s["values"]]
                ys = [float(v[1]) for v in s["values"]]
                ax.plot(xs, ys, label=legend(t["legend"], s["metric"]), linewidth=1.2)
        ax.set_title(name.replace("$topn", "10"), fontsize=10)
        ax.set_ylabel(UNITS.get(panels[name][0]["unit"], ""), fontsize=8)
        ax.set_xlabel("seconds since start", fontsize=8)
        ax.tick_params(labelsize=7)
        handles, labels = ax.get_legend_handles_labels()
        if handles:
            # the ten highest series (a top-N panel's topk keeps series
            # whose rate is 0 too)
            order = sorted(range(len(handles)), key=lambda i: -max(handles[i].get_ydata(), default=0))[:10]
            ax.legend([handles[i] for i in order], [labels[i] for i in order], fontsize=6, loc="upper left")
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    fig.suptitle("ordered_uuid dashboard queries through Prometheus' query_range "
                 "(S1 random-key inserts with two checkpoints, then S2: four sessions queued on one "
                 "extension lock, twice;\nbefore them, 300 tables written and dropped)",
                 fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    for ext in ("png", "svg"):
        fig.savefig(f"{out}.{ext}", dpi=90)
        print(f"{out}.{ext}")


main()
