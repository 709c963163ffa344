"""plot.py sweep: mean per-event time against a swept parameter, one line per combination of the
other swept axes, with each line's knee (plot.py's docstring says how it is read). Failed points are
marked at the axis's foot, never dropped; the terminal says what the figure cannot."""
import os
import re
import textwrap

import matplotlib.pyplot as plt
from matplotlib.patches import Rectangle
from matplotlib.transforms import blended_transform_factory

from sweep_knee import knee_of, knee_offsets, why_no_intervals
from sweep_points import line_order, read_sweep, value_text

FAILED_MARKERS = ["x", "+", "1", "*", "3", "X"]  # one per reason, cycled
# Lines that coincide (past a shared saturation) must all show: the first line's points filled and
# small, the others' hollow, larger and each of another shape.
LINE_MARKERS = ["o", "s", "^", "D", "v", "p"]
# Failed points are marked in a grey strip at the foot of the axes, a row per line (fractions of
# the axes' height), so that marks of equal x on several lines all show.
FAILED_ROW, FAILED_ROW_HEIGHT = 0.03, 0.035


def reason_text(error):
    """A failure's reason without the scenario file's name it starts with (the same for every point)."""
    return re.sub(r"^[^:]*\.(json|yaml|yml): ", "", error)


def x_list(points, unit):
    values = [p.raw_x for p in sorted(points, key=lambda p: p.x)]
    shown = ", ".join(value_text(v) if unit else v for v in values[:8])
    return shown + (f" and {len(values) - 8} more" if len(values) > 8 else "")


def knee_words(knee, x_name, unit, tolerance, reference, where):
    """(terminal sentence, legend words) of a line's knee; `where` names the line (" for ...")."""
    at = lambda x: f"{x:g}{' ' + unit if unit else ''}"
    within = f"{100 * tolerance:g}%"
    if knee.blocked_by is not None:
        failed = f"{x_name} = {value_text(knee.blocked_by.raw_x)}"
        if knee.within_to is None:
            return f"no knee{where}: the first point, at {failed}, failed", "no knee: its first point failed"
        return (f"no knee{where}: within {within} up to {x_name} = {at(knee.within_to)}, then the point at {failed} failed; "
                f"the knee lies past {at(knee.within_to)}, not known where",
                f"knee not known: failed at {value_text(knee.blocked_by.raw_x)}")
    if knee.x is None:
        return f"no point within {within} of the reference{where}", f"no point within {within}"
    beyond = "; every point is within, so the knee may lie past the sweep's end" if knee.at_end else ""
    kind = "largest" if knee.rising else "smallest"
    return (f"knee at {x_name} = {at(knee.x)}{where} ({kind} value within {within} of {reference:.4g} s{beyond})",
            f"knee at {at(knee.x)}" + (", the sweep's end: every point within" if knee.at_end else ""))


def draw_line(ax, points, colour, nth, label, args, x_name, unit, say):
    """One line of finished points, broken where a point failed, its tolerance and its knee (returned)."""
    ok = [p for p in points if p.ok]
    where = f" for {label}" if label else ""
    reference = args.baseline if args.baseline is not None else min(p.y for p in ok)
    limit = (1 + args.tolerance) * reference
    knee = knee_of(points, limit)
    sentence, legend = knee_words(knee, x_name, unit, args.tolerance, reference, where)
    say(sentence)
    # A failed point breaks the line (NaN): no segment is drawn across a point that has no value.
    ax.plot([p.x for p in points], [p.y if p.ok else float("nan") for p in points], "-", color=colour,
            marker=LINE_MARKERS[nth % len(LINE_MARKERS)], markersize=5 if nth == 0 else 9,
            markerfacecolor=colour if nth == 0 else "none", label=f"{label or 'mean per-event time'}: {legend}")
    bars = [p for p in ok if p.half is not None]
    if bars:
        ax.errorbar([p.x for p in bars], [p.y for p in bars], yerr=[p.half for p in bars], fmt="none",
                    ecolor=colour, capsize=3)
    ax.axhline(limit, color=colour, ls=":", lw=1)
    return knee.x


def draw_knees(ax, knees, span, x_name, unit, say):
    """Each line's knee as a dashed line in its colour; equal knees side by side, so that each shows."""
    shifts = knee_offsets({key: x for key, (x, _, _) in knees.items()}, span)
    equal = {}
    for key, (x, colour, label) in knees.items():
        if x is not None:
            ax.axvline(x + shifts[key], color=colour, ls="--", lw=1.2)
            equal.setdefault(x, []).append(label)
    for x, labels in equal.items():
        if len(labels) > 1:
            say(f"equal knees at {x_name} = {x:g}{' ' + unit if unit else ''} ({'; '.join(labels)}): their dashed lines "
                "are drawn side by side so that each shows")


def sweep_plot(args):
    path, x, others, names, unit, lines = read_sweep(args.csv, args.x, dict(args.label or []))
    say = lambda text: print(f"{args.out}: {text}")
    x_name = names[x]
    if args.x is None:
        say(f"x: {x} (the first axis with more than one value; --x picks another)")
    fig, ax = plt.subplots(figsize=(8.5, 5.2))
    placed = [p.x for points in lines.values() for p in points if p.x is not None]
    failed_by_reason, knees, ok_points, failed_rows = {}, {}, [], {}
    for i, key in enumerate(sorted(lines, key=line_order)):
        points, colour = sorted((p for p in lines[key] if p.x is not None), key=lambda p: p.x), f"C{i % 10}"
        label = ", ".join(f"{names[a]} = {value_text(v)}" for a, v in zip(others, key))
        for p in lines[key]:
            if not p.ok:  # each line with failed points gets its own row of the strip
                row = failed_rows.setdefault(key, len(failed_rows))
                failed_by_reason.setdefault(p.error, []).append((p, colour, label, row))
        ok = [p for p in points if p.ok]
        ok_points += ok
        if ok:
            knees[key] = (draw_line(ax, points, colour, i, label, args, x_name, unit, say), colour, label)
        else:
            say(f"every point{' for ' + label if label else ''} failed: only their marks are drawn")
            ax.plot([], [], "s", color=colour, label=f"{label or 'mean per-event time'}: every point failed")
    draw_knees(ax, knees, (max(placed) - min(placed)) if placed else 0, x_name, unit, say)
    if failed_by_reason:
        strip = FAILED_ROW + len(failed_rows) * FAILED_ROW_HEIGHT
        keep_above(ax, min((p.y - (p.half or 0) for p in ok_points), default=None), strip + 0.02)
        ax.add_patch(Rectangle((0, 0), 1, strip, transform=ax.transAxes, color="0.92", zorder=0, lw=0))
        mark_failed(ax, failed_by_reason, x_name, unit, say)
    say_intervals(ok_points, say)
    reference_text = f"{args.baseline:g} s" if args.baseline is not None else "each line's best point"
    ax.set_xlabel(x_name + (f" ({unit})" if unit else ""))
    ax.set_ylabel("mean per-event time (s)")
    ax.set_title(f"{os.path.basename(os.path.dirname(os.path.abspath(path))) or 'sweep'}: dotted, "
                 f"{100 * args.tolerance:g}% above {reference_text}; dashed, the knee", fontsize=9)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7.5)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)


def keep_above(ax, data_low, fraction):
    """Lowers the y axis's foot so that the data, from `data_low` up, lie above `fraction` of the axes' height."""
    low, high = ax.get_ylim()
    if data_low is not None and (data_low - low) / (high - low) < fraction:
        ax.set_ylim((data_low - fraction * high) / (1 - fraction), high)


def mark_failed(ax, failed_by_reason, x_name, unit, say):
    """Each failed point as a mark at the foot of the axes in its line's colour, one marker per
    reason, with the reason in the legend and on the terminal."""
    foot = blended_transform_factory(ax.transData, ax.transAxes)  # x in data, y in the axes' height
    for n, (error, failed) in enumerate(failed_by_reason.items()):
        marker = FAILED_MARKERS[n % len(FAILED_MARKERS)]
        for colour, row in dict.fromkeys((c, r) for _, c, _, r in failed):
            xs = [p.x for p, c, _, _ in failed if c == colour and p.x is not None]
            y = FAILED_ROW + (row + 0.5) * FAILED_ROW_HEIGHT
            ax.plot(xs, [y] * len(xs), marker, color=colour, ms=8, mew=2, ls="none", transform=foot, clip_on=False)
        reason = reason_text(error)
        unplaced = [p for p, _, _, _ in failed if p.x is None]
        drawn = len(failed) - len(unplaced)
        where_drawn = "grey strip" if not unplaced else f"{drawn} in the grey strip, {len(unplaced)} not placed"
        ax.plot([], [], marker, color="black", ms=8, mew=2, ls="none",
                label="\n".join(textwrap.wrap(f"failed ({len(failed)}; {where_drawn}): "
                                               + textwrap.shorten(reason, 240, placeholder=" ..."), 58)))
        by_line = {}
        for p, _, label, _ in failed:
            by_line.setdefault(label, []).append(p)
        parts = []
        for label, ps in by_line.items():
            placed = [p for p in ps if p.x is not None]
            at = f"{x_name} = {x_list(placed, unit)}" if placed else ""
            parts.append(" for ".join(part for part in (at, label) if part))
        where = "; ".join(part for part in parts if part)
        marked = f"marked {marker!r} in the grey strip at the foot"
        marked = "" if not drawn else f", {drawn} {marked}" if unplaced else f", {marked}"
        say(f"{len(failed)} failed point{'s' if len(failed) > 1 else ''}{marked}" + (f" ({where})" if where else "")
            + f": {reason}" + (f"; not placed: {len(unplaced)}, as {x_name} = {', '.join(p.raw_x for p in unplaced)} "
                               "is no number" if unplaced else ""))


def say_intervals(points, say):
    """Error bars where the points have 95% intervals, and why not where they have none."""
    without = [p for p in points if p.half is None]
    if not points or not without:
        if points:
            say("error bars: 95% intervals of the steady-state mean per-event time")
        return
    why = why_no_intervals(without, lambda p: p.jobs)
    if len(without) == len(points):
        say(f"no error bars: no point has a steady-state 95% interval (steady_event_time_half_width_s is empty): {why}")
    else:
        say(f"error bars on {len(points) - len(without)} of {len(points)} points; the other {len(without)} have no "
            f"steady-state 95% interval and show the whole run's mean: {why}")
