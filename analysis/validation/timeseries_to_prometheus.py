#!/usr/bin/env python3
"""Write a run's timeseries.csv as Prometheus range-query exports, one file per column, as
GET /api/v1/query_range returns them (https://prometheus.io/docs/prometheus/latest/querying/api/,
"Range queries"): {"status": "success", "data": {"resultType": "matrix", "result": [{"metric":
{...}, "values": [[UNIX_TIME, "VALUE"], ...]}]}}. The ready replicas carry kube-state-metrics' name
(kube_deployment_status_replicas_ready), so validate matches them by name; the others are
expressions (no __name__) and are given to validate as COLUMN=FILE. A scrape with no value is
left out, as Prometheus leaves out a step with no sample.

    timeseries_to_prometheus.py OUTPUT_DIR/timeseries.csv --out-dir DIR [--start UNIX_S] [--shift COLUMN=SECONDS ...]

--shift delays a column's values (the value at t is the run's at t - SECONDS; before that, its
first), as a farm slower to react would record them.
"""
import argparse
import csv
import json
import os
import sys

COLUMNS = ["ready", "metric", "requests_per_s", "queue_ms", "gpu_utilization"]


def fail(message):
    print(f"timeseries_to_prometheus.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("timeseries")
    parser.add_argument("--out-dir", required=True)
    parser.add_argument("--start", type=float, default=1.7e9, help="Unix time of the run's t = 0 (default 1.7e9)")
    parser.add_argument("--shift", action="append", default=[], help="COLUMN=SECONDS (repeatable)")
    args = parser.parse_args()
    shifts = {}
    for s in args.shift:
        column, _, seconds = s.partition("=")
        if column not in COLUMNS:
            fail(f"--shift {s}: expected COLUMN=SECONDS with COLUMN one of {', '.join(COLUMNS)}")
        try:
            shifts[column] = float(seconds)
        except ValueError:
            fail(f"--shift {s}: expected a number of seconds")
    try:
        rows = list(csv.DictReader(open(args.timeseries, newline="")))
    except OSError as e:
        fail(f"{args.timeseries}: {e.strerror}")
    if not rows or any(c not in rows[0] for c in ["time_s"] + COLUMNS):
        fail(f"{args.timeseries}: expected a timeseries.csv with time_s and {', '.join(COLUMNS)}")
    os.makedirs(args.out_dir, exist_ok=True)
    times = [float(r["time_s"]) for r in rows]
    for column in COLUMNS:
        shift = shifts.get(column, 0.0)
        values = []
        for t in times:
            # The run's row at t - shift: the last scrape at or before it (its first before the run).
            source = rows[0]
            for r, rt in zip(rows, times):
                if rt <= t - shift + 1e-9:
                    source = r
            if source[column] != "":
                values.append([round(args.start + t, 6), source[column]])
        labels = {"__name__": "kube_deployment_status_replicas_ready", "namespace": "supersonic",
                  "deployment": "triton"} if column == "ready" else {}
        export = {"status": "success", "data": {"resultType": "matrix", "result": [{"metric": labels, "values": values}]}}
        with open(os.path.join(args.out_dir, column + ".json"), "w") as f:
            json.dump(export, f)
    print(args.out_dir)


if __name__ == "__main__":
    main()
