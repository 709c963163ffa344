"""The knee of one line of plot.py sweep, and what the figure says about its points' intervals."""


class Knee:
    """Where a line leaves the tolerance. x: the knee (None if there is none to draw); rising: time
    grows along x; blocked_by: the failed point met while the line was still within (the knee is
    not known: it may lie anywhere past within_to, the last point within); at_end: every point is
    within."""

    def __init__(self, x, rising, blocked_by=None, within_to=None, at_end=False):
        self.x, self.rising, self.blocked_by, self.within_to, self.at_end = x, rising, blocked_by, within_to, at_end


def knee_of(points, limit_s):
    """Rising along x (more load), the largest x up to which every point is within the limit;
    falling (more capacity), the smallest x from which every point is within. Walked from the
    line's best end; a failed point reached before a point beyond the limit leaves the knee unknown,
    since the failed point might have been beyond it."""
    placed = sorted((p for p in points if p.x is not None), key=lambda p: p.x)
    ok = [p for p in placed if p.ok]
    rising = ok[-1].y >= ok[0].y
    knee = None
    for p in placed if rising else reversed(placed):
        if not p.ok:
            return Knee(None, rising, blocked_by=p, within_to=knee)
        if p.y > limit_s:
            return Knee(knee, rising)
        knee = p.x
    return Knee(knee, rising, at_end=True)


def knee_offsets(knees, x_span):
    """Horizontal shifts for the knees' dashed lines, so that equal knees of several lines are all
    seen: each group of equal knees spread over 1.5% of the x range, centred on the knee."""
    step = 0.015 * x_span / 2
    shifts, groups = {}, {}
    for key, x in knees.items():
        if x is not None:
            groups.setdefault(x, []).append(key)
    for keys in groups.values():
        for i, key in enumerate(keys):
            shifts[key] = (i - (len(keys) - 1) / 2) * step
    return shifts


def why_no_intervals(points, jobs_of):
    """Why the points without a 95% interval have none, from what sweep.csv says of their events: an
    interval needs 20 batch means of at least 5 events and of at least one event per job running at
    once, after the warm-up cut (scenarios/README.md, "Steady state and the stopping rule")."""
    kept = [(p.events - p.cut, jobs_of(p)) for p in points if p.events is not None and p.cut is not None]
    need = ("an interval needs 20 batches of at least 5 events, and of at least one event per job running at "
            "once, after the warm-up cut (scenarios/README.md, \"Steady state and the stopping rule\")")
    if kept and all(j for _, j in kept):
        most = max(k / j for k, j in kept)
        have = f"these points kept at most {most:.3g} events per job after the cut, and need 20"
    elif kept:
        have = f"these points kept at most {max(k for k, _ in kept):.0f} events after the cut"
    else:
        have = "sweep.csv does not say how many events they kept"
    return (f"{need}; {have}. Sweep again with more events per job, e.g. --set /workload/events_per_job=40 "
            "(the cut may take up to half of them), or a longer /workload/duration")
