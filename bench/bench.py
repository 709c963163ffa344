#!/usr/bin/env python3
"""sonicsim benchmark: wall time, peak memory, simulated requests per wall second and simulated time per
wall second, for generated farms (jobs x GPUs x request size x dynamic batching). Each configuration
runs --repeat times as `sonicsim run` in its own process; the table gives medians. Prints Markdown.

  bench.py --sonicsim build/sim/sonicsim [--repeat 3] [--duration 600] [--quick]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

# Request sizes: "large" is ProtoDUNE-like (55,000 patches per event in requests of 1693, ~122 s per
# event); "small" is a light model called often (50 requests of 10 items per event, ~2.5 s per event).
WORKLOADS = {
    "large": {"cpu": "110s", "preprocess": "7s", "items_per_event": 55000, "items_per_request": 1693,
              "input": "9216B", "output": "16B", "intercept": "4.11ms", "per_item": "30.43us"},
    "small": {"cpu": "2s", "preprocess": "0.2s", "items_per_event": 500, "items_per_request": 10,
              "input": "4000B", "output": "400B", "intercept": "0.5ms", "per_item": "20us"},
}


def scenario(jobs, gpus, size, batching, duration):
    w = WORKLOADS[size]
    servers = max(1, gpus // 4)
    model = {"input_bytes_per_item": w["input"], "output_bytes_per_item": w["output"], "max_batch_size": 2048,
             "instances_per_gpu": 1,
             "kernel_latency": {"type": "affine", "intercept": w["intercept"], "per_item": w["per_item"]}}
    if batching:
        model["dynamic_batching"] = {"max_queue_delay_microseconds": 100}
    return {
        "name": f"bench-{jobs}j-{gpus}g-{size}-{'batching' if batching else 'default'}",
        "platform": {
            "worker_pools": [{"name": "grid", "nodes": (jobs + 31) // 32, "cores_per_node": 32, "cpu_speed": 1.0,
                              "nic": {"bandwidth": "25Gbps", "latency": "50us"}}],
            "placement": "fill",
            "site_uplink": {"bandwidth": "400Gbps", "latency": "50us"},
            "wan": {"bandwidth": "400Gbps", "latency": "5ms"},
            "servers": [{"name": "gpu", "count": servers, "gpus_per_server": gpus // servers, "gpu": "T4",
                         "nic": {"bandwidth": "100Gbps", "latency": "50us"}, "models": ["m"]}],
            "load_balancing": "round_robin"},
        "models": {"m": model},
        "workload": {"jobs": jobs, "duration": f"{duration}s", "start": {"pattern": "spread", "window": "60s"},
                     "modules": [{"type": "cpu", "name": "reco", "time": w["cpu"]},
                                 {"type": "inference", "name": "ml", "model": "m", "items_per_event": w["items_per_event"],
                                  "items_per_request": w["items_per_request"], "preprocess": w["preprocess"],
                                  "in_flight": 1}]},
        "simulation": {"seed": 1, "network": {"model": "CM02", "tcp_gamma": "4MiB", "crosstraffic": False},
                       "stack_size": "32KiB", "outputs": []},
    }


def run_once(sonicsim, path, out):
    start = time.perf_counter()
    proc = subprocess.Popen([sonicsim, "run", path, "--quiet", "--output", out])
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        sys.exit(f"bench.py: {path}: sonicsim failed (status {status})")
    summary = json.load(open(os.path.join(out, "summary.json")))
    return wall, usage.ru_maxrss / 1024, summary["requests"]["sent"], summary["simulated_time_s"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sonicsim", required=True)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--duration", type=float, default=600, help="simulated seconds per run")
    parser.add_argument("--quick", action="store_true", help="100 and 1,000 jobs only")
    args = parser.parse_args()
    # 10,000 jobs of small requests would simulate about 50 million requests in 600 s: left out.
    configs = [(j, g, size, b) for j in ([100, 1000] if args.quick else [100, 1000, 10000]) for g in (4, 100)
               for size in ("large", "small") for b in (False, True) if not (j == 10000 and size == "small")]
    print(f"sonicsim benchmark: {args.duration:g} s simulated per run, median of {args.repeat} runs, one core each\n")
    print("| jobs | GPUs | requests | batching | wall (s) | peak memory (MB) | requests simulated | requests / wall s | simulated s / wall s |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for jobs, gpus, size, batching in configs:
            path = os.path.join(work, "scenario.json")
            json.dump(scenario(jobs, gpus, size, batching, args.duration), open(path, "w"))
            runs = [run_once(args.sonicsim, path, os.path.join(work, "out")) for _ in range(args.repeat)]
            wall = statistics.median(r[0] for r in runs)
            memory = statistics.median(r[1] for r in runs)
            requests, simulated = runs[0][2], runs[0][3]
            print(f"| {jobs:,} | {gpus} | {size} | {'on' if batching else 'off'} | {wall:.2f} | {memory:.0f} | "
                  f"{requests:,} | {requests / wall:,.0f} | {simulated / wall:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
