#!/usr/bin/env python3
"""Runs the validation suite (scenarios/validation/cases.json): every published SONIC result that
sonicsim can express, simulated and compared with its published value and tolerance. Prints a table,
writes a Markdown report (and, with --plot, a plot of the errors, drawn with matplotlib), and exits 1
when a case is outside its tolerance without a stated reason ("known_deviation").

  run_suite.py --sonicsim build/sonicsim [--cases scenarios/validation/cases.json]
               [--report docs/validation.md] [--plot docs/validation.png]
               [--nvidia-levels subset|all] [--nvidia-predictions docs/validation-nvidia.csv]
               [--nvidia-plot docs/validation-nvidia.png]
               [--cms full|subset|none] [--cms-plot docs/validation-cms.png] [--plan-output RUN=FILE ...]

The NVIDIA Triton cases (cases.json "nvidia", analysis/validation/nvidia_suite.py) simulate, by
default, the few concurrency levels of "subset" and check them against the committed predictions
of every level (--nvidia-predictions); --nvidia-levels all simulates every level (a few minutes)
and rewrites that file. Their report section and figure come from that file either way.

Each published-results case's 90% band over its declared unknowns (cases.json "published_bands") is read from
the frozen scenarios/validation/predictions/published.json (published_bands.py); a stale file fails the suite.

The CMS Mini-AOD cases (cases.json "cms_miniaod", cms_miniaod.py) take some minutes on two cores; --cms
subset runs only the smallest and largest job count of each model (no crossings, no cross-site scans), whose
rows are the full report's, byte for byte.
"""
import argparse
import json
import os
import sys
import tempfile

import nvidia_suite
import cms_miniaod
import published_bands
from suite_runs import fail, run_plan, run_scan, run_scenario, scan_case
import scores
import suite_figures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sonicsim", required=True)
    parser.add_argument("--cases", default=os.path.join(os.path.dirname(__file__), "..", "..", "scenarios", "validation",
                                                        "cases.json"))
    parser.add_argument("--report")
    parser.add_argument("--plot")
    parser.add_argument("--nvidia-levels", choices=["subset", "all"], default="subset")
    parser.add_argument("--nvidia-predictions",
                        default=os.path.join(os.path.dirname(__file__), "..", "..", "docs", "validation-nvidia.csv"))
    parser.add_argument("--nvidia-plot")
    parser.add_argument("--cms", choices=("full", "subset", "none"), default="full",
                        help="the CMS Mini-AOD cases: all, the smallest and largest N of each model, or none")
    parser.add_argument("--no-scores", action="store_true",
                        help="leave out the frozen predictions' scores (scores.py --report writes that section alone)")
    parser.add_argument("--cms-plot", help="the CMS figure: per-job throughput against jobs, per model")
    parser.add_argument("--plan-output", action="append", default=[], metavar="RUN=FILE",
                        help="read plan run RUN's output from FILE, which holds what the plan command of cases.json "
                             "printed, instead of planning again (ctest shares such a plan between its tests)")
    args = parser.parse_args()
    saved_plans = {}
    for given in args.plan_output:
        name, _, path = given.partition("=")
        if not path:
            fail(f"--plan-output: expected RUN=FILE, got {given!r}")
        saved_plans[name] = path
    if args.plot or args.nvidia_plot or args.cms_plot:  # before any simulation runs: a re-run with another interpreter starts over
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
        import python_interpreter
        python_interpreter.require("matplotlib", "python3-matplotlib", "run_suite.py")
    try:
        with open(args.cases) as f:
            suite = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        fail(f"{args.cases}: {e}")
    published_bands.validate(suite, args.cases)
    base = os.path.dirname(os.path.abspath(args.cases))

    runs = {}
    scans = {}
    with tempfile.TemporaryDirectory() as work:
        for name, spec in suite["runs"].items():
            runs[name] = run_plan(args.sonicsim, base, spec, saved_plans.pop(name, None)) if "plan" in spec \
                else run_scenario(args.sonicsim, base, name, spec, work)
        if saved_plans:
            fail(f"--plan-output: no plan run named {', '.join(sorted(saved_plans))} in {args.cases}")
        for scan in suite.get("scans", []):
            scans[scan["id"]] = run_scan(args.sonicsim, base, suite, scan, work)
        nvidia_problems = []
        if "nvidia" in suite:
            nvidia_problems = nvidia_suite.predict(args.sonicsim, base, suite["nvidia"], args.nvidia_levels,
                                                   args.nvidia_predictions, work)
        cms_cases, cms_details = ([], None) if args.cms == "none" or "cms_miniaod" not in suite else \
            cms_miniaod.run(suite, base, args.sonicsim, work, subset=args.cms == "subset")
    nvidia = nvidia_suite.compare(base, suite["nvidia"], args.nvidia_predictions) if "nvidia" in suite else []
    results = []
    for scan in suite.get("scans", []):
        case, simulated = scan_case(scan, scans[scan["id"]])
        error = (simulated - case["published"]) / case["published"]
        status = "ok" if abs(error) <= case["tolerance"] else ("known deviation" if case.get("known_deviation") else "FAIL")
        results.append(dict(case, simulated=simulated, error=error, status=status))
    for case in suite["cases"]:
        try:
            value = float(eval(case["value"], {"__builtins__": {}}, {"runs": runs}))
        except Exception as e:  # a metric the runs did not produce
            fail(f"{args.cases}: case {case['id']}: cannot evaluate {case['value']!r}: {e}")
        error = (value - case["published"]) / case["published"]
        within = abs(error) <= case["tolerance"]
        status = "ok" if within else ("known deviation" if case.get("known_deviation") else "FAIL")
        results.append(dict(case, simulated=value, error=error, status=status))
    stale_bands = "published_bands" in suite and not published_bands.current(suite, base)
    frozen = {} if stale_bands else published_bands.bands()
    for r in results:  # the frozen 90% band of each case's value over its declared unknowns
        r["band"] = frozen.get(r["id"])

    width = max(len(r["id"]) for r in results)
    print(f"{'case':{width}}  {'published':>10}  {'simulated':>10}  {'error':>8}  {'tol.':>5}  role / status")
    for r in results:
        print(f"{r['id']:{width}}  {r['published']:>10g}  {r['simulated']:>10.4g}  {100 * r['error']:>+7.2f}%  "
              f"{100 * r['tolerance']:>4.0f}%  {r['role']} / {r['status']}")
    for line in nvidia_suite.summary_lines(nvidia):
        print(line)
    if stale_bands:
        print("stale published-results bands (run analysis/validation/predict.py --source published)")
    for problem in nvidia_problems:
        print(f"stale NVIDIA prediction (rerun with --nvidia-levels all): {problem}")
    for r in cms_cases:
        error = "—" if r["error"] is None else f"{100 * r['error']:+.2f}%"
        print(f"{r['id']:{width}}  {cms_miniaod.fmt(r['published']):>10}  {cms_miniaod.fmt(r['simulated']):>10}  "
              f"{error:>8}  {100 * r['tolerance']:>4.0f}%  {r['role']} / {r['status']}")

    if args.report:
        write_report(args.report, suite, results, args.plot, scans)
        if nvidia:
            link = os.path.relpath(args.nvidia_plot, os.path.dirname(args.report)) if args.nvidia_plot else None
            with open(args.report, "a") as f:
                f.write("\n".join(nvidia_suite.report_lines(suite["nvidia"], nvidia, link)) + "\n")
        if cms_details:
            cms_plot = os.path.relpath(args.cms_plot, os.path.dirname(args.report)) if args.cms_plot else None
            with open(args.report, "a") as f:
                f.write("\n".join(cms_miniaod.report_lines(suite, cms_cases, cms_details, cms_plot)) + "\n")
    if args.report and not args.no_scores:
        with open(args.report, "a") as f:  # the frozen predictions' bands and skill (scores.py reads them)
            f.write("\n".join(scores.report_lines(scores.make_summary(suite, base, os.path.abspath(args.sonicsim))[0],
                                                  scores.FIGURES, suite))
                    + "\n")
    if args.plot:
        baselines = {r["case"]: {k: b["value"] for k, b in r["baselines"].items()}
                     for r in scores.published_targets(suite, base, os.path.abspath(args.sonicsim))}
        suite_figures.errors_figure(args.plot, [dict(r, baselines=baselines.get(r["id"], {})) for r in results])
    if args.nvidia_plot and nvidia:
        suite_figures.nvidia_figure(args.nvidia_plot, suite["nvidia"], base, nvidia)
    if args.cms_plot and cms_details:
        suite_figures.cms_figure(args.cms_plot, cms_details, suite["cms_miniaod"]["tolerances"]["median"])
    failed = (any(r["status"] == "FAIL" for r in results + cms_cases) or nvidia_problems or stale_bands
              or nvidia_suite.failures(nvidia))
    return 1 if failed else 0


def write_report(path, suite, results, plot, scans):
    lines = ["# Validation against the published SONIC results", "",
             "Generated by `analysis/validation/run_suite.py` from `scenarios/validation/cases.json`; "
             "do not edit by hand.", "", suite["about"], "",
             "| case | published claim | source | published | simulated | 90% band | error | tolerance | role | status |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    unanswered = published_bands.unanswered()
    for r in results:
        band = "—" if not r.get("band") else f"{r['band'][1]:.4g} to {r['band'][2]:.4g}" + (
            f" ({unanswered[r['id']]})" if r["id"] in unanswered else "")
        lines.append(f"| {r['id']} | {r['claim']} | {r['source']} | {r['published']:g} {r['unit']} | "
                     f"{r['simulated']:.4g} {r['unit']} | {band} | {100 * r['error']:+.2f}% | "
                     f"{100 * r['tolerance']:.0f}% | {r['role']} | {r['status']} |")
    if "published_bands" in suite:
        spec = suite["published_bands"]
        lines += ["", "### The declared unknowns behind the 90% bands", "", spec["about"] + f" {spec['samples']} points "
                  "per group (analysis/validation/predict.py --source published).", "",
                  "| group | unknown | range | where | why |", "|---|---|---|---|---|"]
        for g in spec["groups"]:
            for u in g["unknowns"]:
                where = ", ".join(u.get("set", [])) or ", ".join(f"{p} ({'÷' if w == -1 else '×'} the draw)"
                                                               for p, w in u.get("scale", {}).items())
                runs = f" ({', '.join(u['runs'])})" if "runs" in u else ""
                shape = f", {u['distribution']}" if "distribution" in u else ""
                lines.append(f"| {g['id']} | {u['name']} | {u['between'][0]} to {u['between'][1]}{shape} | "
                             f"{where}{runs} | {u['why']} |")
    deviations = [r for r in results if r["status"] != "ok"]
    if deviations:
        lines += ["", "## Outside the tolerance", ""]
        for r in deviations:
            lines.append(f"- **{r['id']}** ({100 * r['error']:+.2f}%): {r.get('known_deviation', 'no reason recorded')}")
    if scans:
        lines += ["", "## Through-server scans, per batch size", "", suite["scans_about"], ""]
        ids = list(scans)
        batches = [b for b, _, _ in scans[ids[0]]]
        lines.append("| scan | role | " + " | ".join(f"b={b}" for b in batches) + " |")
        lines.append("|---|---|" + "---|" * len(batches))
        roles = {s["id"]: s["role"] for s in suite["scans"]}
        for i in ids:
            cells = [f"{1e3 * sim:.3g} / {1e3 * pub:.3g} ({100 * (sim / pub - 1):+.0f}%)" for _, pub, sim in scans[i]]
            lines.append(f"| {i} | {roles[i]} | " + " | ".join(cells) + " |")
        lines += ["", "Cells: simulated / measured latency in ms (error)."]
    lines += ["", "## Published results the simulator cannot express yet", ""]
    for n in suite["not_expressed"]:
        lines.append(f"- {n['claim']}: {n['why']}")
    if plot:
        lines += ["", f"![relative error of each case]({os.path.relpath(plot, os.path.dirname(path))})", "",
                  "Each case's error (simulated / published - 1) is a point on its row, its tolerance the shaded band, "
                  "the black bar the 90% band of its value over the declared unknowns above, thin grey ticks the "
                  "baselines of the cases scored in the last section ((a) no contention, (b) the offline ceiling, "
                  "(c) analytic's closed form, from calibration inputs alone); the marker is its role: hollow grey "
                  "squares (and '(calibration)' after the name) are calibration "
                  "inputs, which check consistency only; blue diamonds are derived, green dots independent. The axis "
                  "is centred on 0, the published value."]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
