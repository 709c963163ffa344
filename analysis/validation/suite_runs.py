"""The validation suite's runs of the published-results cases (scenarios/validation/cases.json "runs" and
"scans"): a scenario run's summary, what `sonicsim plan` says, a through-server scan's latencies. Each takes
extra --set values (`sets`, [(pointer, JSON text)]) for a point of a declared-unknowns design
(published_bands.py)."""
import csv
import json
import os
import re
import subprocess
import sys


def fail(message):
    sys.exit(f"{os.path.basename(sys.argv[0])}: error: {message}")


def set_options(spec, sets=()):
    """The --set options of a run: its own (cases.json "set"), then the design point's."""
    options = []
    for pointer, value in list(spec.get("set", {}).items()) + list(sets):
        options += ["--set", f"{pointer}={value}"]
    return options


def run_scenario(sonicsim, base, name, spec, work, sets=()):
    out = os.path.join(work, name)
    command = [sonicsim, "run", os.path.join(base, spec["scenario"]), "--quiet", "--output", out]
    command += set_options(spec, sets)
    subprocess.run(command, check=True)
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)


def run_plan(sonicsim, base, spec, saved_output=None, sets=()):
    """What `sonicsim plan` says for a case, or `saved_output` (a file holding what that command printed)."""
    if saved_output:
        with open(saved_output, encoding="utf-8") as f:
            return parse_plan(f.read())
    return parse_plan(plan_output(sonicsim, base, spec, sets))


def plan_output(sonicsim, base, spec, sets=()):
    """What `sonicsim plan` prints for a run of cases.json (its scenario, options and --set values)."""
    command = [sonicsim, "plan", os.path.join(base, spec["plan"])] + spec.get("options", []) + set_options(spec, sets)
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def parse_plan(text):
    result = {}
    m = re.search(r"largest job count within tolerance: (\d+) \(([\d.]+) s per event\)", text)
    if m:
        result["jobs"] = int(m.group(1))
        result["per_event_s"] = float(m.group(2))
    m = re.search(r"no knee up to (\d+) jobs", text)
    if m:  # within the tolerance up to the plan's bound: the cap is at least that, counted at it as plan does
        result["jobs"], result["at_least"] = int(m.group(1)), True
    m = re.search(r"speed-up against CPU only: ([\d.]+) s / ([\d.]+) s", text)
    if m:
        result["cpu_only_s"], result["sonic_s"] = float(m.group(1)), float(m.group(2))
    m = re.search(r"optimal CPU:(?:GPU|device) ratio: ([\d.]+) jobs per (?:GPU|device)", text)
    if m:
        result["jobs_per_gpu"] = float(m.group(1))
    m = re.search(r"= ([\d.]+)x per event", text)
    if m:
        result["speedup"] = float(m.group(1))
    return result


def measured_scan(path):
    """batch -> latency (s) of a published calibration CSV: batch / throughput_items_per_s."""
    try:
        with open(path, encoding="utf-8") as f:
            rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
        return {int(r["batch_size"]): int(r["batch_size"]) / float(r["throughput_items_per_s"]) for r in rows}
    except (OSError, KeyError, ValueError) as e:
        fail(f"{path}: {e}")


def run_scan(sonicsim, base, suite, scan, work, sets=()):
    """Simulates a through-server scan: one perf_analyzer run per measured batch size; the latency is
    the p50 of perf_analyzer's CSV (every request alike at concurrency 1)."""
    measured = measured_scan(os.path.join(base, scan["measured"]))
    frontend = json.dumps(suite["scan_frontends"][scan["server"]])
    rows = []
    for batch, published in sorted(measured.items()):
        out = os.path.join(work, f"{scan['id']}-{batch}.csv")
        subprocess.run([sonicsim, "run", os.path.join(base, suite["scan_scenario"]), "--quiet", "--perf-csv", out,
                        "--set", f"/platform/servers/0/device={json.dumps(scan['device'])}",
                        "--set", f"/platform/servers/0/frontend={frontend}",
                        "--set", f"/perf_analyzer/batch_size={batch}"] + set_options({}, sets), check=True)
        with open(out) as f:
            row = next(csv.DictReader(f))
        rows.append((batch, published, float(row["p50 latency"]) * 1e-6))
    return rows


def scan_case(scan, rows):
    published = sum(r[1] for r in rows)
    simulated = sum(r[2] for r in rows)
    case = {k: scan[k] for k in ("id", "claim", "source", "role", "tolerance") if k in scan}
    case.update(unit="ms", published=1e3 * published, known_deviation=scan.get("known_deviation"))
    if not case["known_deviation"]:
        del case["known_deviation"]
    return case, 1e3 * simulated
