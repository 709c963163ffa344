#!/usr/bin/env python3
"""Scores the frozen predictions (scenarios/validation/predictions/, made by predict.py) against the
measurements, beside three baselines made from calibration inputs alone, and writes or checks the
committed summary (the accuracy ratchet).

    analysis/validation/scores.py --sonicsim build/sonicsim [--write] [--report FILE]

Per target: whether the measurement lies in the 90% band (5% to 95% of the design's runs), the band's
half-width relative to its median, the error of the band's median, and the errors of the baselines:
  (a) no contention: the unloaded latency and the closed loop's rate at it (NVIDIA: the offline batch-1
      latency L1, c / L1 inferences/s; CMS: the CPU-only rate, a calibration input, at every N);
  (b) the offline ceiling: NVIDIA: the offline table's peak inferences/s x instances, capped by c / L1,
      p50 = c / that (Little's law), at least L1; CMS: the device's peak events/s from the calibrated scans
      (`sonicsim analytic`'s device saturation, in single-stream jobs, at t_ideal) shared by N jobs, capped
      by the CPU-only rate;
  (c) `sonicsim analytic`'s closed form (CMS: per-job rate 4 / t(4N), a job being 4 streams; it has no
      form for perf_analyzer loads, so none for NVIDIA).
Per source and metric: coverage, median half-width, mean absolute relative error of the band median and of
each baseline, skill = 1 - error(simulator) / error(best baseline), and within-tolerance counts.

Without --write, the summary made now is compared with the committed one: exit 1 when a source's coverage,
skill against its best baseline, or count within tolerance is lower (a ratchet; update the summary, with
--write, in the same commit that explains why).
"""
import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys

import cms_miniaod
import declared
import nvidia_suite
import predictions
import published_bands
from predict import CASES, OUT, cms_path, cms_targets, frozen_counts, job_sets
from suite_runs import measured_scan

SUMMARY = os.path.join(OUT, "summary.json")
FIGURES = ("validation-bands-nvidia.png", "validation-bands-cms.png")  # docs/, made by --nvidia-figure, --cms-figure
STREAMS = predictions.STREAMS


def relative_error(value, measured):
    if value is None or measured in (None, 0) or math.isinf(value):
        return 1.0  # no value (a baseline that never crosses): counted as a 100% error
    return abs(value / measured - 1)


def target(case_id, metric, measured, band, baselines, tolerance):
    """One scored target: band (median, p5, p95) or None; baselines {name: value or None}."""
    median, p5, p95 = band if band else (None, None, None)
    row = {"case": case_id, "metric": metric, "measured": measured, "median": median, "p5": p5, "p95": p95,
           "covered": band is not None and min(p5, p95) <= measured <= max(p5, p95),
           "half_width": None if not band or not median else abs(p95 - p5) / 2 / abs(median),
           "error": relative_error(median, measured), "tolerance": tolerance,
           "baselines": {k: {"value": v, "error": relative_error(v, measured)} for k, v in baselines.items()}}
    row["within"] = row["error"] <= tolerance
    for b in row["baselines"].values():
        b["within"] = b["error"] <= tolerance
    return row


# --- NVIDIA: every level of every case -----------------------------------------------------------------

def _instances(scenario):
    document = cms_miniaod.load_json(scenario)
    for model in document["models"].values():
        count = model.get("instance_group", [{}])[0].get("count", 1)
        return declared.nominal(count) if isinstance(count, dict) else count
    return 1


def nvidia_baselines(case, base):
    """Baselines (a) and (b) of one NVIDIA case, from its offline table (a calibration input) alone: a function
    of the concurrency c giving {"throughput": {name: inferences/s}, "p50": {name: ms}}."""
    offline = nvidia_suite._read_table(os.path.join(base, case["calibration"]))
    batch1 = next(r for r in offline if int(float(r.get("Batch", r.get("Client Batch Size", 0)))) == 1)
    l1 = nvidia_suite._cell(batch1, "p50 latency (ms)", "Avg Latency") / 1e3
    peak = max(nvidia_suite._cell(r, "Inferences/Second", "Inferences/second") for r in offline)
    peak *= _instances(os.path.join(base, case["scenario"]))

    def at(c):
        ceiling = min(peak, c / l1)
        return {"throughput": {"a": c / l1, "b": ceiling}, "p50": {"a": 1e3 * l1, "b": 1e3 * max(l1, c / ceiling)}}
    return at


def nvidia_bands(case):
    """{concurrency: {"throughput": (median, p5, p95) inferences/s, "p50": (...) ms}} at the levels the case's
    frozen prediction has bands for (cases.json "band_levels"); {} where it has no prediction file."""
    path = os.path.join(OUT, "nvidia", f"{case['id']}.json")
    if not os.path.isfile(path):
        return {}
    document = predictions.read(path)
    out = {}
    for o in document["bands"]["outputs"]:
        found = re.fullmatch(r"inferences/s at concurrency (\d+)", o["output"])
        if found:
            c = int(found.group(1))
            p50 = tuple(v / 1e3 for v in predictions.band(document, f"p50 latency at concurrency {c}"))  # us -> ms
            out[c] = {"throughput": predictions.band(document, o["output"]), "p50": p50}
    return out


def nvidia_targets(suite, base):
    spec = suite["nvidia"]
    rows = []
    for case in spec["cases"]:
        baselines = nvidia_baselines(case, base)
        bands = nvidia_bands(case)
        for c, m in sorted(nvidia_suite.measured(os.path.join(base, case["measured"])).items()):
            if c not in bands:
                continue  # a level the bands were not made at (cases.json "band_levels")
            for metric in ("throughput", "p50"):
                rows.append(target(case["id"], metric, m[metric], bands[c][metric], baselines(c)[metric],
                                   spec["tolerance"][metric]) | {"x": c})
    return rows


# --- CMS: medians per N, crossings, slopes past the knee ------------------------------------------------

def analytic_text(sonicsim, scenario, sets, options=()):
    """What `sonicsim analytic SCENARIO --no-simulation` prints, with --set POINTER=VALUE for each of `sets`."""
    command = [sonicsim, "analytic", scenario, "--no-simulation", *options]
    for pointer, value in sets:
        command += ["--set", f"{pointer}={value}"]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def analytic_rates(sonicsim, scenario, ns):
    """{N: per-job events/s} of analytic's closed form at 4N single-stream jobs, and the device's peak events/s."""
    jobs = [option for n in ns for option in ("--jobs", str(STREAMS * n))]
    text = analytic_text(sonicsim, scenario, declared.nominal_sets(scenario), jobs)
    t_ideal = float(re.search(r"t_ideal\s+([\d.]+) s", text).group(1))
    saturation = float(re.search(r"Devices saturate at ([\d.]+) jobs", text).group(1))
    rates = {int(m.group(1)) // STREAMS: STREAMS / float(m.group(2))
             for m in re.finditer(r"^\s*(\d+)\s+([\d.]+) s\s", text, re.M)}
    return rates, saturation / t_ideal


def run_curves(documents):
    """{run: [(N, per-job events/s)]} over the predicted N."""
    return predictions.curves(documents)


def slope(points):
    """Least-squares slope of (N, rate) in events/s per job."""
    n = len(points)
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    sxx = sum((p[0] - mx) ** 2 for p in points)
    return sum((p[0] - mx) * (p[1] - my) for p in points) / sxx


def cms_documents(model):
    """{N: frozen prediction} of one CMS model (files nN.json); {} where none is frozen."""
    return {n: predictions.read(cms_path(model, n)) for n in frozen_counts(model)}


def cms_targets_scored(suite, base, sonicsim):
    cms = suite["cms_miniaod"]
    tol = cms["tolerances"]
    data = os.path.join(base, cms["data"])
    rows = []
    cross_rows = cms_miniaod.read_csv(os.path.join(data, cms["cross_site_data"]))
    for model, scenario, samples, ns, level, root_finding in cms_targets(suite, base):
        documents = cms_documents(model)
        analytic, capacity = analytic_rates(sonicsim, scenario, sorted(documents))
        ceiling = lambda n: min(level, capacity / n)
        spec = next((m for m in cms["models"] if m["id"] == model), None)
        if spec:  # per-job files: the median of each
            measured = []
            folder_data = os.path.join(data, spec["jobs"])
            for name in sorted(os.listdir(folder_data)):
                values, drawn = cms_miniaod.read_rates(os.path.join(folder_data, name))
                measured.append((len(values), statistics.median(values), drawn, name))
        else:
            site = next(s for s in cms["cross_site"] if s["id"] == model)["server_site"]
            measured = [(int(r["jobs"]), float(r["events_per_s"]), True, "") for r in cross_rows
                        if r["server_site"] == site]
        metric = "median per-job events/s" if spec else "per-job events/s"
        for n, value, drawn, name in sorted(measured):
            rates = [r for r in predictions.per_job_rates(documents[n]) if r is not None]
            rows.append(target(model, metric, value, cms_miniaod.quantiles(rates), {"a": level, "b": ceiling(n), "c": analytic[n]},
                               tol["median"]) | {"x": n})
        drawn = [(n, v) for n, v, d, _ in sorted(measured) if d]
        measured_x = cms_miniaod.crossing(drawn, level)
        crossings = [predictions.crossing_of(points, level)[0] for points in run_curves(documents).values()]
        finite = sorted(x for x in crossings if not math.isinf(x))
        band = cms_miniaod.quantiles(finite) if len(finite) == len(crossings) else None
        c_points = sorted(analytic.items())
        if root_finding:
            rows.append(target(model, "crossing (jobs)", measured_x, band,
                               {"a": math.inf, "b": capacity / level,
                                "c": cms_miniaod.crossing(c_points, level) or math.inf}, tol["crossing"]) | {"x": None})
        past = [(n, v) for n, v in drawn if measured_x is not None and n >= measured_x]
        if len(past) >= 2:  # the slope past the knee, over the measured N beyond the measured crossing
            ns_past = [n for n, _ in past]
            run_slopes = [slope([(n, r) for n, r in points if n in ns_past]) for points in run_curves(documents).values()
                          if all(n in dict(points) for n in ns_past)]
            rows.append(target(model, "slope past the knee (events/s per job)", slope(past), cms_miniaod.quantiles(run_slopes),
                               {"a": 0.0, "b": slope([(n, ceiling(n)) for n in ns_past]),
                                "c": slope([(n, analytic[n]) for n in ns_past])}, tol["crossing"]) | {"x": None})
    return rows


# --- the published results: the non-calibration cases of cases.json "cases" and "scans" ------------------

def analytic_closed_form(sonicsim, base, spec):
    """What `sonicsim analytic` says of one run of cases.json (its scenario and --set values): each line of the
    per-event closed form (s) by its name, "devices" (where the devices saturate, in jobs) and "knee" (where the
    first resource saturates)."""
    text = analytic_text(sonicsim, published_bands.run_scenario_path(base, spec), spec.get("set", {}).items())
    out = {m.group(1): float(m.group(2)) for m in re.finditer(r"^  (\S.*?)\s{2,}([\d.]+) s\b", text, re.M)}
    saturation = re.search(r"^saturation: (.*)$", text, re.M).group(1)
    out["devices"] = float(re.search(r"(?:GPUs|Devices|devices) saturate at ([\d.inf]+) jobs", saturation).group(1))
    out["knee"] = min(float(x) for x in re.findall(r"at ([\d.]+|inf) jobs", saturation))
    return out


def published_targets(suite, base, sonicsim):
    """One target per case that is not a calibration input, where its band is frozen (published_bands.py);
    baselines: the case's "baselines" expressions over analytic(RUN) and direct(SCAN), the summed latencies (ms)
    of the GPU's direct scan at the scan's batch sizes (no server: a calibration input)."""
    bands = published_bands.bands() if published_bands.current(suite, base) else {}
    cache = {}

    def analytic(run):
        if run not in cache:
            cache[run] = analytic_closed_form(sonicsim, base, suite["runs"][run])
        return cache[run]

    def direct(scan_id):
        scan = next(s for s in suite["scans"] if s["id"] == scan_id)
        batches = measured_scan(os.path.join(base, scan["measured"]))
        latency = measured_scan(os.path.join(base, scan["direct"]))
        return 1e3 * sum(latency[b] for b in batches)

    def group(case):  # the published_bands group that simulates the case: its source in the summary
        runs = published_bands.case_runs(case.get("value", ""))
        return next(g["id"] for g in suite["published_bands"]["groups"]
                    if (g.get("scans") and "value" not in case) or runs & set(g.get("runs", [])))

    rows = []
    names = {"analytic": analytic, "direct": direct, "inf": math.inf}
    for case in suite.get("scans", []) + suite["cases"]:
        if case["role"] == "calibration input" or case["id"] not in bands:
            continue
        measured = case["published"] if "published" in case else \
            1e3 * sum(measured_scan(os.path.join(base, case["measured"])).values())
        baselines = {k: eval(e, {"__builtins__": {}}, names) for k, e in case.get("baselines", {}).items()}
        rows.append(target(case["id"], case.get("unit", "ms"), measured, bands[case["id"]], baselines,
                           case["tolerance"]) | {"x": None, "group": group(case), "source": "published"})
    return rows


# --- summaries -------------------------------------------------------------------------------------------

def summarize(rows):
    names = sorted({k for r in rows for k in r["baselines"]})
    error = statistics.mean(r["error"] for r in rows)
    out = {"targets": len(rows), "covered": sum(r["covered"] for r in rows),
           "coverage": sum(r["covered"] for r in rows) / len(rows),
           "median_half_width": statistics.median(r["half_width"] for r in rows if r["half_width"] is not None)
           if any(r["half_width"] is not None for r in rows) else None,
           "error": error, "within": sum(r["within"] for r in rows), "baselines": {}}
    for k in names:
        e = statistics.mean(r["baselines"][k]["error"] for r in rows)
        out["baselines"][k] = {"error": e, "within": sum(r["baselines"][k]["within"] for r in rows),
                               "skill": 1 - error / e if e > 0 else None}
    best = min(names, key=lambda k: out["baselines"][k]["error"])
    out["best_baseline"] = best
    out["skill"] = out["baselines"][best]["skill"]
    return out


def source_groups(nvidia, cms, published):
    groups = {}
    for r in published:
        groups.setdefault(f"published {r['group']}", []).append(r)
    for r in nvidia:
        groups.setdefault(f"nvidia {r['metric']}", []).append(r)
    for r in cms:
        kind = "cross-site" if r["case"].startswith("cross-site") else "models"
        groups.setdefault(f"cms {kind} {r['metric'].split(' (')[0]}", []).append(r)
    return groups


def make_summary(suite, base, sonicsim):
    nvidia, cms = nvidia_targets(suite, base), cms_targets_scored(suite, base, sonicsim)
    published = published_targets(suite, base, sonicsim)
    groups = source_groups(nvidia, cms, published)
    cases = {}
    for r in published + nvidia + cms:
        cases.setdefault(f"{r['case']}: {r['metric']}", []).append(r)
    clean = lambda x: round(x, 6) if isinstance(x, float) and not math.isinf(x) else (None if isinstance(x, float) else x)
    return {"sources": {k: _rounded(summarize(v), clean) for k, v in groups.items()},
            "cases": {k: _rounded(summarize(v), clean) for k, v in cases.items()}}, published + nvidia + cms


def _rounded(value, clean):
    if isinstance(value, dict):
        return {k: _rounded(v, clean) for k, v in value.items()}
    return clean(value)


def worse(now, committed):
    """The ratchet: what got worse than the committed summary, per source."""
    problems = []
    for name, old in committed["sources"].items():
        new = now["sources"].get(name)
        if new is None:
            problems.append(f"{name}: no longer scored")
            continue
        for key in ("covered", "within"):
            if new[key] < old[key]:
                problems.append(f"{name}: {key} {new[key]} < committed {old[key]}")
        if old["skill"] is not None and (new["skill"] is None or new["skill"] < old["skill"] - 1e-6):
            problems.append(f"{name}: skill {new['skill']} < committed {old['skill']}")
    return problems


def pct(x):
    return "—" if x is None else f"{100 * x:.0f}%"


def signed(skill):
    return "—" if skill is None else f"{skill:+.2f}"


def write_figures(suite, base, rows, nvidia_path, cms_path):
    import band_figures
    if nvidia_path:
        band_figures.nvidia_figure(nvidia_path, [r for r in rows if r["metric"] in ("throughput", "p50")],
                                   suite["nvidia"]["cases"])
    if cms_path:
        cms = suite["cms_miniaod"]
        data = os.path.join(base, cms["data"])
        documents, labels, scatter = {}, {}, {}
        for spec in [s for s in cms["models"] + cms["cross_site"] if "samples" in s]:
            documents[spec["id"]] = cms_documents(spec["id"])
            labels[spec["id"]] = spec["label"]
            if "jobs" in spec:
                files = [cms_miniaod.read_rates(os.path.join(data, spec["jobs"], n))[0]
                         for n in sorted(os.listdir(os.path.join(data, spec["jobs"])))]
                scatter[spec["id"]] = sorted((len(v), cms_miniaod.quantile(v, 0.1), cms_miniaod.quantile(v, 0.9))
                                             for v in files)
        band_figures.cms_figure(cms_path, [r for r in rows if r["metric"] not in ("throughput", "p50")
                                           and r.get("source") != "published"], documents,
                                labels, scatter)


def report_lines(summary, figures=(), suite=None):
    lines = ["", "## Frozen predictions: 90% bands against measurements and baselines", "",
             "Each case's declared unknowns (its scenario's `between` / `one_of`, each with its source) are propagated "
             "by `sonicsim run --samples S` (analysis/validation/predict.py, committed under "
             "`scenarios/validation/predictions/`); analysis/validation/scores.py reads those files. Band: 5% to 95% "
             "of the design's runs. Baselines, from calibration inputs alone: (a) no contention, (b) the offline "
             "ceiling, (c) `sonicsim analytic`'s closed form (none for perf_analyzer loads); see scores.py. Error: mean "
             "absolute relative error (a baseline with no crossing counts 100%). Skill = 1 - error(band median) / "
             "error(best baseline). A CMS crossing is found by root-finding on each run's curve (predict.py adds job "
             "counts until every run's crossing is bracketed within 2 jobs or 2%); the slope past the knee is the "
             "least-squares slope over the measured N beyond the measured crossing.", "",
             "| source, metric | targets | coverage of the 90% band | median band half-width | error (band median) | "
             "(a) error | (b) error | (c) error | skill vs (a) | skill vs (b) | skill vs (c) | skill vs best | "
             "within tolerance: sim / (a) / (b) / (c) |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, s in summary["sources"].items():
        b = s["baselines"]
        get = lambda k, f: b[k][f] if k in b else None
        lines.append(f"| {name} | {s['targets']} | {s['covered']}/{s['targets']} ({pct(s['coverage'])}) | "
                     f"±{pct(s['median_half_width'])} | {pct(s['error'])} | {pct(get('a', 'error'))} | "
                     f"{pct(get('b', 'error'))} | {pct(get('c', 'error'))} | "
                     + " | ".join(signed(get(k, "skill")) for k in "abc")
                     + f" | {signed(s['skill'])} ({s['best_baseline']}) | {s['within']} / "
                     + " / ".join("—" if k not in b else str(b[k]["within"]) for k in "abc") + " |")
    notes = (suite or {}).get("frozen_predictions", {})
    if notes.get("not_frozen"):
        lines += ["", "Not frozen yet: " + notes["not_frozen"]]
    if notes.get("missed"):
        lines += ["", "### Targets missed, and the mechanism", ""]
        lines += [f"- **{name}**: {text}" for name, text in notes["missed"].items()]
    for link in figures:
        lines += ["", f"![measurements, 90% prediction bands, tolerance bands and baselines]({link})"]
    lines += ["", "Per case:", "", "| case, metric | targets | coverage | median half-width | error | best baseline, "
              "its error | skill |", "|---|---|---|---|---|---|---|"]
    for name, s in summary["cases"].items():
        lines.append(f"| {name} | {s['targets']} | {s['covered']}/{s['targets']} | ±{pct(s['median_half_width'])} | "
                     f"{pct(s['error'])} | ({s['best_baseline']}) {pct(s['baselines'][s['best_baseline']]['error'])} | "
                     f"{signed(s['skill'])} |")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sonicsim", required=True)
    parser.add_argument("--write", action="store_true", help="write the summary (commit it with its reason)")
    parser.add_argument("--report", help="write the report section (Markdown) to this file")
    parser.add_argument("--nvidia-figure")
    parser.add_argument("--cms-figure")
    parser.add_argument("--summary", default=SUMMARY, help="the summary to write or to compare with")
    args = parser.parse_args()
    if args.nvidia_figure or args.cms_figure:  # before any simulation runs, as run_suite.py does
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
        import python_interpreter
        python_interpreter.require("matplotlib", "python3-matplotlib", "scores.py")
    suite = cms_miniaod.load_json(CASES)
    published_bands.validate(suite, CASES)
    summary, rows = make_summary(suite, os.path.dirname(CASES), os.path.abspath(args.sonicsim))
    write_figures(suite, os.path.dirname(CASES), rows, args.nvidia_figure, args.cms_figure)
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write("\n".join(report_lines(summary, FIGURES, suite)) + "\n")
    if args.write:
        with open(args.summary, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=1, sort_keys=True)
            f.write("\n")
        return 0
    problems = worse(summary, cms_miniaod.load_json(args.summary))
    for p in problems:
        print(f"scores.py: worse than {args.summary}: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
