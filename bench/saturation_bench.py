#!/usr/bin/env python3
"""Cost of a run against jobs on a farm whose site uplink saturates, and on one whose never does.

The saturating farm is bench.py's ProtoDUNE-like farm: the bundled ProtoDUNE 2021 scenario grown to
JOBS jobs on JOBS/100 T4 GPUs, 100 Gb/s site uplink and WAN, 16 KiB actor stacks. A job that never
waits for an answer asks for 55,000 x 9216 B per event of about 117.5 s, 34.5 Mb/s, so the uplink's
offered load reaches its capacity at about 2,900 jobs (the floor's jobs never wait; sonicsim's queue
at the GPUs, so they ask for less). The open farm is the same with a 10 Tb/s uplink and WAN: offered
load 1% of capacity per 290 jobs.

Each run is one process stopped after --limit seconds of CPU time (RLIMIT_CPU: on a shared machine
CPU time depends far less than wall time on other processes); the table gives its wall time, its CPU
time (user + system), its peak resident memory (the kernel's maximum RSS of the process), the
1-minute load average when it started, and what it simulated. sonicsim runs once per --modes entry:
"simgrid" (every transfer a SimGrid transfer) and "fast" (simulation.network.fast_path: the uploads
on the upload fast path). Prints Markdown.

  saturation_bench.py --sonicsim build/sonicsim --floor build/simgrid_floor --jobs 1000,3000,5000
      [--farm saturating|open] [--modes simgrid,fast] [--duration 300] [--limit 100] [--cfg NAME:VALUE ...]
      [--option PATH=JSON ...]
"""
import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

OFFERED_BPS_PER_JOB = 55000 * 9216 * 8 / 117.5  # bits per event over CPU + preprocessing time
MODES = {"simgrid": ("sonicsim", False), "fast": ("sonicsim, fast path", True)}


def farm(root, jobs, kind, duration):
    s = bench.protodune_farm(root, jobs, max(2, jobs // 100), duration)  # servers of 2 GPUs: at least one
    s["simulation"]["stack_size"] = "16KiB"
    if kind == "open":
        s["platform"]["site_uplink"]["bandwidth"] = "10Tbps"
        s["platform"]["wan"]["bandwidth"] = "10Tbps"
    return s


def set_option(document, assignment):
    path, value = assignment.split("=", 1)
    keys = path.split(".")
    node = document
    for key in keys[:-1]:
        node = node.setdefault(key, {})
    node[keys[-1]] = json.loads(value)


def run(command, limit):
    """Wall seconds (None if stopped at the CPU-time limit), CPU seconds, peak RSS in MB, load average
    at the start, stdout."""
    load = os.getloadavg()[0]
    start = time.perf_counter()
    cpu_limit = lambda: resource.setrlimit(resource.RLIMIT_CPU, (int(limit), int(limit) + 5))  # noqa: E731
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=cpu_limit)
    out = proc.stdout.read()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    cpu = usage.ru_utime + usage.ru_stime
    memory = usage.ru_maxrss / 1024
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
        return None, cpu, memory, load, None
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"saturation_bench.py: {' '.join(command)} failed: {err.strip()}")
    return wall, cpu, memory, load, out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sonicsim")
    parser.add_argument("--floor")
    parser.add_argument("--jobs", required=True, help="comma-separated job counts")
    parser.add_argument("--farm", choices=("saturating", "open"), default="saturating")
    parser.add_argument("--modes", default="simgrid", help="sonicsim's runs: comma-separated simgrid, fast")
    parser.add_argument("--duration", type=float, default=300, help="simulated seconds")
    parser.add_argument("--limit", type=float, default=100, help="CPU seconds before a run is stopped")
    parser.add_argument("--cfg", action="append", default=[], help="SimGrid setting for the floor")
    parser.add_argument("--option", action="append", default=[], help="set a scenario field for both simulators, PATH=JSON (e.g. simulation.seed=3)")
    args = parser.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    if any(m not in MODES for m in modes):
        sys.exit(f"saturation_bench.py: --modes takes {', '.join(MODES)}")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    print(f"{args.farm} farm, {args.duration:g} s simulated, runs stopped after {args.limit:g} s of CPU time"
          + (f", floor settings {' '.join(args.cfg)}" if args.cfg else "")
          + (f", sonicsim options {' '.join(args.option)}" if args.option else "") + "\n")
    print("| jobs | offered uplink load | simulator | wall s | CPU s | peak MB | load avg | requests | CPU µs / request |"
          " CPU s / simulated s | uplink utilisation | mean event s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    capacity = 100e9 if args.farm == "saturating" else 10e12
    with tempfile.TemporaryDirectory() as work:
        for jobs in (int(j) for j in args.jobs.split(",")):
            document = farm(root, jobs, args.farm, args.duration)
            for assignment in args.option:
                set_option(document, assignment)
            offered = f"{jobs * OFFERED_BPS_PER_JOB / capacity:.1%}"
            runs = []
            if args.sonicsim:
                for mode in modes:
                    name, fast = MODES[mode]
                    document["simulation"].setdefault("network", {})["fast_path"] = fast
                    path = os.path.join(work, f"scenario-{mode}.json")
                    json.dump(document, open(path, "w"))
                    runs.append((name, [args.sonicsim, "run", path, "--quiet", "--output", os.path.join(work, "out")]))
            if args.floor:
                path = os.path.join(work, "scenario-floor.json")
                json.dump(document, open(path, "w"))
                runs.append(("floor", [args.floor, path] + [f"--cfg={c}" for c in args.cfg]))
            for name, command in runs:
                wall, cpu, memory, load, out = run(command, args.limit)
                if wall is None:
                    print(f"| {jobs:,} | {offered} | {name} | | over {args.limit:g} (stopped) | {memory:,.0f} | {load:.2f} |"
                          " | | | | |", flush=True)
                    continue
                if name.startswith("sonicsim"):
                    summary = json.load(open(os.path.join(work, "out", "summary.json")))
                    requests = summary["requests"]["sent"]
                    simulated = summary["simulated_time_s"]
                    uplink = next(link["utilization"] for link in summary["links"]
                                  if link["name"] == "site-uplink (to servers)")
                    extra = f"{uplink:.4f} | {summary['events']['time_s']['mean'] or 0:.3f}"
                else:
                    fields = out.split()
                    values = dict(zip(fields[::2], map(float, fields[1::2])))
                    requests, simulated = int(values["requests"]), values["simulated_s"]
                    extra = " | "
                print(f"| {jobs:,} | {offered} | {name} | {wall:.2f} | {cpu:.2f} | {memory:,.0f} | {load:.2f} | {requests:,} | "
                      f"{cpu / max(requests, 1) * 1e6:,.0f} | {cpu / simulated:.4f} | {extra} |", flush=True)


if __name__ == "__main__":
    main()
