#!/usr/bin/env python3
"""What plot.py sweep draws, read back from the matplotlib figure it builds (plots.sh runs it).

  sweep_figure.py REPO refused SWEEP.csv   the README's sweep with 500 and 600 jobs refused
  sweep_figure.py REPO broken SWEEP.csv    a hand-written sweep whose line is broken by a failed point

Prints FAIL lines for what does not hold; exit code 1 if any."""
import argparse
import math
import os
import sys

repo = sys.argv[1]
sys.path.insert(0, os.path.join(repo, "analysis"))
sys.path.insert(0, os.path.join(repo, "analysis", "plots"))
import python_interpreter  # noqa: E402

python_interpreter.require("matplotlib", "python3-matplotlib", "sweep_figure.py")
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from sweep_plot import sweep_plot  # noqa: E402

failures = []


def check(what, holds, detail=""):
    if not holds:
        failures.append(what)
        print(f"FAIL {what} {detail}")


def draw(csv_path, x):
    out = os.path.join(os.path.dirname(os.path.abspath(csv_path)), "sweep_figure.png")
    sweep_plot(argparse.Namespace(csv=csv_path, x=x, tolerance=0.05, baseline=None, out=out, label=None))
    return plt.gcf().axes[0]


def data_lines(ax):
    """Lines in data coordinates drawn solid with markers: the curves."""
    return [l for l in ax.get_lines()
            if l.get_transform() == ax.transData and l.get_linestyle() == "-" and l.get_marker() not in (None, "None", "")]


def foot_marks(ax, marker):
    """Marks drawn in axes coordinates along y (the failed points), as (x, colour)."""
    return sorted((x, l.get_color()) for l in ax.get_lines()
                  if l.get_marker() == marker and l.get_transform() != ax.transData for x in l.get_xdata())


def knee_lines(ax):
    return sorted(l.get_xdata()[0] for l in ax.get_lines()
                  if l.get_linestyle() == "--" and len(set(l.get_xdata())) == 1)


mode, csv_path = sys.argv[2], sys.argv[3]
if mode == "refused":
    ax = draw(csv_path, "/workload/jobs")
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    check("the x axis is named by the scenario key", ax.get_xlabel() == "jobs", repr(ax.get_xlabel()))
    check("each line is named by its key and value, with its knee",
          legend[:2] == ["latency = 5 ms: knee at 200", "latency = 20 ms: knee at 200"], legend)
    curves = data_lines(ax)
    colours = [l.get_color() for l in curves]
    # Past 300 jobs both latencies take the GPUs' time: the lines coincide, so they differ in marker.
    check("coinciding lines are told apart by their markers", len(curves) == 2 and len(
        {(l.get_marker(), str(l.get_markerfacecolor())) for l in curves}) == 2, [(l.get_marker(), l.get_markerfacecolor()) for l in curves])
    check("the 4 refused points are marked x, in their lines' colours, at 500 and 600 jobs",
          foot_marks(ax, "x") == sorted((x, c) for x in (500, 600) for c in colours), foot_marks(ax, "x"))
    failed = [t for t in legend if t.startswith("failed (4")]
    check("the legend gives the reason they failed", len(failed) == 1 and "expected at most 400" in failed[0].replace("\n", " "),
          legend)
    knees = knee_lines(ax)
    # Both knees are at 200 jobs: each dashed line within 1% of the x range (100 to 600) of it, apart.
    check("two equal knees are drawn apart, both near 200 jobs",
          len(knees) == 2 and knees[0] != knees[1] and all(abs(k - 200) < 5 for k in knees), knees)
elif mode == "broken":
    ax = draw(csv_path, "/a")
    first = data_lines(ax)[0]
    ys = list(first.get_ydata())
    # Points 1, 2 ok, 3 failed, 4, 5 ok: no segment from 2 to 4 across the failed point.
    check("a failed point breaks its line", len(ys) == 5 and math.isnan(ys[2]) and not any(math.isnan(y) for y in ys[:2]),
          ys)
    check("no knee is drawn past a failed point met within the tolerance", knee_lines(ax) == [], knee_lines(ax))
    bars = [c for c in ax.collections if len(c.get_segments()) > 0]
    check("error bars on the 2 points with a half-width, of it", len(bars) == 1 and sorted(
        round(abs(s[1][1] - s[0][1]) / 2, 6) for s in bars[0].get_segments()) == [1.5, 2.0],
          [c.get_segments() for c in bars])
sys.exit(1 if failures else 0)
