#!/usr/bin/env python3
"""sonicsim benchmark: wall time, peak memory, simulated requests per wall second and simulated time per
wall second, for generated farms (jobs x GPUs x request size x dynamic batching). Each configuration
runs --repeat times as `sonicsim run` in its own process; the table gives medians. Prints Markdown.

Then the ProtoDUNE-like hour: the bundled ProtoDUNE 2021 scenario grown to 1,000 jobs on 10 GPUs, one
simulated hour. With --floor, every configuration is also run once by simgrid_floor (the same traffic
straight on SimGrid with no server model): what SimGrid itself costs per request for that traffic.

  bench.py --sonicsim build/sonicsim [--floor build/simgrid_floor] [--repeat 3] [--duration 600] [--quick]
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


def protodune_farm(root, jobs, gpus, duration):
    """The bundled ProtoDUNE 2021 SONIC scenario grown to `jobs` jobs on `gpus` T4s (servers of 2 GPUs)."""
    s = json.load(open(os.path.join(root, "scenarios", "protodune-2021-sonic.json")))
    pool = s["platform"]["worker_pools"][0]
    pool["nodes"] = -(-jobs // pool["cores_per_node"])
    server = s["platform"]["servers"][0]
    server["count"], server["gpus_per_server"] = gpus // 2, 2
    s["platform"]["load_balancing"] = "round_robin"
    s["workload"]["jobs"] = jobs
    del s["workload"]["events_per_job"]
    s["workload"]["duration"] = f"{duration}s"
    s["simulation"]["outputs"] = []
    s["name"] = f"protodune-{jobs}-jobs-{gpus}-gpus"
    return s


def run_once(sonicsim, path, out):
    start = time.perf_counter()
    proc = subprocess.Popen([sonicsim, "run", path, "--quiet", "--output", out])
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        sys.exit(f"bench.py: {path}: sonicsim failed (status {status})")
    summary = json.load(open(os.path.join(out, "summary.json")))
    return wall, usage.ru_maxrss / 1024, summary["requests"]["sent"], summary["simulated_time_s"]


FLOOR_TIMEOUT_S = 60


def floor_rate(floor, path):
    """Requests and simulated seconds per wall second of simgrid_floor on the scenario; None if it runs
    longer than FLOOR_TIMEOUT_S (its server never queues, so with many jobs every transfer overlaps)."""
    try:
        fields = subprocess.run([floor, path], check=True, capture_output=True, text=True,
                                timeout=FLOOR_TIMEOUT_S).stdout.split()
    except subprocess.TimeoutExpired:
        return None, None
    values = dict(zip(fields[::2], map(float, fields[1::2])))
    return values["requests"] / values["wall_s"], values["simulated_s"] / values["wall_s"]


def rate(value):
    return f"{value:,.0f}" if value is not None else f"over {FLOOR_TIMEOUT_S} s, stopped"


def measure(args, scenario_document, work):
    path = os.path.join(work, "scenario.json")
    json.dump(scenario_document, open(path, "w"))
    runs = [run_once(args.sonicsim, path, os.path.join(work, "out")) for _ in range(args.repeat)]
    result = {"wall": statistics.median(r[0] for r in runs), "memory": statistics.median(r[1] for r in runs),
              "requests": runs[0][2], "simulated": runs[0][3]}
    if args.floor:
        result["floor"], result["floor_speed"] = floor_rate(args.floor, path)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sonicsim", required=True)
    parser.add_argument("--floor", help="simgrid_floor executable: adds the SimGrid floor column")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--duration", type=float, default=600, help="simulated seconds per run")
    parser.add_argument("--quick", action="store_true", help="100 and 1,000 jobs only; a 10-minute ProtoDUNE run")
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    floor_header = " SimGrid floor (requests / wall s) |" if args.floor else ""
    floor_rule = "---|" if args.floor else ""
    # 10,000 jobs of small requests would simulate about 50 million requests in 600 s: left out.
    configs = [(j, g, size, b) for j in ([100, 1000] if args.quick else [100, 1000, 10000]) for g in (4, 100)
               for size in ("large", "small") for b in (False, True) if not (j == 10000 and size == "small")]
    print(f"sonicsim benchmark: {args.duration:g} s simulated per run, median of {args.repeat} runs, one core each\n")
    print("| jobs | GPUs | requests | batching | wall (s) | peak memory (MB) | requests simulated | requests / wall s |"
          " simulated s / wall s |" + floor_header)
    print("|---|---|---|---|---|---|---|---|---|" + floor_rule)
    with tempfile.TemporaryDirectory() as work:
        for jobs, gpus, size, batching in configs:
            r = measure(args, scenario(jobs, gpus, size, batching, args.duration), work)
            floor = f" {rate(r['floor'])} |" if args.floor else ""
            print(f"| {jobs:,} | {gpus} | {size} | {'on' if batching else 'off'} | {r['wall']:.2f} | {r['memory']:.0f} | "
                  f"{r['requests']:,} | {r['requests'] / r['wall']:,.0f} | {r['simulated'] / r['wall']:,.0f} |{floor}",
                  flush=True)

        hour = 600 if args.quick else 3600
        r = measure(args, protodune_farm(root, 1000, 10, hour), work)
        print(f"\nProtoDUNE-like farm (scenarios/protodune-2021-sonic.json with 1,000 jobs on 10 T4 GPUs), {hour:g} s "
              f"simulated, median of {args.repeat} runs\n")
        print("| simulator | wall (s) | peak memory (MB) | requests simulated | requests / wall s | simulated s / wall s |")
        print("|---|---|---|---|---|---|")
        print(f"| sonicsim | {r['wall']:.2f} | {r['memory']:.0f} | {r['requests']:,} | {r['requests'] / r['wall']:,.0f} | "
              f"{r['simulated'] / r['wall']:,.0f} |")
        if args.floor:
            print(f"| SimGrid floor (one run) | | | | {rate(r['floor'])} | {rate(r['floor_speed'])} |")


if __name__ == "__main__":
    main()
