#!/usr/bin/env python3
"""Time to answer of `sonicsim plan`, against the search it replaced.

For each bundled scenario, runs `sonicsim plan` (closed-form start, secant, stopping rule) and the
previous search: bisection over [1, worker cores] from a probe at every worker core, every probe a
whole run without a stopping rule, then the CPU-only run for the speed-up. Both use the same
simulator (runs without a stopping rule are unchanged), so the knees must agree. Prints a
Markdown table: knee, runs, simulated seconds and wall seconds, before and after.

  python3 bench/plan_bench.py --sonicsim build/sonicsim [--scenarios scenarios]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

CASES = [  # (label, scenario file, extra --set)
    ("protodune-2021-sonic", "protodune-2021-sonic.json", []),
    ("protodune-2021-sonic-batch235", "protodune-2021-sonic-batch235.json", []),
    ("protodune-h100-calibrated", "protodune-h100-calibrated.json", []),
    ("cms-particlenet-gpus (MI100)", "cms-particlenet-gpus.json", []),
    ("cms-particlenet-gpus (A100)", "cms-particlenet-gpus.json", ['/platform/servers/0/device="A100"']),
]


def summary(sonicsim, scenario, sets):
    with tempfile.TemporaryDirectory() as out:
        args = [sonicsim, "run", scenario, "--quiet", "--output", out, "--set", "/simulation/outputs=[]"]
        for s in sets:
            args += ["--set", s]
        subprocess.run(args, check=True)
        with open(os.path.join(out, "summary.json")) as f:
            return json.load(f)


def previous_plan(sonicsim, scenario, sets, tolerance=0.05, link_threshold=0.9):
    with open(scenario) as f:
        document = json.load(f)
    cores = sum(p["nodes"] * p["cores_per_node"] for p in document["platform"]["worker_pools"])
    runs, simulated = 0, 0.0

    def probe(jobs, more=()):
        nonlocal runs, simulated
        s = summary(sonicsim, scenario, list(sets) + [f"/workload/jobs={jobs}", *more])
        runs += 1
        simulated += s["simulated_time_s"]
        return s

    baseline = probe(1)["events"]["time_s"]["mean"]

    def within(s):
        busiest = max((l["utilization"] for l in s["links"]), default=0)
        return s["events"]["time_s"]["mean"] <= (1 + tolerance) * baseline and busiest <= link_threshold

    lo, hi = 1, cores
    if within(probe(hi)):
        lo = hi
    else:
        while hi - lo > 1:
            mid = lo + (hi - lo) // 2
            lo, hi = (mid, hi) if within(probe(mid)) else (lo, mid)
    uses_fallback = all("cpu_fallback" in m for m in document["workload"]["modules"] if m["type"] == "inference")
    if uses_fallback:
        probe(1, ["/platform/servers=[]"])
    return lo, runs, simulated


def current_plan(sonicsim, scenario, sets):
    args = [sonicsim, "plan", scenario]
    for s in sets:
        args += ["--set", s]
    text = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    knee = re.search(r"largest job count within tolerance: (\d+)", text) or re.search(r"no knee up to (\d+) jobs", text)
    searched = re.search(r"search: (\d+) runs, (\d+) s simulated", text)
    return int(knee.group(1)) if knee else None, int(searched.group(1)), float(searched.group(2))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sonicsim", required=True)
    parser.add_argument("--scenarios", default=os.path.join(os.path.dirname(__file__), "..", "scenarios"))
    args = parser.parse_args()
    print("| scenario | knee before | knee after | runs before | runs after | simulated s before | simulated s after | "
          "fewer simulated s | wall s before | wall s after |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for label, name, sets in CASES:
        scenario = os.path.join(args.scenarios, name)
        t0 = time.monotonic()
        knee_before, runs_before, sim_before = previous_plan(args.sonicsim, scenario, sets)
        t1 = time.monotonic()
        knee_after, runs_after, sim_after = current_plan(args.sonicsim, scenario, sets)
        t2 = time.monotonic()
        print(f"| {label} | {knee_before} | {knee_after} | {runs_before} | {runs_after} | {sim_before:,.0f} | "
              f"{sim_after:,.0f} | {sim_before / sim_after:.1f}x | {t1 - t0:.1f} | {t2 - t1:.1f} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
