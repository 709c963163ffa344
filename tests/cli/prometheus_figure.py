#!/usr/bin/env python3
"""What plot.py prometheus draws of an export, read back from the matplotlib figure (plots.sh runs it):
the times drawn whole, those drawn from some series only (hollow), and those with no value (ticks at
the foot, not drawn).

  prometheus_figure.py REPO RUN_DIR EXPORT WHOLE PARTIAL NO_VALUE

WHOLE and PARTIAL are T:VALUE lists, NO_VALUE a T list (seconds from the export's first sample;
"-" for none). Prints FAIL lines for what does not hold; exit code 1 if any."""
import argparse
import os
import sys

repo = sys.argv[1]
sys.path.insert(0, os.path.join(repo, "analysis"))
sys.path.insert(0, os.path.join(repo, "analysis", "plots"))
import python_interpreter  # noqa: E402

python_interpreter.require("matplotlib", "python3-matplotlib", "prometheus_figure.py")
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from plot_input import fail  # noqa: E402
from prometheus_plot import prometheus_plot  # noqa: E402

run_dir, export, whole, partial, no_value = sys.argv[2:7]
pairs = lambda text: [] if text == "-" else [tuple(float(v) for v in p.split(":")) for p in text.split(",")]
times = lambda text: [] if text == "-" else [float(t) for t in text.split(",")]
out = os.path.join(run_dir, "prometheus_figure.png")
prometheus_plot(argparse.Namespace(output_dir=run_dir, exports=[export], start=None, out=out), plt, fail)
ax = plt.gcf().axes[0]
measured = [l for l in ax.get_lines() if l.get_transform() == ax.transData and l.get_marker() in (".", "o")]
drawn = lambda hollow: sorted((float(x), round(float(y), 6)) for l in measured
                              if (l.get_markerfacecolor() == "none") == hollow for x, y in zip(l.get_xdata(), l.get_ydata()))
ticks = sorted(float(x) for l in ax.get_lines() if l.get_transform() != ax.transData for x in l.get_xdata())
failures = 0
for what, got, expected in [("drawn whole", drawn(False), pairs(whole)), ("drawn hollow", drawn(True), pairs(partial)),
                            ("no value, ticks at the foot", ticks, times(no_value))]:
    if got != expected:
        print(f"FAIL {export}: {what}: {got}, expected {expected}")
        failures += 1
sys.exit(1 if failures else 0)
