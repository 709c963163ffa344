#!/usr/bin/env python3
"""sonicsim against the SimGrid floor, side by side, on the ProtoDUNE-like farm of issue 18: the bundled
ProtoDUNE 2021 scenario grown to 1,000 jobs on 10 T4 GPUs, 300 simulated seconds. Runs `sonicsim run`
and `simgrid_floor` alternately --repeat times, each in its own process, and prints the requests each
simulates per second of the process's wall time (start-up and outputs included; both are
single-threaded): medians, the fastest run, and sonicsim's rate over the floor's. On a shared virtual
machine single runs vary by up to a third; the fastest of several runs is the least disturbed.

With --count, both also run once under valgrind's callgrind, and the table gives per simulated request
what SimGrid did: actor context switches, simcalls, activities started (transfers, executions, sleeps,
semaphore acquisitions) and engine steps (solve calls). It needs valgrind and takes a few minutes.

  floor_ratio.py --sonicsim build/sonicsim --floor build/simgrid_floor [--repeat 7] [--count]
"""
import argparse
import collections
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

JOBS, GPUS, DURATION_S = 1000, 10, 300

# What each counted SimGrid 3.32 function stands for; the number of calls is the number of events.
COUNTED = [
    ("context switches", "RawContext::swap_into_for_real"),
    ("simcalls", "ActorImpl::simcall_handle"),
    ("transfers started", "CommImpl::start()"),
    ("executions started", "ExecImpl::start()"),
    ("sleeps started", "SleepImpl::start()"),
    ("semaphore acquisitions", "SemaphoreImpl::acquire"),
    ("engine steps", "EngineImpl::solve(double)"),
]


def floor_run(floor, scenario):
    """Wall seconds of one simgrid_floor process and the requests it simulated."""
    start = time.perf_counter()
    stdout = subprocess.run([floor, scenario], check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - start, int(stdout.split()[1])


def sonicsim_run(sonicsim, scenario, out):
    """Wall seconds of one `sonicsim run` process and the requests it simulated."""
    wall, _, requests, _ = bench.run_once(sonicsim, scenario, out)
    return wall, requests


def callgrind_counts(command, work, name):
    """Calls of each COUNTED function in one run under callgrind."""
    out = os.path.join(work, f"callgrind.{name}")
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + command, check=True,
                   capture_output=True)
    names, calls, callee = {}, collections.Counter(), None
    for line in open(out):
        if line.startswith("cfn="):
            m = re.match(r"cfn=\((\d+)\)(?: (.*))?", line.strip())
            if m.group(2):
                names[m.group(1)] = m.group(2)
            callee = names.get(m.group(1), "")
        elif line.startswith("fn="):
            m = re.match(r"fn=\((\d+)\)(?: (.*))?", line.strip())
            if m and m.group(2):
                names[m.group(1)] = m.group(2)
        elif line.startswith("calls="):
            calls[callee] += int(line.split()[0][len("calls="):])
        elif line.startswith("totals:") or line.startswith("summary:"):
            calls["instructions"] = int(line.split()[1])
    counts = {label: sum(n for f, n in calls.items() if function in f) for label, function in COUNTED}
    counts["instructions"] = calls["instructions"]
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sonicsim", required=True)
    parser.add_argument("--floor", required=True, help="the simgrid_floor executable")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--count", action="store_true", help="also count SimGrid's work per request (valgrind)")
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    with tempfile.TemporaryDirectory() as work:
        scenario = os.path.join(work, "farm.json")
        json.dump(bench.protodune_farm(root, JOBS, GPUS, DURATION_S), open(scenario, "w"))
        out = os.path.join(work, "out")
        print(f"ProtoDUNE-like farm: {JOBS:,} jobs, {GPUS} T4 GPUs, {DURATION_S} simulated s; "
              f"{args.repeat} runs each, alternating\n")
        print("| run | sonicsim requests | wall (s) | floor requests | wall (s) |")
        print("|---|---|---|---|---|")
        runs = {"sonicsim": [], "floor": []}
        for k in range(args.repeat):
            runs["sonicsim"].append(sonicsim_run(args.sonicsim, scenario, out))
            runs["floor"].append(floor_run(args.floor, scenario))
            (wall, requests), (floor_wall, floor_requests) = runs["sonicsim"][-1], runs["floor"][-1]
            print(f"| {k + 1} | {requests:,} | {wall:.3f} | {floor_requests:,} | {floor_wall:.3f} |", flush=True)
        print("\n| requests / wall second | sonicsim | floor | ratio |")
        print("|---|---|---|---|")
        for label, pick in [("median", statistics.median), ("fastest", min)]:
            rate = {name: r[0][1] / pick(wall for wall, _ in r) for name, r in runs.items()}
            print(f"| {label} | {rate['sonicsim']:,.0f} | {rate['floor']:,.0f} | {rate['sonicsim'] / rate['floor']:.2f} |")

        if args.count:
            counts = {"sonicsim": callgrind_counts([args.sonicsim, "run", scenario, "--quiet", "--output", out], work,
                                                   "sonicsim"),
                      "floor": callgrind_counts([args.floor, scenario], work, "floor")}
            requests = {name: r[0][1] for name, r in runs.items()}
            print("\nSimGrid's work per simulated request (callgrind call counts / requests)\n")
            print("| | sonicsim | floor |")
            print("|---|---|---|")
            for label in ["instructions"] + [label for label, _ in COUNTED]:
                print(f"| {label} | {counts['sonicsim'][label] / requests['sonicsim']:,.2f} | "
                      f"{counts['floor'][label] / requests['floor']:,.2f} |")


if __name__ == "__main__":
    main()
