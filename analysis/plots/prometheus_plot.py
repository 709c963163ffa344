"""plot.py prometheus: a recorded farm's Prometheus range-query exports over the simulated run's
timeseries.csv, one panel per series, read as `sonicsim validate` reads them (analysis/validation/
prometheus_export.cpp): COLUMN=FILE or a documented series name; counters as their rate between
samples, a decrease read as a restart from 0; "NaN" samples and gaps left out; the exports' first
sample is the run's t = 0 unless --start says otherwise.

A time where no series has a value (every sample there NaN, or a counter's first, which has no rate
yet) is not drawn: a tick at the foot of the panel marks it. A time where some series have a value
and others a sample without one is drawn, as validate compares it, from those with a value, as a
hollow point. A series with no sample at a time (its pod gone, stale) does not count there."""
import csv
import json
import math
import os

from matplotlib.transforms import blended_transform_factory

MAX_BYTES = 512 << 20
COLUMNS = ["ready", "metric", "requests_per_s", "queue_ms", "gpu_utilization"]
BY_NAME = {"kube_deployment_status_replicas_ready": "ready", "kube_deployment_status_replicas_available": "ready",
           "nv_inference_request_success": "requests_per_s", "nv_gpu_utilization": "gpu_utilization"}
COUNTERS = {"nv_inference_request_success", "nv_inference_count", "nv_inference_exec_count", "nv_inference_queue_duration_us"}
LABELS = {"ready": "ready replicas", "metric": "scraped metric", "requests_per_s": "requests/s",
          "queue_ms": "queue per request (ms)", "gpu_utilization": "GPU utilisation"}


def read_export(argument, fail):
    """One export argument read as an Export: its column and a Measured per time of its grid."""
    column, _, path = argument.partition("=")
    if column not in COLUMNS:
        column, path = None, argument
    try:
        if os.path.isfile(path) and os.path.getsize(path) > MAX_BYTES:
            fail(f"{path}: larger than 512 MiB, the most an export may be (as sonicsim validate reads them)")
        with open(path) as f:
            document = json.loads(f.read(MAX_BYTES + 1))
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    except (json.JSONDecodeError, RecursionError, UnicodeDecodeError) as e:
        fail(f"{path}: not JSON ({str(e).splitlines()[0][:100]})")
    if isinstance(document, dict) and "response" in document and "data" not in document:
        document = document["response"]  # Grafana's query inspector
    data = document.get("data") if isinstance(document, dict) else None
    if not isinstance(data, dict) or data.get("resultType") != "matrix" or not isinstance(data.get("result"), list):
        fail(f"{path}: /data: expected a range query's matrix (/api/v1/query_range)")
    at, nans, resets, first_counts, samples = {}, 0, 0, 0, 0
    for i, series in enumerate(data["result"]):
        labels = series.get("metric") if isinstance(series, dict) else None
        values = series.get("values") if isinstance(series, dict) else None
        if not isinstance(labels, dict) or not isinstance(values, list):
            fail(f"{path}: /data/result/{i}: expected {{\"metric\": {{...}}, \"values\": [...]}}")
        name = labels.get("__name__", "")
        if column is None:
            column = BY_NAME.get(name)
            if column is None:
                fail(f"{path}: cannot tell which series {name or '(an expression)'!r} measures: give it as COLUMN={path}")
        counter = name.endswith("_total") or name in COUNTERS
        previous = None
        for k, sample in enumerate(values):
            try:
                t, v = float(sample[0]), float(sample[1])
                if not isinstance(sample[1], str) or len(sample) != 2 or not math.isfinite(t) or isinstance(sample[0], bool):
                    raise ValueError
            except (TypeError, ValueError, IndexError):
                fail(f"{path}: /data/result/{i}/values/{k}: expected [UNIX_TIME, \"VALUE\"]")
            samples += 1
            used, without = at.setdefault(t, ([], [0]))  # the values at t, and the samples there without one
            if not math.isfinite(v):
                nans += 1
                without[0] += 1
                previous = None
                continue
            if counter:
                if previous is None:
                    first_counts += 1
                    without[0] += 1
                    previous = (t, v)
                    continue
                increase = v - previous[1] if v >= previous[1] else v
                resets += v < previous[1]
                rate, previous = increase / (t - previous[0]), (t, v)
                v = rate
            used.append(v)
    combine = (lambda vs: sum(vs) / len(vs)) if column == "gpu_utilization" else sum
    points = [Measured(t, combine(used) if used else None, bool(used) and without[0] > 0)
              for t, (used, without) in sorted(at.items())]
    return Export(column, points, len(data["result"]), samples, nans, first_counts, resets)


class Measured:
    """A time of an export's grid: the column's value there (None: no series had one), and whether
    some series' sample there had none (NaN, or a counter's first) while others had one."""

    def __init__(self, t, value, partial):
        self.t, self.value, self.partial = t, value, partial


class Export:
    def __init__(self, column, points, series, samples, nans, first_counts, resets):
        self.column, self.points, self.series, self.samples = column, points, series, samples
        self.nans, self.first_counts, self.resets = nans, first_counts, resets

    def summary(self):
        """What the panel draws and what it leaves out, counted."""
        drawn = [p for p in self.points if p.value is not None]
        partial = sum(p.partial for p in drawn)
        missing = len(self.points) - len(drawn)
        return (f"{self.column}: {self.samples} samples of {self.series} series at {len(self.points)} times; drawn at "
                f"{len(drawn)}" + (f", {partial} of them hollow (from some series only: the others' samples there "
                                   "had no value)" if partial else "")
                + f"; no value at {missing}" + (" (ticks at the foot, not drawn)" if missing else "")
                + f"; samples without a value: {self.nans} NaN, {self.first_counts} a counter's first (no rate yet)"
                + f"; {self.resets} counter resets")


def prometheus_plot(args, plt, fail):
    path = os.path.join(args.output_dir, "timeseries.csv")
    try:
        rows = list(csv.DictReader(open(path, newline="")))
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    if not rows or "time_s" not in rows[0]:
        fail(f"{path}: expected a timeseries.csv with rows")
    exports = [read_export(a, fail) for a in args.exports]
    firsts = [e.points[0].t for e in exports if e.points]
    if args.start is None and not firsts:
        fail("the exports have no samples")
    start = args.start if args.start is not None else min(firsts)
    fig, axes = plt.subplots(len(exports), 1, figsize=(9, 2.4 * len(exports)), sharex=True, squeeze=False)
    for ax, export in zip(axes[:, 0], exports):
        column = export.column
        try:
            sim = [(float(r["time_s"]), float(r[column])) for r in rows if r.get(column, "") != ""]
        except (TypeError, ValueError):
            fail(f"{path}: expected numbers in columns time_s and {column}")
        ax.step([t for t, _ in sim], [v for _, v in sim], where="post", label="simulated", linewidth=1.2)
        whole = [(p.t - start, p.value) for p in export.points if p.value is not None and not p.partial]
        partial = [(p.t - start, p.value) for p in export.points if p.value is not None and p.partial]
        gaps = [p.t - start for p in export.points if p.value is None]
        drawn = ax.plot([t for t, _ in whole], [v for _, v in whole], ".", markersize=3, label="measured (Prometheus)")
        if partial:
            ax.plot([t for t, _ in partial], [v for _, v in partial], "o", markersize=4, markerfacecolor="none",
                    color=drawn[0].get_color(), label="measured, from some series only")
        if gaps:
            foot = blended_transform_factory(ax.transData, ax.transAxes)  # x in data, y in the panel's height
            ax.plot(gaps, [0.03] * len(gaps), "|", color="grey", markersize=8, transform=foot, clip_on=False,
                    label="no value (not drawn)")
        ax.set_ylabel(LABELS[column])
        ax.legend(fontsize="small", loc="best")
        print(export.summary())
    axes[-1, 0].set_xlabel("time from the run's start (s)")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(args.out)
