#!/usr/bin/env python3
"""Plots of sonicsim results, drawn with matplotlib (Debian python3-matplotlib).

  plot.py sweep DIR[/sweep.csv] [--x /workload/jobs] [--label /POINTER=TEXT] [--tolerance 0.05]
          [--baseline SECONDS] --out knee.png
      mean per-event time against a swept parameter (--x; default: the first axis with more than
      one value), one line per combination of the other swept axes, each axis named by its pointer's
      last segment (or --label) with its unit, and each line's knee: where it leaves the tolerance
      above its reference (its best point, or --baseline, e.g. a lone job's time). Rising along x
      (more jobs), the largest value up to which it stays within; falling (more devices), the
      smallest value from which it does; a failed point met before the line leaves it leaves the
      knee unknown. Failed points are marked in a grey strip at the foot, a marker per reason; equal
      knees are drawn side by side; 95% error bars where the points have a steady-state interval,
      and on the terminal why not where they have none (sweep_plot.py).
  plot.py run OUTPUT_DIR --out-dir PLOTS
      from a `sonicsim run --output OUTPUT_DIR`: event-time histogram (events.csv), GPU (or device) utilisation
      over time (batches.csv) and the site uplink's utilisation over time (requests.csv).
  plot.py gpus OUTPUT_DIR [OUTPUT_DIR...] [--labels A,B] [--bin 300] --out gpus.png
      per-GPU utilisation over time (batches.csv), one panel per run, and for each run how evenly
      the GPUs are loaded: the coefficient of variation across GPUs of their whole-run busy time,
      and its mean and maximum over the time bins in which the GPUs are at least 2% busy.
  plot.py timeseries OUTPUT_DIR [--threshold T] [--bin 60] --out autoscaling.png
      from a run with timeseries.csv (a saturation gate or an autoscaler): replicas by phase and the
      replicas asked for, the metric against the threshold (the run's own, from summary.json, unless
      --threshold says otherwise), and, where events.csv was written, the
      mean per-event time of the events starting in each bin.
  plot.py prometheus OUTPUT_DIR EXPORT [COLUMN=EXPORT...] [--start UNIX_S] --out overlay.png
      a recorded farm's Prometheus range-query exports (/api/v1/query_range JSON) over the simulated
      run's timeseries.csv, one panel per series (prometheus_plot.py).
  plot.py latency MODEL.json [MODEL.json...] [--labels A,B] [--title T] --out tau.png
      from latency model files (`sonicsim calibrate --output`): the measured tau(batch) of each with
      the selected form through them and its 95% bootstrap band, and the throughput batch / tau.
"""
import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import python_interpreter  # noqa: E402

python_interpreter.require("matplotlib", "python3-matplotlib", "plot.py")
import matplotlib  # noqa: E402

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
from plot_input import fail, number, optional_number, read_csv  # noqa: E402
from prometheus_plot import prometheus_plot  # noqa: E402
from sweep_plot import sweep_plot  # noqa: E402


class OneLineParser(argparse.ArgumentParser):
    """Bad flags, like bad files, get one line and exit code 2 (argparse would print its usage too)."""

    def error(self, message):
        command = self.prog.split()[-1]
        fail(message if command == "plot.py" else f"{command}: {message}")


def fraction(text):
    """A relative value as sonicsim takes it: "5%" or "0.05"; a bare number of 1 or more is refused,
    never read as 100 times itself."""
    percent = text.endswith("%")
    try:
        value = float(text[:-1] if percent else text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0) or (not percent and value >= 1):
        hint = f" (write {text}% for a percentage)" if math.isfinite(value) and value >= 1 and not percent else ""
        raise argparse.ArgumentTypeError(f'expected a fraction below 1 (0.05) or a percentage (5%), got "{text}"{hint}')
    return value / 100 if percent else value


def axis_label(text):
    pointer, equals, label = text.partition("=")
    if not pointer.startswith("/") or not equals or not label.strip():
        raise argparse.ArgumentTypeError(f'expected /JSON/POINTER=TEXT (e.g. /workload/jobs="grid jobs"), got "{text}"')
    return pointer, label


def positive_seconds(text):
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f'expected a positive number of seconds, got "{text}"')
    return value


def binned(intervals, start, end, bins):
    """Amount per bin of quantities spread evenly over (t0, t1, amount) intervals."""
    width = (end - start) / bins
    totals = [0.0] * bins
    for t0, t1, amount in intervals:
        if t1 <= t0:
            continue
        rate = amount / (t1 - t0)
        first, last = int((t0 - start) // width), int(min(bins - 1, (t1 - start) // width))
        for b in range(max(0, first), last + 1):
            lo, hi = max(t0, start + b * width), min(t1, start + (b + 1) * width)
            if hi > lo:
                totals[b] += rate * (hi - lo)
    return [start + (b + 0.5) * width for b in range(bins)], totals, width


def utilisation_plot(times, values, ylabel, title, path):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(times, values)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("simulated time (s)")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return path


def run_plots(args):
    summary_path = os.path.join(args.output_dir, "summary.json")
    try:
        summary = json.load(open(summary_path))
    except (OSError, json.JSONDecodeError) as e:
        fail(f"{summary_path}: {e}")
    # Each plot needs one of the run's tables, written where /simulation/outputs names it.
    needed = {"events": "the event-time histogram", "batches": "the utilisation over time",
              "requests": "the uplink's utilisation over time"}
    present = {name: os.path.exists(os.path.join(args.output_dir, f"{name}.csv")) for name in needed}
    hint = ("; the run writes it with \"{0}\" in /simulation/outputs "
            "(e.g. --set '/simulation/outputs=[\"events\",\"batches\",\"requests\"]')")
    if not any(present.values()):
        fail(f"{args.output_dir}: no events.csv, batches.csv or requests.csv to plot; the run writes them where "
             "/simulation/outputs names them (e.g. --set '/simulation/outputs=[\"events\",\"batches\",\"requests\"]')")
    for name, plot in needed.items():
        if not present[name]:
            print(f"plot.py: {args.output_dir} has no {name}.csv: {plot} is left out" + hint.format(name),
                  file=sys.stderr)
    os.makedirs(args.out_dir, exist_ok=True)
    written = []

    events_path = os.path.join(args.output_dir, "events.csv")
    events = read_csv(events_path, ["time_s", "start_s", "end_s"]) if present["events"] else []
    times = [number(events_path, i, "time_s", r["time_s"]) for i, r in enumerate(events, start=2)]
    if times:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        ax.hist(times, bins=min(50, max(5, int(math.sqrt(len(times))))))
        ax.set_xlabel("per-event time (s)")
        ax.set_ylabel("events")
        ax.set_title(f"{summary['scenario']}: {len(times)} events, mean {sum(times) / len(times):.2f} s")
        fig.tight_layout()
        written.append(os.path.join(args.out_dir, "event_time_histogram.png"))
        fig.savefig(written[-1], dpi=120)
    end = summary["simulated_time_s"]

    batches_path = os.path.join(args.output_dir, "batches.csv")
    batches = read_csv(batches_path, ["start_s", "end_s", "kernel_s"]) if present["batches"] else []
    key, label = ("device", "device") if "device" in summary else ("gpu", "GPU")  # as the scenario names them
    gpus = max(1, len(summary[key][f"per_{key}"]))
    if batches and end > 0:
        intervals = [(number(batches_path, i, "start_s", r["start_s"]), number(batches_path, i, "end_s", r["end_s"]),
                      number(batches_path, i, "kernel_s", r["kernel_s"])) for i, r in enumerate(batches, start=2)]
        centres, busy, width = binned(intervals, 0.0, end, args.bins)
        written.append(utilisation_plot(centres, [min(1.0, b / (width * gpus)) for b in busy],
                                        f"{label} utilisation (mean of {gpus})",
                                        f"{summary['scenario']}: {label} utilisation, {summary[key]['utilization']:.2f} overall",
                                        os.path.join(args.out_dir, f"{key}_utilization.png")))

    requests_path = os.path.join(args.output_dir, "requests.csv")
    requests = read_csv(requests_path, ["sent_s", "arrived_s", "input_bytes"]) if present["requests"] else []
    uplink = next((l for l in summary["links"] if l["name"].startswith("site-uplink (to servers)")), None)
    if requests and uplink and end > 0:
        intervals = []
        for i, r in enumerate(requests, start=2):
            if r["arrived_s"] == "":
                continue
            intervals.append((number(requests_path, i, "sent_s", r["sent_s"]),
                              number(requests_path, i, "arrived_s", r["arrived_s"]),
                              number(requests_path, i, "input_bytes", r["input_bytes"])))
        centres, moved, width = binned(intervals, 0.0, end, args.bins)
        capacity = uplink["bandwidth_bps"] / 8 * width
        written.append(utilisation_plot(centres, [m / capacity for m in moved], "utilisation",
                                        f"{summary['scenario']}: {uplink['name']} ({uplink['bandwidth_bps'] / 1e9:g} Gbps), requests",
                                        os.path.join(args.out_dir, "link_utilization.png")))
    for w in written:
        print(w)


def per_gpu_busy(output_dir, bin_s):
    """{(server, device): [busy seconds per bin]} from batches.csv, the run's length, and the word
    the run uses for its accelerators ("GPU" or "device")."""
    summary_path = os.path.join(output_dir, "summary.json")
    try:
        end = json.load(open(summary_path))["simulated_time_s"]
    except (OSError, json.JSONDecodeError, KeyError) as e:
        fail(f"{summary_path}: {e}")
    path = os.path.join(output_dir, "batches.csv")
    kernels = {}
    rows = read_csv(path, ["server", "start_s", "end_s"])
    key = "device" if rows and "device" in rows[0] else "gpu"
    if rows and key not in rows[0]:
        fail(f"{path}: line 1: expected the column gpu or device")
    for line, r in enumerate(rows, start=2):
        t0, t1 = number(path, line, "start_s", r["start_s"]), number(path, line, "end_s", r["end_s"])
        kernels.setdefault((r["server"], r[key]), []).append((t0, t1, t1 - t0))
    if not kernels:
        fail(f"{path}: no batches (is \"batches\" in the scenario's simulation.outputs?)")
    bins = max(1, math.ceil(end / bin_s))
    # Kernels of one GPU's instances may overlap: utilisation is capped at 1 where it is drawn.
    busy = {gpu: binned(intervals, 0.0, bins * bin_s, bins)[1] for gpu, intervals in kernels.items()}
    return busy, end, "device" if key == "device" else "GPU"


def coefficient_of_variation(values):
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values)) / mean if mean > 0 else 0.0


def gpus_plot(args):
    labels = args.labels.split(",") if args.labels else [os.path.basename(os.path.normpath(d)) for d in args.output_dirs]
    if len(labels) != len(args.output_dirs):
        fail(f"--labels names {len(labels)} runs, {len(args.output_dirs)} given")
    fig, axes = plt.subplots(len(args.output_dirs), 1, figsize=(8, 3 * len(args.output_dirs)), sharex=True, squeeze=False)
    for ax, directory, label in zip(axes[:, 0], args.output_dirs, labels):
        busy, end, device = per_gpu_busy(directory, args.bin)
        bins = len(next(iter(busy.values())))
        centres = [(b + 0.5) * args.bin for b in range(bins)]
        for (server, gpu), series in sorted(busy.items()):
            ax.plot(centres, [min(1.0, x / args.bin) for x in series], label=f"{server}/{gpu}", linewidth=1)
        whole = coefficient_of_variation([sum(series) for series in busy.values()])
        loaded = [coefficient_of_variation([series[b] for series in busy.values()]) for b in range(bins)
                  if sum(series[b] for series in busy.values()) / (len(busy) * args.bin) >= 0.02]
        per_bin = f"{sum(loaded) / len(loaded):.4f} mean, {max(loaded):.4f} max" if loaded else "no loaded bin"
        print(f"{label}: {len(busy)} {device}s; CV of whole-run busy time {whole:.4f}; CV per {args.bin:g} s bin {per_bin}")
        ax.set_ylabel(f"{device} utilisation")
        ax.set_title(f"{label}: busy-time CV {whole:.3f} over the run, {per_bin} per {args.bin:g} s")
        ax.set_ylim(bottom=0)
        if len(busy) <= 8:
            ax.legend(fontsize="small", loc="upper right")
    axes[-1, 0].set_xlabel("simulated time (s)")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(args.out)


def summary_threshold(output_dir):
    """The threshold the metric of timeseries.csv is held to, from the run's summary.json: the
    autoscaler's target where there is one (its metric is the one scraped), else the gate's."""
    path = os.path.join(output_dir, "summary.json")
    try:
        summary = json.load(open(path))
    except (OSError, json.JSONDecodeError):
        return None
    for section, key in (("autoscaling", "threshold"), ("gate", "threshold_ms")):
        value = summary.get(section, {}).get(key) if isinstance(summary.get(section), dict) else None
        if isinstance(value, (int, float)):
            return float(value)
    return None


def timeseries_plot(args):
    path = os.path.join(args.output_dir, "timeseries.csv")
    columns = ["time_s", "pending", "starting", "ready", "draining", "desired", "metric"]
    rows = read_csv(path, columns)
    if not rows:
        fail(f"{path}: no rows (the run ended before its first scrape)")
    series = {c: [optional_number(path, i + 2, c, row[c]) for i, row in enumerate(rows)] for c in columns}
    t = series["time_s"]
    panels = 3 if os.path.exists(os.path.join(args.output_dir, "events.csv")) else 2
    fig, axes = plt.subplots(panels, 1, figsize=(9, 2.6 * panels), sharex=True)
    ax = axes[0]
    ax.step(t, series["ready"], where="post", label="ready")
    ax.step(t, [s + p for s, p in zip(series["starting"], series["pending"])], where="post", label="starting + pending")
    ax.step(t, series["draining"], where="post", label="draining")
    ax.step(t, series["desired"], where="post", linestyle="--", label="asked for")
    ax.set_ylabel("replicas")
    ax.legend(fontsize="small", loc="upper right")
    ax = axes[1]
    known = [(x, y) for x, y in zip(t, series["metric"]) if y is not None]
    ax.plot([x for x, _ in known], [y for _, y in known], label="metric", linewidth=1)
    threshold = args.threshold if args.threshold is not None else summary_threshold(args.output_dir)
    if threshold is not None:
        ax.axhline(threshold, color="red", linestyle=":", label=f"threshold {threshold:g}")
    ax.set_yscale("symlog", linthresh=1)  # queue-time metrics span orders of magnitude, down to 0
    ax.set_ylim(bottom=0)
    ax.set_ylabel("metric")
    ax.legend(fontsize="small", loc="upper right")
    if threshold is None:
        print(f"{len(rows)} scrapes; most replicas ready at once {max(series['ready']):g}; no threshold known "
              f"(summary.json has none: give --threshold)")
    else:
        above = sum(1 for _, y in known if y > threshold)
        print(f"{len(rows)} scrapes; most replicas ready at once {max(series['ready']):g}; "
              f"metric above the threshold {threshold:g} in {above} of {len(known)} scrapes with a value")
    if panels == 3:
        epath = os.path.join(args.output_dir, "events.csv")
        events = read_csv(epath, ["start_s", "time_s"])
        end = max(t) if t else 0
        bins = max(1, int(math.ceil(end / args.bin)))
        sums, counts = [0.0] * bins, [0] * bins
        for i, e in enumerate(events):
            start = number(epath, i + 2, "start_s", e["start_s"])
            b = min(bins - 1, int(start // args.bin))
            sums[b] += number(epath, i + 2, "time_s", e["time_s"])
            counts[b] += 1
        centres = [(b + 0.5) * args.bin for b in range(bins) if counts[b]]
        means = [sums[b] / counts[b] for b in range(bins) if counts[b]]
        axes[2].plot(centres, means, marker=".", linewidth=1)
        axes[2].set_ylabel("per-event time (s)")
    axes[-1].set_xlabel("simulated time (s)")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(args.out)


def read_latency_model(path):
    try:
        with open(path, encoding="utf-8") as f:
            model = json.load(f)
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    except json.JSONDecodeError as e:
        fail(f"{path}: line {e.lineno}, column {e.colno}: expected JSON ({e.msg})")
    if not isinstance(model, dict) or model.get("format") != "sonicsim latency model v1":
        fail(f'{path}: /format: expected "sonicsim latency model v1" (a file written by sonicsim calibrate --output)')
    try:
        points = [(float(p["batch"]), float(p["latency_s"])) for p in model["points"]]
        form = model["forms"][model["selected"]]
        band = form.get("band")
        if band:
            levels = band["levels"]
            low, high = levels.index(0.025), levels.index(0.975)
            band = (band["batches"], band["latency_s"][low], band["latency_s"][high])  # one row per level
        device = model["inputs"][0]["provenance"].get("device", os.path.basename(path))
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
        fail(f"{path}: expected a latency model with points, the selected form and its band ({e!r} missing or malformed)")
    if not points:
        fail(f"{path}: /points: expected at least one point")
    return points, band, model["selected"], device


def latency_plot(args):
    labels = args.labels.split(",") if args.labels else None
    if labels and len(labels) != len(args.models):
        fail(f"--labels: expected as many names as models ({len(args.models)}), got {len(labels)}")
    fig, (tau_ax, rate_ax) = plt.subplots(1, 2, figsize=(13, 5.5))
    devices = []  # one colour per device; a device's second, third... model gets another line style
    styles = ["o-", "s--", "^:", "d-."]
    for i, path in enumerate(args.models):
        points, band, form, device = read_latency_model(path)
        label = labels[i] if labels else device
        nth = sum(1 for d in devices if d == device)
        devices.append(device)
        colour = f"C{list(dict.fromkeys(devices)).index(device) % 10}"
        style = styles[nth % len(styles)]
        batches, latencies = [p[0] for p in points], [p[1] for p in points]
        tau_ax.plot(batches, [1e3 * t for t in latencies], style, color=colour, ms=4, label=label)
        rate_ax.plot(batches, [b / t for b, t in points], style, color=colour, ms=4, label=label)
        if band:
            tau_ax.fill_between(band[0], [1e3 * t for t in band[1]], [1e3 * t for t in band[2]], color=colour, alpha=0.2, lw=0)
    for ax in (tau_ax, rate_ax):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("batch size (items per call)")
        ax.grid(True, which="both", alpha=0.3)
    tau_ax.set_yscale("log")
    tau_ax.set_ylabel("tau(batch): time per call (ms)")
    tau_ax.set_title("kernel latency, measured points; band: 95% bootstrap of the " + form + " form")
    rate_ax.set_ylabel("batch / tau (items/s)")
    rate_ax.set_title("throughput of one device at that batch")
    rate_ax.legend(fontsize=8)
    if args.title:
        fig.suptitle(args.title)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"{args.out}: {len(args.models)} latency models")


def main():
    parser = OneLineParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sweep", help="mean per-event time against a swept parameter, knee marked")
    s.add_argument("csv", help="a sweep's sweep.csv, or its directory")
    s.add_argument("--x", help="the swept JSON pointer (a column of sweep.csv) or its name in the figure "
                               "(default: the first axis with more than one value)")
    s.add_argument("--label", type=axis_label, action="append", metavar="POINTER=TEXT",
                   help="the name an axis goes by in the figure (default: its pointer's last segment; repeatable)")
    s.add_argument("--tolerance", type=fraction, default=0.05, help="relative: 5%% or 0.05 (default 5%%)")
    s.add_argument("--baseline", type=positive_seconds, help="the reference per-event time in seconds (default: each line's best point)")
    s.add_argument("--out", required=True)
    r = sub.add_parser("run", help="histogram and utilisation over time of one run's --output directory")
    r.add_argument("output_dir")
    r.add_argument("--out-dir", required=True)
    r.add_argument("--bins", type=int, default=100)
    g = sub.add_parser("gpus", help="per-GPU utilisation over time of one or more runs, and how even it is")
    g.add_argument("output_dirs", nargs="+")
    g.add_argument("--labels", help="comma-separated names of the runs (default: their directory names)")
    g.add_argument("--bin", type=float, default=300, help="time bin in simulated seconds (default 300)")
    g.add_argument("--out", required=True)
    ts = sub.add_parser("timeseries", help="replicas, metric and threshold over time of one run")
    ts.add_argument("output_dir")
    ts.add_argument("--threshold", type=float, help="the threshold to draw against the metric")
    ts.add_argument("--bin", type=float, default=60, help="bin of the per-event time in simulated seconds (default 60)")
    ts.add_argument("--out", required=True)
    pr = sub.add_parser("prometheus", help="Prometheus exports of a recorded farm over a run's timeseries.csv")
    pr.add_argument("output_dir")
    pr.add_argument("exports", nargs="+", help="FILE or COLUMN=FILE (ready, metric, requests_per_s, queue_ms, gpu_utilization)")
    pr.add_argument("--start", type=float, help="Unix time of the run's t = 0 (default: the exports' first sample)")
    pr.add_argument("--out", required=True)
    la = sub.add_parser("latency", help="tau(batch) and throughput of latency model files (sonicsim calibrate)")
    la.add_argument("models", nargs="+")
    la.add_argument("--labels", help="comma-separated names of the models (default: their devices)")
    la.add_argument("--title")
    la.add_argument("--out", required=True)
    args = parser.parse_args()
    if args.command == "timeseries" and args.threshold is not None and not math.isfinite(args.threshold):
        fail("--threshold: expected a finite number")
    if args.command in ("gpus", "timeseries") and not (math.isfinite(args.bin) and args.bin > 0):
        fail("--bin: expected a positive number of seconds")
    {"sweep": sweep_plot, "run": run_plots, "gpus": gpus_plot, "timeseries": timeseries_plot,
     "latency": latency_plot, "prometheus": lambda a: prometheus_plot(a, plt, fail)}[args.command](args)


if __name__ == "__main__":
    main()
