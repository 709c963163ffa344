"""plot.py sweep: mean per-event time against a swept parameter, one line per combination of the
other swept axes, with each line's knee (plot.py's docstring says how it is read)."""
import csv
import os
import re

import matplotlib.pyplot as plt

from plot_input import fail, number, read_csv

# Units a swept value may carry, to its number in the unit of the axis label (what the scenario
# format takes: scenarios/README.md, "Units").
UNIT_SUFFIX = re.compile(r"^([-+0-9.eE]+)\s*([A-Za-z/]*)$")


def sweep_axes(header):
    """The swept JSON pointers: sweep.csv's columns between "point" and "status"."""
    return header[header.index("point") + 1:header.index("status")]


def axis_values(path, rows, axis):
    """The numbers of a swept axis, and the unit its values share ("" for bare numbers)."""
    values, units = [], set()
    for line, r in rows:
        m = UNIT_SUFFIX.match(r[axis].strip())
        if not m:
            fail(f'{path}: line {line}, column "{axis}": expected a number, with or without a unit, got "{r[axis]}"')
        values.append(number(path, line, axis, m.group(1)))
        units.add(m.group(2))
    if len(units) > 1:
        fail(f'{path}: column "{axis}": its values mix units ({", ".join(sorted(units))}); sweep it in one unit')
    return values, units.pop() if units else ""


def point_time(path, line, r):
    """A point's mean per-event time and its 95% half-width: the steady-state mean where the run has
    an interval, else the whole run's mean (no half-width)."""
    steady, half = r.get("steady_event_time_mean_s", ""), r.get("steady_event_time_half_width_s", "")
    if steady and half:
        return number(path, line, "steady_event_time_mean_s", steady), number(path, line, "steady_event_time_half_width_s", half)
    return number(path, line, "event_time_mean_s", r["event_time_mean_s"]), None


def knee_of(points, limit_s):
    """Where the line leaves the tolerance: rising along x (more load), the largest x up to which every
    point is within; falling (more capacity), the smallest x from which every point is within."""
    rising = points[-1][1] >= points[0][1]
    ordered = points if rising else list(reversed(points))
    knee = None
    for x, y, _ in ordered:
        if y > limit_s:
            break
        knee = x
    return knee, rising


def sweep_plot(args):
    try:
        with open(args.csv, newline="") as f:
            header = next(csv.reader(f), [])
    except OSError as e:
        fail(f"{args.csv}: {e.strerror}")
    if "point" not in header or "status" not in header:
        fail(f"{args.csv}: line 1: expected a sweep.csv header (point, the swept pointers, status, ...)")
    axes = sweep_axes(header)
    if args.x not in axes:
        fail(f"{args.csv}: --x {args.x} is not a swept pointer (the sweep's axes: {', '.join(axes)})")
    rows = [(line, r) for line, r in enumerate(read_csv(args.csv, ["status", "event_time_mean_s"]), start=2)
            if r["status"] == "ok"]
    if not rows:
        fail(f"{args.csv}: no finished points")
    xs, unit = axis_values(args.csv, rows, args.x)
    # One line per combination of the other axes that vary; an axis with one value is a setting.
    others = [a for a in axes if a != args.x and len({r[a] for _, r in rows}) > 1]
    lines = {}
    for (line, r), x in zip(rows, xs):
        y, half = point_time(args.csv, line, r)
        lines.setdefault(tuple(r[a] for a in others), []).append((x, y, half))
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    def numeric(key):  # lines in the order of their values, numbers as numbers
        return [(0, float(m.group(1)), v) if (m := UNIT_SUFFIX.match(v.strip())) else (1, 0.0, v) for v in key]

    for key, points in sorted(lines.items(), key=lambda item: numeric(item[0])):
        points.sort()
        label = ", ".join(f"{a} = {v}" for a, v in zip(others, key))
        reference = args.baseline if args.baseline is not None else min(y for _, y, _ in points)
        limit = (1 + args.tolerance) * reference
        knee, rising = knee_of(points, limit)
        bars = [h if h is not None else 0 for _, _, h in points]
        drawn = ax.errorbar([p[0] for p in points], [p[1] for p in points], yerr=bars if any(bars) else None,
                            fmt="o-", capsize=3, label=label or "mean per-event time")
        colour = drawn[0].get_color()
        ax.axhline(limit, color=colour, ls=":", lw=1)
        if knee is not None:
            ax.axvline(knee, color=colour, ls="--", lw=1)
        where = f" for {label}" if label else ""
        if knee is None:
            print(f"{args.out}: no point within {100 * args.tolerance:g}% of the reference{where}")
        else:
            kind = "largest" if rising else "smallest"
            print(f"{args.out}: knee at {args.x} = {knee:g}{unit}{where} ({kind} value within {100 * args.tolerance:g}% "
                  f"of {reference:.4g} s)")
    reference_text = f"{args.baseline:g} s" if args.baseline is not None else "each line's best point"
    ax.set_xlabel(args.x + (f" ({unit})" if unit else ""))
    ax.set_ylabel("mean per-event time (s)")
    ax.set_title(f"{os.path.basename(os.path.dirname(os.path.abspath(args.csv))) or 'sweep'}: dotted, "
                 f"{100 * args.tolerance:g}% above {reference_text}; dashed, the knee", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
