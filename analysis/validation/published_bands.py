"""The 90% bands of the published-results cases (scenarios/validation/cases.json "published_bands"), frozen in
scenarios/validation/predictions/published.json.

Each group of runs (cases.json "runs", or the through-server "scans") is simulated at every point of a Latin
hypercube over the group's declared unknowns, each run of a point with the same values, and each case's value
is evaluated point by point; groups are paired by point index (their unknowns are independent). `sonicsim
run --samples` makes the band of one run's outputs; these cases combine runs and plans (a speed-up is two
runs, a job cap is a plan), so the design is made here, from the same declarations (declared.py).

A design value is set where an unknown says ("set": JSON pointers), or multiplies the scenario's values
("scale": {pointer: power}); "runs" limits an unknown to some of its group's runs.
"""
import concurrent.futures
import hashlib
import json
import math
import os
import random
import re
import sys
import tempfile
import threading

import cms_miniaod
import declared
import predictions
from suite_runs import fail, parse_plan, plan_output, run_scan, run_scenario, scan_case

FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenarios", "validation", "predictions",
                    "published.json")


DISTRIBUTIONS = ("uniform", "log-uniform")


def validate(suite, path):
    """Exits 2 with one line (the file, the JSON path, what was expected) unless cases.json "published_bands" is
    well formed: samples a whole number of at least 2, groups of runs the file has (or the scans), each unknown a
    named range of two finite numbers with one unit, low below high (above 0 for log-uniform or a scale), with
    its source ("why"), set at JSON pointers or scaling values (power 1 or -1), on runs of its group."""
    def bad(where, expected, got):
        print(f"{path}: /published_bands{where}: expected {expected}, got {json.dumps(got)}", file=sys.stderr)
        sys.exit(2)

    def whole(x):
        return isinstance(x, int) and not isinstance(x, bool)

    spec = suite.get("published_bands")
    if spec is None:
        return
    if not isinstance(spec, dict):
        bad("", "an object", spec)
    if not whole(spec.get("samples")) or spec["samples"] < 2:
        bad("/samples", "a whole number of points, at least 2", spec.get("samples"))
    if not whole(spec.get("design_seed")):
        bad("/design_seed", "a whole number", spec.get("design_seed"))
    groups = spec.get("groups")
    if not isinstance(groups, list) or not groups:
        bad("/groups", "a non-empty list of groups", groups)
    for g, group in enumerate(groups):
        at = f"/groups/{g}"
        if not isinstance(group, dict) or not isinstance(group.get("id"), str):
            bad(at, "an object with an \"id\"", group)
        runs = group.get("runs", [])
        if not isinstance(runs, list) or not all(isinstance(r, str) and r in suite["runs"] for r in runs):
            bad(f"{at}/runs", f"names of cases.json runs ({', '.join(suite['runs'])})", runs)
        if not runs and group.get("scans") is not True:
            bad(at, "\"runs\" or \"scans\": true", group)
        unknowns = group.get("unknowns")
        if not isinstance(unknowns, list) or not unknowns:
            bad(f"{at}/unknowns", "a non-empty list", unknowns)
        names = set()
        targets = runs + ([s["id"] for s in suite.get("scans", [])] if group.get("scans") is True else [])
        for u, unknown in enumerate(unknowns):
            _validate_unknown(unknown, f"{at}/unknowns/{u}", names, targets, bad)


def _validate_unknown(unknown, at, names, targets, bad):
    if not isinstance(unknown, dict) or not isinstance(unknown.get("name"), str) or unknown["name"] in names:
        bad(at, "an object with a \"name\" of its own in its group", unknown)
    names.add(unknown["name"])
    if not isinstance(unknown.get("why"), str) or not unknown["why"].strip():
        bad(f"{at}/why", "the range's source, a sentence", unknown.get("why"))
    shape = unknown.get("distribution", "uniform")
    if shape not in DISTRIBUTIONS:
        bad(f"{at}/distribution", " or ".join(DISTRIBUTIONS), shape)
    ends = unknown.get("between")
    try:
        (low, unit), (high, high_unit) = [declared.number_with_unit(e) for e in ends]
        ok = (len(ends) == 2 and not any(isinstance(e, bool) for e in ends) and unit == high_unit
              and math.isfinite(low) and math.isfinite(high) and low < high)
    except (TypeError, ValueError):
        ok = False
    positive = shape == "log-uniform" or "scale" in unknown
    if not ok or (positive and low <= 0):
        bad(f"{at}/between", "[LOW, HIGH]: two finite numbers with one unit, LOW below HIGH"
            + (", LOW above 0" if positive else ""), ends)
    if ("set" in unknown) == ("scale" in unknown):
        bad(at, "one of \"set\" (JSON pointers) or \"scale\" ({pointer: 1 or -1})", unknown)
    if "set" in unknown and (not isinstance(unknown["set"], list) or not unknown["set"]
                             or not all(isinstance(p, str) and p.startswith("/") for p in unknown["set"])):
        bad(f"{at}/set", "a non-empty list of JSON pointers", unknown["set"])
    if "scale" in unknown:
        scale = unknown["scale"]
        if (not isinstance(scale, dict) or not scale or unit
                or not all(p.startswith("/") and w in (1, -1) and not isinstance(w, bool) for p, w in scale.items())):
            bad(f"{at}/scale", "{JSON pointer: 1 or -1, ...} with a range of plain factors", scale)
    if "runs" in unknown and (not isinstance(unknown["runs"], list) or not unknown["runs"]
                              or not all(r in targets for r in unknown["runs"])):
        bad(f"{at}/runs", f"some of its group's runs or scans ({', '.join(targets)})", unknown["runs"])


def latin_hypercube(dimensions, samples, seed):
    """samples points in [0, 1)^dimensions, one in each of the samples strata of every dimension."""
    rng = random.Random(seed)
    columns = []
    for _ in range(dimensions):
        strata = list(range(samples))
        rng.shuffle(strata)
        columns.append([(s + rng.random()) / samples for s in strata])
    return [[column[i] for column in columns] for i in range(samples)]


def design(group, samples, seed):
    """[{unknown name: (number, unit)}] of the group's points (seeded per group, by its id)."""
    unknowns = group["unknowns"]
    points = latin_hypercube(len(unknowns), samples, f"{seed}/{group['id']}")
    return [{u["name"]: declared.at(u, x) for u, x in zip(unknowns, point)} for point in points]


def _pointer_value(document, pointer):
    node = document
    for key in pointer.split("/")[1:]:
        key = key.replace("~1", "/").replace("~0", "~")
        try:
            node = node[int(key)] if isinstance(node, list) else node[key]
        except (KeyError, IndexError, ValueError):
            return None
    return node


def point_sets(group, point, run, scenario_path):
    """[(pointer, JSON text)] giving one run the point's values; an unknown's pointers must be in the run's scenario."""
    document = cms_miniaod.load_json(scenario_path)
    sets = []
    for u in group["unknowns"]:
        if run not in u.get("runs", [run]):
            continue
        number, unit = point[u["name"]]
        for pointer in u.get("set", []):  # a member the scenario has, or a new one of an object it has
            if not isinstance(_pointer_value(document, pointer.rsplit("/", 1)[0]), dict):
                fail(f"published_bands: {u['name']}: {pointer} is not in {scenario_path}")
            sets.append((pointer, json.dumps(f"{number:.6g}{unit}" if unit else round(number, 6))))
        for pointer, power in u.get("scale", {}).items():
            value = _pointer_value(document, pointer)
            if value is None:
                fail(f"published_bands: {u['name']}: {pointer} is not in {scenario_path}")
            x, value_unit = declared.number_with_unit(value)
            sets.append((pointer, json.dumps(f"{x * number ** power:.6g}{value_unit}")))
    return sets


def run_scenario_path(base, spec):
    return os.path.join(base, spec.get("scenario") or spec["plan"])


def case_runs(expression):
    """The runs a case's expression reads."""
    return set(re.findall(r"runs\['(\w+)'\]", expression))


class Cache:
    """Results of earlier tasks (one JSON line each, keyed by the task and the sonicsim binary), so that an
    interrupted design goes on where it stopped; no file, no cache."""

    def __init__(self, path, sonicsim):
        self.path, self.entries, self.lock = path, {}, threading.Lock()
        stat = os.stat(sonicsim)
        self.binary = f"{os.path.abspath(sonicsim)}:{stat.st_size}:{stat.st_mtime_ns}"
        if path and os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                for line in f:
                    key, value = json.loads(line)
                    self.entries[key] = value

    def key(self, kind, what, sets, digest):
        name = what["id"] if kind == "scan" else what
        return hashlib.sha256(json.dumps([self.binary, digest, kind, name, sets]).encode()).hexdigest()

    def put(self, key, value):  # from the design's worker threads: one line at a time
        with self.lock:
            self.entries[key] = value
            if self.path:
                with open(self.path, "a", encoding="utf-8") as f:
                    f.write(json.dumps([key, value]) + "\n")


def simulate(sonicsim, suite, base, jobs, only=None, cache_path=None):
    """{"design": {group: [[value, ...] per point]}, "runs": [{run: result} per point], "scans": [{scan: rows}]};
    `only` = (point index, [run names]) simulates just those (a check). A plan's result is what parse_plan reads
    of it: a plan without an answer lacks "jobs", and the cases that read it have no value at that point; nor
    have those that read a broken run (requests rejected or in flight at the end, events not finished)."""
    spec = suite["published_bands"]
    samples, seed = spec["samples"], spec["design_seed"]
    designs = {g["id"]: design(g, samples, seed) for g in spec["groups"]}
    runs = [dict() for _ in range(samples)]
    scans = [dict() for _ in range(samples)]
    tasks = []
    for g in spec["groups"]:
        for i, point in enumerate(designs[g["id"]]):
            if only and i != only[0]:
                continue
            if g.get("scans") and not only:
                for scan in suite["scans"]:
                    sets = point_sets(g, point, scan["id"], os.path.join(base, suite["scan_scenario"]))
                    tasks.append(("scan", i, scan, sets))
            for name in g.get("runs", []):
                if only and name not in only[1]:
                    continue
                run = suite["runs"][name]
                tasks.append(("run", i, name, point_sets(g, point, name, run_scenario_path(base, run))))
    cache, digest = Cache(cache_path, sonicsim), inputs_sha256(suite, base)
    with tempfile.TemporaryDirectory() as work:
        def one(task):
            kind, i, what, sets = task
            key = cache.key(kind, what, sets, digest)
            if key not in cache.entries:
                cache.put(key, simulate_one(kind, what, sets, os.path.join(work, f"p{i}-{key[:12]}")))
            result = cache.entries[key]
            if "no_answer" in result:
                print(f"published_bands: {what if kind == 'run' else what['id']} at point {i}: no value: "
                      f"{result['no_answer']}", file=sys.stderr)
            return task, result

        def simulate_one(kind, what, sets, folder):
            os.makedirs(folder)
            if kind == "scan":
                return run_scan(sonicsim, base, suite, what, folder, sets)
            if "plan" in suite["runs"][what]:
                text = plan_output(sonicsim, base, suite["runs"][what], sets)
                result = parse_plan(text)
                if "jobs" not in result:  # no job count within the tolerance: no answer, never a value
                    result["no_answer"] = [line for line in text.splitlines() if line.strip()][:4]
                return result
            result = run_scenario(sonicsim, base, what, suite["runs"][what], folder, sets)
            reasons = broken(result)
            if reasons:  # its values are never used: the cases that read it have none here
                result["no_answer"] = reasons
            return result

        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            for (kind, i, what, _), result in pool.map(one, tasks):
                if kind == "scan":
                    scans[i][what["id"]] = result
                else:
                    runs[i][what] = result
    return {"design": {g: [[round(v[0], 9) for v in p.values()] for p in points] for g, points in designs.items()},
            "runs": runs, "scans": scans}


def broken(summary):
    """Why a run's summary may not give a value (requests rejected or left in flight, events not finished), or []."""
    requests, events = summary["requests"], summary["events"]
    reasons = [f"{requests['rejected']} requests rejected"] if requests["rejected"] else []
    reasons += [f"{requests['in_flight_at_end']} requests in flight at the end"] if requests["in_flight_at_end"] else []
    reasons += [f"{events['incomplete']} events not finished"] if events["incomplete"] else []
    return reasons


def case_values(suite, simulated):
    """{case id: [value per point]} for every case whose runs (or scan) the simulation covered."""
    values = {}
    for scan in suite["scans"]:
        if all(scan["id"] in s for s in simulated["scans"]):
            values[scan["id"]] = [scan_case(scan, s[scan["id"]])[1] for s in simulated["scans"]]
    for case in suite["cases"]:
        wanted = case_runs(case["value"])
        if not all(wanted <= set(point) for point in simulated["runs"]):
            continue
        values[case["id"]] = [evaluate(case["value"], point) for point in simulated["runs"]]
    return values


def at_bound(suite, simulated):
    """{case id: points where a plan it reads found no knee before its bound (counted at it)}, where any."""
    counts = {}
    for case in suite["cases"]:
        n = sum(any(point.get(name, {}).get("at_least") for name in case_runs(case["value"]))
                for point in simulated["runs"])
        if n:
            counts[case["id"]] = n
    return counts


def evaluate(expression, runs):
    """A case's value at one point; None where a plan it reads had no answer there."""
    if any("no_answer" in runs[name] for name in case_runs(expression)):
        return None
    return float(eval(expression, {"__builtins__": {}}, {"runs": runs}))


def inputs_sha256(suite, base):
    """A digest of what the values depend on: the bands' spec, the runs, the scans' settings, each case's
    expression, and every scenario file they read (wording, sources, tolerances and baselines are not inputs)."""
    digest = hashlib.sha256()
    spec = suite["published_bands"]
    groups = [dict(g, unknowns=[{k: v for k, v in u.items() if k != "why"} for u in g["unknowns"]])
              for g in spec["groups"]]
    inputs = {"published_bands": dict({k: v for k, v in spec.items() if k != "about"}, groups=groups)}
    inputs.update({k: suite[k] for k in ("runs", "scan_scenario", "scan_frontends")})
    inputs["scans"] = [{k: s[k] for k in ("id", "device", "server", "measured")} for s in suite["scans"]]
    inputs["cases"] = {c["id"]: c["value"] for c in suite["cases"]}
    digest.update(json.dumps(inputs, sort_keys=True).encode())
    paths = sorted({run_scenario_path(base, r) for r in suite["runs"].values()}
                   | {os.path.join(base, suite["scan_scenario"])})
    for path in paths:
        digest.update(predictions.inputs_sha256(path).encode())
    return digest.hexdigest()


def make(sonicsim, suite, base, jobs, cache_path=None):
    simulated = simulate(sonicsim, suite, base, jobs, cache_path=cache_path)
    document = {"about": "made by analysis/validation/predict.py --source published (published_bands.py)",
                "samples": suite["published_bands"]["samples"], "design_seed": suite["published_bands"]["design_seed"],
                "inputs_sha256": inputs_sha256(suite, base),
                "unknowns": {g["id"]: [u["name"] for u in g["unknowns"]] for g in suite["published_bands"]["groups"]},
                "design": simulated["design"], "cases": case_values(suite, simulated),
                "at_bound": at_bound(suite, simulated)}
    write(document)
    return document


def write(document):
    """Indented, but one line per list of numbers, so that a diff reads."""
    text = json.dumps(document, indent=1, sort_keys=True)
    text = re.sub(r"\[\s+([-\d.e+,\snul]+?)\s+\]",
                  lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]", text)
    os.makedirs(os.path.dirname(FILE), exist_ok=True)
    with open(FILE, "w", encoding="utf-8") as f:
        f.write(text + "\n")


def read():
    return cms_miniaod.load_json(FILE) if os.path.isfile(FILE) else None


def current(suite, base):
    document = read()
    return document is not None and document.get("inputs_sha256") == inputs_sha256(suite, base)


def bands():
    """{case id: (median, p5, p95)} of the frozen file; {} where there is none."""
    document = read()
    if not document:
        return {}
    answered = {case: [x for x in v if x is not None] for case, v in document["cases"].items()}
    return {case: cms_miniaod.quantiles(v) for case, v in answered.items() if v}


def unanswered():
    """{case id: what the band leaves out or bounds}: points without a value (a plan with no answer there) and
    points counted at a plan's bound (no knee before it), where any."""
    document = read() or {"cases": {}}
    notes = {}
    for case, values in document["cases"].items():
        words = []
        if None in values:
            words.append(f"{sum(x is None for x in values)} of {len(values)} points without an answer")
        if document.get("at_bound", {}).get(case):
            words.append(f"{document['at_bound'][case]} of {len(values)} points with no knee before the plan's bound, "
                         "counted at it")
        if words:
            notes[case] = "; ".join(words)
    return notes


def check(sonicsim, suite, base):
    """Problems: a stale file, or the runs of cases.json "frozen_check" "published" simulated again differing."""
    if not current(suite, base):
        return ["scenarios/validation/predictions/published.json is stale or missing "
                "(run analysis/validation/predict.py --source published)"]
    spec = suite["frozen_check"]["published"]
    point, names = spec["point"], spec["runs"]
    simulated = simulate(sonicsim, suite, base, 1, only=(point, names))
    simulated["runs"] = [simulated["runs"][point]]
    simulated["scans"] = [{}]
    committed = read()["cases"]
    problems = []
    for case, values in case_values(suite, simulated).items():
        if values[0] != committed[case][point]:
            problems.append(f"published case {case} at design point {point}: {values[0]} simulated again, "
                            f"{committed[case][point]} committed")
    return problems
