"""The CMS Mini-AOD SONIC cases of the validation suite (cases.json "cms_miniaod"; docs/validation-sources.md §1).

Per model, the scenario (scenarios/validation/cms-miniaod/, one T4, kernel and frontend calibrated on the
perf_analyzer scans only) is run at every job count N of the measured per-job throughput files, and the
simulated jobs' events/s are compared with the file's: the median (target, within 5%), the mean, p10, p90 and
the KS statistic (reported). The job count where the median falls below the CPU-only rate: measured, linear
in N between the two measured files either side of it; predicted, root-found on runs (simulated_crossing: N
bisected until the crossing is bracketed within 1 job); target within 15%. The cross-site scans (one value
per N, clients at Purdue) are compared the same way. A CMSSW job of 4 threads and 4 streams is one threaded job of the scenario (workload
`threads`, ExternalWork modules), its rate the events/s of jobs.csv; a scenario without `threads` has 4
single-core jobs per node instead, and a job's rate is the sum of its streams' events over their wall times.
"""
import bisect
import concurrent.futures
import csv
import json
import os
import re
import statistics
import subprocess

import declared

STREAMS = 4


def read_rates(path):
    """The per-job values of a log (blank and '#' lines skipped) and whether the paper's figure draws it."""
    values, drawn = [], True
    with open(path, encoding="utf-8") as f:
        for line in f:
            text = line.strip()
            if text.startswith("# drawn in the paper's GPU-saturation figure: no"):
                drawn = False
            if text and not text.startswith("#"):
                values.append(float(text))
    return values, drawn


def read_csv(path):
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def quantile(values, q):
    """Linear interpolation between order statistics (numpy's default)."""
    v = sorted(values)
    x = q * (len(v) - 1)
    i = int(x)
    return v[i] if i + 1 >= len(v) else v[i] + (x - i) * (v[i + 1] - v[i])


def quantiles(values):
    """(median, p5, p95), linear between order statistics (as sonicsim's bands)."""
    return quantile(values, 0.5), quantile(values, 0.05), quantile(values, 0.95)


def ks_statistic(a, b):
    a, b = sorted(a), sorted(b)
    d = 0.0
    for x in a + b:
        d = max(d, abs(bisect.bisect_right(a, x) / len(a) - bisect.bisect_right(b, x) / len(b)))
    return d


def threaded(scenario):
    """Whether the scenario's jobs are CMSSW processes (workload threads), or each stream a job of its own."""
    with open(scenario, encoding="utf-8") as f:
        return "threads" in json.load(f)["workload"]


def simulate(sonicsim, scenario, jobs, out, sets=()):
    """events/s of each simulated CMSSW job: a threaded job's own (jobs.csv events_per_s), or else the sum over
    the node's single-stream jobs of events / (end - start)."""
    one_per_node = threaded(scenario)
    command = [sonicsim, "run", scenario, "--quiet", "--output", out, "--set", f"/platform/worker_pools/0/nodes={jobs}",
               "--set", f"/workload/jobs={jobs if one_per_node else STREAMS * jobs}"]
    for pointer, value in list(declared.nominal_sets(scenario)) + list(sets):  # nominal values; later --set wins
        command += ["--set", f"{pointer}={value}"]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    rows = read_csv(os.path.join(out, "jobs.csv"))
    if one_per_node:
        return [float(row["events_per_s"]) for row in rows]
    per_node = {}
    for row in rows:
        rate = int(row["events"]) / (float(row["end_s"]) - float(row["start_s"]))
        per_node[row["node"]] = per_node.get(row["node"], 0.0) + rate
    return list(per_node.values())


def _first_fall(points, level):
    """The first two consecutive (N, median) that go from at or above `level` to below it, or None."""
    points = sorted(points)
    for (n0, m0), (n1, m1) in zip(points, points[1:]):
        if m0 >= level > m1:
            return (n0, m0), (n1, m1)
    return None


def bracket(points, level):
    """The job counts (n0, n1) either side of the first fall below `level`, or None."""
    found = _first_fall(points, level)
    return None if found is None else (found[0][0], found[1][0])


def crossing(points, level):
    """The first N where the median falls below `level` between two points (linear), or None."""
    found = _first_fall(points, level)
    if found is None:
        return None
    (n0, m0), (n1, m1) = found
    return n0 + (m0 - level) * (n1 - n0) / (m0 - m1)


class Runner:
    """Runs scenario points in parallel, each once (keyed by scenario and N)."""

    def __init__(self, sonicsim, work, workers):
        self.sonicsim, self.work = sonicsim, work
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers)
        self.done = {}

    def submit(self, scenario, jobs, sets=()):
        key = (scenario, jobs, sets)
        if key not in self.done:
            out = os.path.join(self.work, f"cms-{os.path.basename(scenario)[:-5]}-{jobs}-{len(self.done)}")
            self.done[key] = self.pool.submit(simulate, self.sonicsim, scenario, jobs, out, sets)
        return self.done[key]

    def rates(self, scenario, jobs, sets=()):
        return self.submit(scenario, jobs, sets).result()


def simulated_crossing(runner, scenario, known, level, growth=1.25, limit=8, sets=()):
    """The simulated crossing, root-found on runs: from the medians at the data's N, N is stepped outwards by
    `growth` until two simulated N bracket the crossing, then the bracket is bisected (a run at its middle N)
    until it is 1 job wide; the value is linear within that 1-job bracket. A straight segment across a coarse
    bracket would cut the knee's corner (a saturating median is convex in N). Returns (the crossing or None,
    every simulated (N, median))."""
    points = dict(known)
    for _ in range(limit):
        if bracket(points.items(), level) is not None:
            break
        ns = sorted(points)
        n = round(ns[-1] * growth) if points[ns[-1]] >= level else max(1, round(ns[0] / growth))
        if n in points:
            return None, sorted(points.items())
        points[n] = statistics.median(runner.rates(scenario, n, sets))
    found = bracket(points.items(), level)
    while found is not None and found[1] - found[0] > 1:
        middle = (found[0] + found[1]) // 2
        points[middle] = statistics.median(runner.rates(scenario, middle, sets))
        found = bracket(points.items(), level)
    return crossing(points.items(), level), sorted(points.items())


def run(suite, base, sonicsim, work, subset=False, workers=None):
    """Every CMS case: returns (cases, details) where details feeds the report's tables and the figure."""
    cms = suite["cms_miniaod"]
    data = os.path.join(base, cms["data"])
    cpu_only = {r["figure"].split(" ")[0]: float(r["events_per_s"]) for r in read_csv(os.path.join(data, cms["cpu_only"]))}
    runner = Runner(sonicsim, work, workers or os.cpu_count() or 1)
    models = []
    for m in cms["models"]:
        folder = os.path.join(data, m["jobs"])
        files = []
        for name in sorted(os.listdir(folder)):
            values, drawn = read_rates(os.path.join(folder, name))
            files.append({"file": name, "n": len(values), "measured": values, "drawn": drawn})
        files.sort(key=lambda f: (f["n"], f["file"]))
        if subset:
            files = [files[0], files[-1]]
        scenario = os.path.join(base, m["scenario"])
        for f in files:
            runner.submit(scenario, f["n"])
        models.append(dict(m, files=files, scenario_path=scenario, level=cpu_only[m["cpu_only"]]))
    sites = [] if subset else cms["cross_site"]
    cross_rows = read_csv(os.path.join(data, cms["cross_site_data"])) if sites else []
    for s in sites:
        for r in cross_rows:
            if r["server_site"] == s["server_site"]:
                runner.submit(os.path.join(base, s["scenario"]), int(r["jobs"]))

    cases = []
    tol = cms["tolerances"]
    for m in models:
        for f in m["files"]:
            f["simulated"] = runner.rates(m["scenario_path"], f["n"])
            measured, simulated = statistics.median(f["measured"]), statistics.median(f["simulated"])
            f["stats"] = {k: (fn(f["measured"]), fn(f["simulated"])) for k, fn in
                          (("mean", statistics.mean), ("p10", lambda v: quantile(v, 0.1)),
                           ("p50", statistics.median), ("p90", lambda v: quantile(v, 0.9)))}
            f["ks"] = ks_statistic(f["measured"], f["simulated"])
            twin = sum(g["n"] == f["n"] for g in m["files"]) > 1  # two logs of one size: named by their files
            suffix = f"-{os.path.splitext(f['file'])[0].lower()}" if twin else ""
            cases.append(case(cms, f"cms-{m['id']}-n{f['n']}{suffix}", f"{m['label']}: median per-job events/s, {f['n']} jobs"
                              + ("" if f["drawn"] else " (file not drawn in the paper's figure)"),
                              f"{m['jobs']}/{f['file']}", measured, simulated, "events/s", tol["median"], "target"))
        if subset:
            continue
        drawn = [(f["n"], statistics.median(f["measured"])) for f in m["files"] if f["drawn"]]
        measured_x = crossing(drawn, m["level"])
        known = {f["n"]: statistics.median(f["simulated"]) for f in m["files"]}
        predicted_x, m["curve"] = simulated_crossing(runner, m["scenario_path"], known, m["level"])
        m["crossing"] = (measured_x, predicted_x)
        cases.append(case(cms, f"cms-{m['id']}-crossing", f"{m['label']}: jobs where the median falls below CPU only "
                          f"({m['level']} events/s); paper: {m['paper_crossing']}", f"{m['jobs']}/ (drawn files)",
                          measured_x, predicted_x, "jobs", tol["crossing"], "target"))
    cross = []
    for s in sites:
        level = cpu_only[s["cpu_only"]]
        points, sim_points = [], []
        for r in cross_rows:
            if r["server_site"] != s["server_site"]:
                continue
            n, measured = int(r["jobs"]), float(r["events_per_s"])
            simulated = statistics.median(runner.rates(os.path.join(base, s["scenario"]), n))
            points.append((n, measured))
            sim_points.append((n, simulated))
            cases.append(case(cms, f"cms-{s['id']}-n{n}", f"{s['label']}: per-job events/s, {n} jobs",
                              cms["cross_site_data"], measured, simulated, "events/s", tol["median"], "target"))
        measured_x = crossing(points, level)
        predicted_x, curve = simulated_crossing(runner, os.path.join(base, s["scenario"]), dict(sim_points), level)
        cases.append(case(cms, f"cms-{s['id']}-crossing", f"{s['label']}: jobs where SONIC falls below CPU only "
                          f"({level} events/s); paper: about 17", cms["cross_site_data"], measured_x, predicted_x,
                          "jobs", tol["crossing"], "target"))
        cross.append(dict(s, points=points, curve=curve, level=level))
    analytic = None if subset else run_analytic(sonicsim, base, cms, models)
    sensitivity = [] if subset else [run_sensitivity(runner, base, s, models) for s in cms.get("sensitivity", [])]
    runner.pool.shutdown()
    return cases, {"models": models, "cross": cross, "analytic": analytic, "sensitivity": sensitivity}


def run_sensitivity(runner, base, spec, models):
    """The crossing of one model with its knee's per-item time scaled by `factor` and its knee batch divided by it
    (the GPU fills at 1/factor times the items): how far an assumption moves a prediction, never a prediction."""
    m = next(m for m in models if m["id"] == spec["model"])
    with open(os.path.join(base, spec["latency_file"]), encoding="utf-8") as f:
        knee = json.load(f)["forms"]["knee"]
    latency = {"type": "knee", "flat": f"{knee['flat_s'] * 1e3:.6g}ms",
               "knee_batch": round(knee["knee_batch"] / spec["factor"], 4),
               "per_item": f"{knee['per_item_s'] * spec['factor'] * 1e6:.6g}us"}
    # a plain knee has no bootstrap band to take a quantile of (the scenario's declared latency_quantile)
    sets = ((spec["pointer"], json.dumps(latency, separators=(",", ":"))), ("/simulation/latency_quantile", "null"))
    known = {f["n"]: statistics.median(runner.rates(m["scenario_path"], f["n"], sets)) for f in m["files"]}
    x, curve = simulated_crossing(runner, m["scenario_path"], known, m["level"], sets=sets)
    return dict(spec, label=m["label"], crossing=x, measured=m["crossing"][0], assumed=m["crossing"][1], curve=curve)


def case(cms, case_id, claim, source, measured, simulated, unit, tolerance, kind):
    error = None if measured is None or simulated is None else (simulated - measured) / measured
    mechanism = cms.get("known_deviations", {}).get(case_id)
    status = ("no value" if error is None else "ok" if abs(error) <= tolerance
              else "known deviation" if mechanism else "FAIL")
    return {"id": case_id, "claim": claim, "source": source, "published": measured, "simulated": simulated,
            "error": error, "tolerance": tolerance, "unit": unit, "role": kind, "status": status,
            "known_deviation": mechanism}


def run_analytic(sonicsim, base, cms, models):
    """The paper's "about 110 jobs per T4" (ParticleNet AK4) against `sonicsim analytic`'s device saturation
    (per stream, so divided by the 4 streams of a job) and the simulated crossing."""
    m = next(m for m in models if m["id"] == cms["analytic"]["model"])
    command = [sonicsim, "analytic", m["scenario_path"], "--no-simulation"]
    for pointer, value in declared.nominal_sets(m["scenario_path"]):  # analytic needs one value of each unknown
        command += ["--set", f"{pointer}={value}"]
    text = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    found = re.search(r"Devices saturate at ([\d.]+) jobs", text)
    return {"paper": cms["analytic"]["paper_jobs"], "closed_form_streams": float(found.group(1)) if found else None,
            "simulated": m["crossing"][1], "measured": m["crossing"][0], "label": m["label"]}


def error_text(c):
    return "no value" if c["error"] is None else f"{100 * c['error']:+.1f}%"


def fmt(x, digits=4):
    return "—" if x is None else f"{x:.{digits}g}"


def report_lines(suite, cases, details, plot_rel):
    cms = suite["cms_miniaod"]
    lines = ["", "## CMS Mini-AOD production with SONIC (CMS-MLG-23-001)", "", cms["about"], "",
             "| case | what | data | measured | predicted | error | tolerance | kind | status |",
             "|---|---|---|---|---|---|---|---|---|"]
    for c in cases:
        err = "—" if c["error"] is None else error_text(c)
        lines.append(f"| {c['id']} | {c['claim']} | `{c['source']}` | {fmt(c['published'])} {c['unit']} | "
                     f"{fmt(c['simulated'])} {c['unit']} | {err} | {100 * c['tolerance']:.0f}% | {c['role']} | "
                     f"{c['status']} |")
    lines += ["", "Per-job distributions (events/s, measured / predicted): mean, p10, p90, and the two-sample KS "
              "statistic (reported, not targets: the simulated clients have no spread of CPU speed, assumption 8).",
              "", "| model | jobs | mean | p10 | p90 | KS |", "|---|---|---|---|---|---|"]
    for m in details["models"]:
        for f in m["files"]:
            s = f["stats"]
            twin = sum(g["n"] == f["n"] for g in m["files"]) > 1
            jobs = f"{f['n']} ({os.path.splitext(f['file'])[0]})" if twin else f"{f['n']}"
            lines.append(f"| {m['label']} | {jobs} | {s['mean'][0]:.3f} / {s['mean'][1]:.3f} | "
                         f"{s['p10'][0]:.3f} / {s['p10'][1]:.3f} | {s['p90'][0]:.3f} / {s['p90'][1]:.3f} | "
                         f"{f['ks']:.2f} |")
    a = details["analytic"]
    if a:
        cf = a["closed_form_streams"]
        lines += ["", "### The paper's analytic estimate", "",
                  f"{a['label']}: the paper estimates about {a['paper']} four-threaded jobs per T4; "
                  f"`sonicsim analytic`, whose closed form runs one event at a time per job (one stream), saturates "
                  f"the device at {fmt(cf)} such jobs, {fmt(None if cf is None else cf / STREAMS)} four-stream jobs; "
                  f"the simulation crosses CPU only at "
                  f"{fmt(a['simulated'])} jobs; measured {fmt(a['measured'])}.", "", cms["analytic"]["explanation"]]
    if details.get("sensitivity"):
        lines += ["", "### Sensitivity to an assumption (not predictions)", "",
                  "| model | what changes | crossing, as assumed | crossing, changed | measured |", "|---|---|---|---|---|"]
        for s in details["sensitivity"]:
            lines.append(f"| {s['label']} | {s['about']} | {fmt(s['assumed'])} | {fmt(s['crossing'])} | "
                         f"{fmt(s['measured'])} |")
    deviations = [c for c in cases if c["status"] not in ("ok",)]
    if deviations:
        lines += ["", "### CMS cases outside the tolerance", ""]
        by_mechanism = {}  # cases that share one mechanism are listed together
        for c in deviations:
            by_mechanism.setdefault(c.get("known_deviation") or "no mechanism recorded", []).append(c)
        for mechanism, group in by_mechanism.items():
            names = ", ".join(f"**{c['id']}** ({error_text(c)})" for c in group)
            lines.append(f"- {names}: {mechanism}")
    if plot_rel:
        panels = cms["models"] + cms["cross_site"]
        frozen = ", ".join(m["label"] for m in panels if "samples" in m) or "none"
        bands = ("frozen 90% band (every panel has one)" if all("samples" in m for m in panels) else
                 f"frozen 90% band where one is frozen ({frozen}; the other panels say 'nominal only')")
        lines += ["", f"![per-job throughput against jobs, predicted and measured, per model]({plot_rel})", "",
                  "Per model and cross-site scan: the measured median per-job events/s with the p10-p90 of its jobs "
                  "(cross-site: one value per N, no scatter published) and the tolerance band around it "
                  f"(±{100 * cms['tolerances']['median']:.0f}%); the nominal predicted median at every simulated N; the "
                  f"{bands}; baseline (a), "
                  "the CPU-only rate (a calibration input), as a thin dashed line. The predicted crossing is root-found "
                  "on runs (N bisected until the crossing is bracketed within 1 job: the blue sliver); the measured one "
                  "is linear between the two measured N either side of it. The y axes are zoomed; each panel says "
                  "from where."]
    return lines


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)
