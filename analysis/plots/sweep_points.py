"""sweep.csv read for plot.py sweep: every point, finished or failed, placed on its line (one per
combination of the other swept axes), and the names the axes go by in the figure."""
import csv
import os
import re

from plot_input import fail, number

# A swept value's number and unit ("20ms" -> 20, "ms"); the scenario format's units
# (scenarios/README.md, "Units").
UNIT_SUFFIX = re.compile(r"^([-+0-9.eE]+)\s*([A-Za-z/]*)$")


class Point:
    """One row of sweep.csv: x (None where its value is no number), y and the 95% half-width (None
    where the run has no steady-state interval), or, for a failed point, its error."""

    def __init__(self, row_line, x, raw_x, ok, y=None, half=None, steady=False, error="", events=None, cut=None):
        self.line, self.x, self.raw_x, self.ok = row_line, x, raw_x, ok
        self.y, self.half, self.steady, self.error = y, half, steady, error
        self.events, self.cut = events, cut


def sweep_axes(header):
    """The swept JSON pointers: sweep.csv's columns between "point" and "status"."""
    return header[header.index("point") + 1:header.index("status")]


def pointer_segments(pointer):
    """A JSON pointer's reference tokens, unescaped (RFC 6901: ~1 is "/", ~0 is "~")."""
    return [s.replace("~1", "/").replace("~0", "~") for s in pointer.split("/")[1:]]


def short_names(axes, given):
    """Each axis's name in the figure: its --label, else its pointer's last segment, with more
    segments before it until no two axes share a name ("count" of servers 0 and 1:
    "servers/0/count", "servers/1/count")."""
    names, depth = {}, {a: 1 for a in axes}
    while True:
        for a in axes:
            segments = pointer_segments(a) or [a]
            names[a] = given.get(a) or "/".join(segments[-depth[a]:])
        clashes = [a for a in axes if a not in given and list(names.values()).count(names[a]) > 1
                   and depth[a] < len(pointer_segments(a))]
        if not clashes:
            return names
        for a in clashes:  # an array index alone names nothing: take the key before it too
            depth[a] += 1
            segments = pointer_segments(a)
            if segments[-depth[a]].isdigit() and depth[a] < len(segments):
                depth[a] += 1


def value_text(raw):
    """A swept value as the legend says it: "20ms" as "20 ms"."""
    m = UNIT_SUFFIX.match(raw.strip())
    return f"{m.group(1)} {m.group(2)}" if m and m.group(2) else raw


def read_header(path):
    if os.path.isdir(path):
        path = os.path.join(path, "sweep.csv")
    try:
        with open(path, newline="") as f:
            header = next(csv.reader(f), [])
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    if "point" not in header or "status" not in header:
        fail(f"{path}: line 1: expected a sweep.csv header (point, the swept pointers, status, ...)")
    return path, header


def choose_x(path, axes, names, x):
    """--x as a pointer or an axis's name; without it, the first axis with more than one value."""
    if x is None:
        return None
    if x in axes:
        return x
    by_name = [a for a in axes if names[a] == x]
    if len(by_name) == 1:
        return by_name[0]
    fail(f"{path}: --x {x} is not a swept pointer (the sweep's axes: {', '.join(axes)})")


def x_values(path, rows, axis):
    """Each row's number on the x axis (None where a failed point's value is none), and the unit they share."""
    values, units = [], set()
    for line, r in rows:
        m = UNIT_SUFFIX.match(r[axis].strip())
        if not m:
            if r["status"] == "ok":
                fail(f'{path}: line {line}, column "{axis}": expected a number, with or without a unit, got "{r[axis]}"')
            values.append(None)
            continue
        values.append(number(path, line, axis, m.group(1)))
        units.add(m.group(2))
    if len(units) > 1:
        fail(f'{path}: column "{axis}": its values mix units ({", ".join(sorted(units))}); sweep it in one unit')
    return values, units.pop() if units else ""


def optional(path, line, r, column):
    text = r.get(column, "")
    return number(path, line, column, text) if text else None


def point_of(path, line, r, x):
    """A row as a Point: the steady-state mean and its half-width where the run has an interval,
    else the whole run's mean."""
    if r["status"] != "ok":
        return Point(line, x, None, False, error=r.get("error", "") or "no reason recorded")
    steady, half = optional(path, line, r, "steady_event_time_mean_s"), optional(path, line, r, "steady_event_time_half_width_s")
    events, cut = optional(path, line, r, "events"), optional(path, line, r, "warmup_cut_events")
    if steady is not None and half is not None:
        return Point(line, x, None, True, steady, half, True, events=events, cut=cut)
    return Point(line, x, None, True, number(path, line, "event_time_mean_s", r["event_time_mean_s"]), events=events, cut=cut)


def read_sweep(path, x, labels):
    """(path, x axis, other varying axes, names, unit of x, {line key: [Point]}): every row on its line."""
    path, header = read_header(path)
    axes = sweep_axes(header)
    unknown = [a for a in labels if a not in axes]
    if unknown:
        fail(f"{path}: --label {unknown[0]}=...: not a swept pointer (the sweep's axes: {', '.join(axes)})")
    names = short_names(axes, labels)
    if "event_time_mean_s" not in header:
        fail(f"{path}: line 1: expected the column event_time_mean_s")
    with open(path, newline="") as f:
        rows = list(enumerate(csv.DictReader(f), start=2))
    for line, r in rows:
        if r.get("status") == "ok" and not r.get("event_time_mean_s"):
            fail(f'{path}: line {line}, column "event_time_mean_s": expected a number for a finished point')
    if not rows:
        fail(f"{path}: no points")
    x = choose_x(path, axes, names, x) or next((a for a in axes if len({r[a] for _, r in rows}) > 1), axes[0] if axes else None)
    if x is None:
        fail(f"{path}: the sweep has no axes to draw along")
    xs, unit = x_values(path, rows, x)
    # One line per combination of the other axes that vary; an axis with one value is a setting.
    others = [a for a in axes if a != x and len({r[a] for _, r in rows}) > 1]
    lines = {}
    for (line, r), xv in zip(rows, xs):
        p = point_of(path, line, r, xv)
        p.raw_x = r[x]
        jobs = UNIT_SUFFIX.match(r.get("/workload/jobs", "").strip())  # per-job counts, where jobs are swept
        p.jobs = float(jobs.group(1)) if jobs and not jobs.group(2) else None
        lines.setdefault(tuple(r[a] for a in others), []).append(p)
    return path, x, others, names, unit, lines


def line_order(key):
    """Lines in the order of their values, numbers as numbers."""
    return [(0, float(m.group(1)), v) if (m := UNIT_SUFFIX.match(v.strip())) else (1, 0.0, v) for v in key]
