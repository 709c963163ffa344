#!/usr/bin/env python3
"""Makes the validation suite's frozen predictions (analysis/validation/predictions.py) from the scenarios
alone: `sonicsim run --samples S` over each case's declared unknowns, written under
scenarios/validation/predictions/. The comparison (run_suite.py) reads these files; nothing here reads a
target but the job counts N of the CMS per-job files (where to predict, not what).

    analysis/validation/predict.py --sonicsim build/sonicsim [--source nvidia|cms|published] [--case ID ...] [--jobs 2]
                                   [--cache FILE] [--minutes M] [--check]

A file whose inputs (scenario, the files it names, samples, --set values) have not changed is kept, so an
interrupted run (--minutes: no new simulation starts after M minutes; exit 3) goes on where it stopped. CMS
models are predicted at the N of their measured files, then at the N the root-finding of every run's
crossing below the CPU-only rate asks for (predictions.next_job_counts) until each is bracketed within
2 jobs or 2%, going on from the N an earlier root-finding simulated whose files are current. --check
simulates the subset cases.json names ("frozen_check") and exits 1 unless it equals the committed files,
every file is current and every CMS model's root-finding is complete. The published-results cases' bands are
one file, predictions/published.json (published_bands.py), made whole (21 minutes with --jobs 2 on two cores).
"""
import argparse
import json
import os
import sys
import time

import cms_miniaod
import nvidia_suite
import predictions
import published_bands

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
CASES = os.path.join(REPO, "scenarios", "validation", "cases.json")
OUT = os.path.join(REPO, "scenarios", "validation", "predictions")


class OutOfTime(Exception):
    pass


class Maker:
    def __init__(self, sonicsim, jobs, minutes):
        self.sonicsim, self.jobs = os.path.abspath(sonicsim), jobs
        self.deadline = None if minutes is None else time.monotonic() + 60 * minutes
        self.made = 0

    def ensure(self, path, scenario, samples, sets=()):
        """The prediction at `path`, made unless the committed one is current."""
        if predictions.current(path, scenario, samples, sets):
            return predictions.read(path)
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise OutOfTime()
        started = time.monotonic()
        document = predictions.prediction(self.sonicsim, REPO, scenario, samples, sets, self.jobs)
        predictions.write(path, document)
        self.made += 1
        print(f"{os.path.relpath(path, REPO)}: {samples} runs in {time.monotonic() - started:.0f} s", flush=True)
        return document


def cms_targets(suite, base):
    """Per CMS model or cross-site scan: (id, scenario path, samples, data N, CPU-only level, whether its crossing
    is root-found: cases.json "root_finding": false freezes the data's N only, and no crossing is scored)."""
    cms = suite["cms_miniaod"]
    data = os.path.join(base, cms["data"])
    cpu_only = {r["figure"].split(" ")[0]: float(r["events_per_s"])
                for r in cms_miniaod.read_csv(os.path.join(data, cms["cpu_only"]))}
    out = []
    for m in (m for m in cms["models"] if "samples" in m):  # a model without "samples" has no frozen bands yet
        folder = os.path.join(data, m["jobs"])
        ns = sorted({len(cms_miniaod.read_rates(os.path.join(folder, name))[0]) for name in os.listdir(folder)})
        out.append((m["id"], os.path.join(base, m["scenario"]), m["samples"], ns, cpu_only[m["cpu_only"]],
                    m.get("root_finding", True)))
    rows = cms_miniaod.read_csv(os.path.join(data, cms["cross_site_data"]))
    for s in (s for s in cms["cross_site"] if "samples" in s):
        ns = sorted({int(r["jobs"]) for r in rows if r["server_site"] == s["server_site"]})
        out.append((s["id"], os.path.join(base, s["scenario"]), s["samples"], ns, cpu_only[s["cpu_only"]],
                    s.get("root_finding", True)))
    return out


def nvidia_sets(suite, base, case):
    """The levels a case's bands are made at: cases.json "band_levels" that its online table measures."""
    measured = nvidia_suite.measured(os.path.join(base, case["measured"]))
    levels = sorted(set(suite["nvidia"]["band_levels"]) & set(measured))
    return (("/perf_analyzer/concurrency", json.dumps(levels, separators=(",", ":"))),)


def job_sets(n):
    return (("/platform/worker_pools/0/nodes", str(n)), ("/workload/jobs", str(n)))


def cms_path(model, n):
    return os.path.join(OUT, "cms", model, f"n{n}.json")


def frozen_counts(model):
    """The N of a CMS model's frozen files (nN.json), ascending; [] where none is frozen."""
    folder = os.path.join(OUT, "cms", model)
    if not os.path.isdir(folder):
        return []
    return sorted(int(name[1:-5]) for name in os.listdir(folder) if name.endswith(".json"))


def predict_cms_model(maker, model, scenario, samples, ns):
    """Every N of the model, the data's then the root-finding's; returns {N: document}."""
    documents = {n: maker.ensure(cms_path(model, n), scenario, samples, job_sets(n)) for n in ns}
    return documents


def complete_cms_model(maker, target):
    model, scenario, samples, ns, level, root_finding = target
    # Root-finding goes on from the N an earlier one simulated whose inputs are unchanged; stale ones are
    # dropped below, not simulated again.
    earlier = frozen_counts(model) if root_finding else []
    kept = [n for n in earlier if predictions.current(cms_path(model, n), scenario, samples, job_sets(n))]
    documents = predict_cms_model(maker, model, scenario, samples, sorted(set(ns) | set(kept)))
    while root_finding:
        more = predictions.next_job_counts(documents, level)
        if not more:
            break
        documents.update(predict_cms_model(maker, model, scenario, samples, more))
    for n in earlier:  # what an earlier root-finding asked for, this one not
        if n not in documents:
            os.remove(cms_path(model, n))
    return documents


def check(suite, base, sonicsim):
    """Problems: stale or missing files, unfinished root-finding, and re-simulated values that differ."""
    problems = []
    spec = suite["frozen_check"]
    for case in suite["nvidia"]["cases"]:
        path = os.path.join(OUT, "nvidia", f"{case['id']}.json")
        if not predictions.current(path, os.path.join(base, case["scenario"]), suite["nvidia"]["samples"],
                                   nvidia_sets(suite, base, case)):
            problems.append(f"{os.path.relpath(path, REPO)} is stale or missing")
    for model, scenario, samples, ns, level, root_finding in cms_targets(suite, base):
        documents = {}
        for n in frozen_counts(model):
            if not predictions.current(cms_path(model, n), scenario, samples, job_sets(n)):
                problems.append(f"{os.path.relpath(cms_path(model, n), REPO)} is stale")
            documents[n] = predictions.read(cms_path(model, n))
        missing = [n for n in ns if n not in documents]
        if missing or (root_finding and predictions.next_job_counts(documents, level)):
            problems.append(f"{model}: the prediction is not complete (run predict.py --case {model})")
    if problems:
        return problems
    problems += published_bands.check(sonicsim, suite, base)
    nv = spec["nvidia"]
    case = next(c for c in suite["nvidia"]["cases"] if c["id"] == nv["case"])
    levels = str(nv["levels"]).replace(" ", "")
    fresh = predictions.run_design(sonicsim, os.path.join(base, case["scenario"]), suite["nvidia"]["samples"],
                                   (("/perf_analyzer/concurrency", levels),))
    committed = predictions.read(os.path.join(OUT, "nvidia", f"{case['id']}.json"))
    for o in fresh["outputs"]:
        if predictions.output_values({"bands": fresh}, o["output"]) != predictions.output_values(committed, o["output"]):
            problems.append(f"{case['id']}: {o['output']}: re-simulated runs differ from the committed prediction")
    cms = spec["cms"]
    target = next(t for t in cms_targets(suite, base) if t[0] == cms["model"])
    fresh = predictions.run_design(sonicsim, target[1], target[2], job_sets(cms["n"]))
    if fresh["runs"] != predictions.read(cms_path(cms["model"], cms["n"]))["bands"]["runs"]:
        problems.append(f"{cms['model']} at {cms['n']} jobs: re-simulated runs differ from the committed prediction")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sonicsim", required=True)
    parser.add_argument("--source", choices=("nvidia", "cms", "published"))
    parser.add_argument("--case", nargs="+", help="only these NVIDIA case or CMS model ids")
    parser.add_argument("--jobs", type=int, default=1, help="runs at once (sonicsim run --jobs)")
    parser.add_argument("--minutes", type=float, help="start no simulation after this many minutes (then exit 3)")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--cache", help="--source published: keep each run's result in this file (JSON lines) and "
                                        "reuse them, so that an interrupted design goes on where it stopped")
    args = parser.parse_args()
    suite = cms_miniaod.load_json(CASES)
    published_bands.validate(suite, CASES)
    base = os.path.dirname(CASES)
    if args.check:
        problems = check(suite, base, os.path.abspath(args.sonicsim))
        for p in problems:
            print(f"predict.py: {p}", file=sys.stderr)
        return 1 if problems else 0
    maker = Maker(args.sonicsim, args.jobs, args.minutes)
    wanted = lambda i: not args.case or i in args.case
    try:
        if args.source in (None, "nvidia"):
            for case in suite["nvidia"]["cases"]:
                if wanted(case["id"]):
                    maker.ensure(os.path.join(OUT, "nvidia", f"{case['id']}.json"), os.path.join(base, case["scenario"]),
                                 suite["nvidia"]["samples"], nvidia_sets(suite, base, case))
        if args.source in (None, "cms"):
            for target in cms_targets(suite, base):
                if wanted(target[0]):
                    complete_cms_model(maker, target)
        if args.source in (None, "published") and not args.case and not published_bands.current(suite, base):
            started = time.monotonic()
            published_bands.make(maker.sonicsim, suite, base, args.jobs, args.cache)
            maker.made += 1
            print(f"scenarios/validation/predictions/published.json: made in {time.monotonic() - started:.0f} s",
                  flush=True)
    except OutOfTime:
        print(f"predict.py: {maker.made} predictions made; out of time: run it again to go on", file=sys.stderr)
        return 3
    print(f"predict.py: {maker.made} predictions made, the others current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
