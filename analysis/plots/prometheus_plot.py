"""plot.py prometheus: a recorded farm's Prometheus range-query exports over the simulated run's
timeseries.csv, one panel per series, read as `sonicsim validate` reads them (analysis/validation/
prometheus_export.cpp): COLUMN=FILE or a documented series name; counters as their rate between
samples, a decrease read as a restart from 0; "NaN" samples and gaps left out; the exports' first
sample is the run's t = 0 unless --start says otherwise."""
import csv
import json
import math
import os

MAX_BYTES = 512 << 20
COLUMNS = ["ready", "metric", "requests_per_s", "queue_ms", "gpu_utilization"]
BY_NAME = {"kube_deployment_status_replicas_ready": "ready", "kube_deployment_status_replicas_available": "ready",
           "nv_inference_request_success": "requests_per_s", "nv_gpu_utilization": "gpu_utilization"}
COUNTERS = {"nv_inference_request_success", "nv_inference_count", "nv_inference_exec_count", "nv_inference_queue_duration_us"}
LABELS = {"ready": "ready replicas", "metric": "scraped metric", "requests_per_s": "requests/s",
          "queue_ms": "queue per request (ms)", "gpu_utilization": "GPU utilisation"}


def read_export(argument, fail):
    """(column, [(unix_s, value or None)], nan_samples, resets) of one export argument."""
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
    at, nans, resets = {}, 0, 0
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
            at.setdefault(t, [])
            if not math.isfinite(v):
                nans += 1
                previous = None
                continue
            if counter:
                if previous is None:
                    previous = (t, v)
                    continue
                increase = v - previous[1] if v >= previous[1] else v
                resets += v < previous[1]
                rate, previous = increase / (t - previous[0]), (t, v)
                v = rate
            at[t].append(v)
    combine = (lambda vs: sum(vs) / len(vs)) if column == "gpu_utilization" else sum
    return column, [(t, combine(vs) if vs else None) for t, vs in sorted(at.items())], nans, resets


def prometheus_plot(args, plt, fail):
    path = os.path.join(args.output_dir, "timeseries.csv")
    try:
        rows = list(csv.DictReader(open(path, newline="")))
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    if not rows or "time_s" not in rows[0]:
        fail(f"{path}: expected a timeseries.csv with rows")
    exports = [read_export(a, fail) for a in args.exports]
    firsts = [s[0][0] for _, s, _, _ in exports if s]
    if args.start is None and not firsts:
        fail("the exports have no samples")
    start = args.start if args.start is not None else min(firsts)
    fig, axes = plt.subplots(len(exports), 1, figsize=(9, 2.4 * len(exports)), sharex=True, squeeze=False)
    for ax, (column, samples, nans, resets) in zip(axes[:, 0], exports):
        try:
            sim = [(float(r["time_s"]), float(r[column])) for r in rows if r.get(column, "") != ""]
        except (TypeError, ValueError):
            fail(f"{path}: expected numbers in columns time_s and {column}")
        ax.step([t for t, _ in sim], [v for _, v in sim], where="post", label="simulated", linewidth=1.2)
        known = [(t - start, v) for t, v in samples if v is not None]
        ax.plot([t for t, _ in known], [v for _, v in known], ".", markersize=3, label="measured (Prometheus)")
        ax.set_ylabel(LABELS[column])
        ax.legend(fontsize="small", loc="best")
        gaps = sum(1 for _, v in samples if v is None)
        print(f"{column}: {len(known)} samples, {gaps} without a value ({nans} NaN), {resets} counter resets")
    axes[-1, 0].set_xlabel("time from the run's start (s)")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(args.out)
