"""bench/plot_env.py -- matplotlib for the chart scripts (bench/plot.py,
scripts/monitoring_plot.py).

    from plot_env import pyplot
    plt = pyplot("plot.py")

When matplotlib is missing, makes a virtualenv under $OU_CACHE/plot-venv (the
repository's .cache/plot-venv without OU_CACHE), installs matplotlib from PyPI
into it and re-runs the calling script there.  Returns matplotlib.pyplot with
the Agg backend (no display needed).
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(os.environ.get("OU_CACHE", os.path.join(ROOT, ".cache")), "plot-venv")


def pyplot(script):
    """matplotlib.pyplot, re-running the script in the plot venv if needed."""
    try:
        import matplotlib
    except ImportError:
        if os.environ.get("OU_PLOT_REEXEC"):
            sys.exit(f"{script}: matplotlib is still missing in {VENV}")
        py = os.path.join(VENV, "bin", "python")
        if not os.path.exists(py):
            print("==> installing matplotlib into " + VENV, file=sys.stderr)
            subprocess.check_call([sys.executable, "-m", "venv", VENV])
            subprocess.check_call([py, "-m", "pip", "install", "-q", "matplotlib"])
        os.environ["OU_PLOT_REEXEC"] = "1"
        os.execv(py, [py] + sys.argv)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt
