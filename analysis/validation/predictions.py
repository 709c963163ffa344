"""Frozen predictions of the validation suite: what `sonicsim run` says over each case's declared unknowns,
made from the scenarios (calibration inputs only) and committed, so that the comparison reads files
instead of simulating (analysis/validation/predict.py makes them; scores.py compares them).

A prediction file is the `--bands` file of one `sonicsim run SCENARIO --samples S` (every run of the design:
each unknown's value and each output's), with the command and a digest of its inputs:

    {"scenario": ..., "sets": [[pointer, value], ...], "samples": S, "inputs_sha256": ..., "bands": {...}}

NVIDIA: one file per case (every concurrency level is an output). CMS Mini-AOD: one file per model and job
count N, at the N of the measured files and at those the root-finding of each run's crossing asks for.
"""
import hashlib
import json
import math
import os
import re
import subprocess
import tempfile

STREAMS = 4  # a CMSSW job's streams (scenarios/validation/cms-miniaod/make_scenarios.py): per-job rate = 4 / t


def inputs_sha256(scenario_path):
    """A digest of the scenario and of every file it names ("file": ...), so a stale prediction shows."""
    digest = hashlib.sha256()
    with open(scenario_path, "rb") as f:
        text = f.read()
    digest.update(text)
    base = os.path.dirname(scenario_path)
    for name in sorted(set(re.findall(rb'"file":\s*"([^"]+)"', text))):
        with open(os.path.join(base, name.decode()), "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()


def run_design(sonicsim, scenario_path, samples, sets=(), jobs=1):
    """The --bands document of one run over the scenario's declared unknowns."""
    with tempfile.TemporaryDirectory() as work:
        bands = os.path.join(work, "bands.json")
        command = [sonicsim, "run", scenario_path, "--quiet", "--samples", str(samples), "--jobs", str(jobs),
                   "--bands", bands]
        for pointer, value in sets:
            command += ["--set", f"{pointer}={value}"]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        with open(bands, encoding="utf-8") as f:
            return json.load(f)


def prediction(sonicsim, repo, scenario_path, samples, sets=(), jobs=1):
    return {"scenario": os.path.relpath(scenario_path, repo), "sets": [list(s) for s in sets], "samples": samples,
            "inputs_sha256": inputs_sha256(scenario_path),
            "bands": run_design(sonicsim, scenario_path, samples, sets, jobs)}


def write(path, document):
    """Compact where it is long (one line per run), indented elsewhere, so that a diff reads."""
    bands = document["bands"]
    runs = bands["runs"]
    head = dict(document, bands=dict(bands, runs="RUNS"))
    text = json.dumps(head, indent=1, sort_keys=True)
    lines = ",\n".join("    " + json.dumps(r, sort_keys=True) for r in runs)
    text = text.replace('"runs": "RUNS"', '"runs": [\n' + lines + "\n   ]" if runs else '"runs": []')
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text + "\n")


def read(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def current(path, scenario_path, samples, sets=()):
    """Whether the committed file is a prediction of these inputs (else it is stale or absent)."""
    if not os.path.isfile(path):
        return False
    document = read(path)
    return (document.get("samples") == samples and document.get("sets") == [list(s) for s in sets]
            and document.get("inputs_sha256") == inputs_sha256(scenario_path))


def output_values(document, output):
    """Each run's value of one output (None for a run left out), in the design's order."""
    names = [o["output"] for o in document["bands"]["outputs"]]
    i = names.index(output)
    return [r["outputs"][i] if r["outputs"] else None for r in document["bands"]["runs"]]


def band(document, output):
    """(median, p5, p95) of one output, as sonicsim computed it."""
    o = next(o for o in document["bands"]["outputs"] if o["output"] == output)
    return o["median"], o["p5"], o["p95"]


def per_job_rates(document):
    """Each run's per-job events/s at this N: a job's streams each finish one event per mean per-event time."""
    return [None if t is None else STREAMS / t for t in output_values(document, "mean per-event time")]


# --- CMS: the job counts a model is predicted at, and each run's crossing -----------------------------

def crossing_of(points, level):
    """The first N where a run's curve falls below `level` between two evaluated N (linear within that
    bracket), with the bracket: (x, (n0, n1)); (-inf, None) when below at the smallest N, (inf, None)
    when above at every N."""
    points = sorted(points)
    if points[0][1] < level:
        return float("-inf"), None
    for (n0, m0), (n1, m1) in zip(points, points[1:]):
        if m0 >= level > m1:
            return n0 + (m0 - level) * (n1 - n0) / (m0 - m1), (n0, n1)
    return float("inf"), None


def curves(documents):
    """{run index: [(N, per-job rate)]} over the evaluated N ({N: document}); unsound runs left out at that N."""
    out = {}
    for n, document in sorted(documents.items()):
        for k, rate in enumerate(per_job_rates(document)):
            if rate is not None:
                out.setdefault(k, []).append((n, rate))
    return out


def next_job_counts(documents, level, **options):
    """The N to simulate next so that every run's crossing is bracketed within max(2 jobs, 2% of it)
    (job_counts_to_bracket over the runs' curves). Empty when nothing is left to do."""
    return job_counts_to_bracket(list(curves(documents).values()), sorted(documents), level, **options)


def job_counts_to_bracket(run_curves, ns, level, floor=2, ceiling=4000, growth=1.25, width=0.02):
    """The N to evaluate next, given each run's curve [(N, per-job rate)] at the evaluated N `ns`: outwards
    by `growth` where a run stays above (or starts below) the level; else, for the loose brackets at the 5%,
    50% and 95% quantiles of their crossings, the linear crossing and the bracket's midpoint while the
    bracket is wider than four tolerances, then the two N half a tolerance either side of the linear
    crossing. The linear crossing alone moved a bracket by about one job a round where the curve bends (the
    one-sided stall of regula falsi): the midpoint halves a wide bracket whatever the curve, and the pair
    brackets the crossing within the tolerance in one round wherever the line is that close."""
    found = [crossing_of(points, level) for points in run_curves]
    wanted = set()
    if any(x == float("inf") for x, _ in found) and ns[-1] < ceiling:
        wanted.add(min(ceiling, round(ns[-1] * growth)))
    if any(x == float("-inf") for x, _ in found) and ns[0] > floor:
        wanted.add(max(floor, round(ns[0] / growth)))
    if wanted:
        return sorted(wanted - set(ns))
    loose = sorted((x, b) for x, b in found if b and b[1] - b[0] > max(2, width * x))
    if not loose:
        return []
    chosen = {loose[min(len(loose) - 1, int(q * len(loose)))] for q in (0.05, 0.5, 0.95)}
    picks = set()
    for x, (n0, n1) in chosen:
        tolerance = max(2, width * x)
        if n1 - n0 > 4 * tolerance:
            candidates = (round(x), (n0 + n1) // 2)
        else:
            candidates = (math.ceil(x - tolerance / 2), math.floor(x + tolerance / 2))
        picks.update(n for n in candidates if n0 < n < n1)
    return sorted(picks - set(ns))
