"""The NVIDIA Triton cases of the validation suite (cases.json "nvidia"; docs/validation-sources.md §2):
each online perf_analyzer table predicted from a scenario calibrated on its offline table.

Every concurrency level is simulated in its own process with draws that do not depend on the other
levels, so a level's row is the same whether one level or all are run. `levels="all"` simulates
every level and writes the predictions file; `levels="subset"` (CI) simulates the subset named in
cases.json and checks its rows against the committed predictions file. The report and the figure
are made from the predictions file either way.
"""
import concurrent.futures
import csv
import json
import os
import subprocess

import declared

PREDICTION_COLUMNS = ["case", "concurrency", "throughput_per_s", "p50_us", "p99_us", "queue_us"]


def _read_table(path):
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def _cell(row, *names):
    for name in names:
        if name in row:
            return float(row[name])
    raise KeyError(names[0])


def measured(path):
    """concurrency -> throughput (1/s), p50, p99 and server queue (ms) of an online table."""
    out = {}
    for r in _read_table(path):
        c = int(_cell(r, "Concurrency", "Concurrent client requests"))
        out[c] = {"throughput": _cell(r, "Inferences/Second", "Inferences/second"),
                  "p50": _cell(r, "p50 latency (ms)", "P50 Latency"), "p99": _cell(r, "p99 latency (ms)", "P99 Latency"),
                  "queue": _cell(r, "Server Queue (ms)", "Server Queue")}
    return out


def _simulate(sonicsim, scenario, levels, out):
    command = [sonicsim, "run", scenario, "--quiet", "--perf-csv", out]
    for pointer, value in declared.nominal_sets(scenario):  # the nominal prediction; the bands: predict.py
        command += ["--set", f"{pointer}={value}"]
    if levels is not None:
        command += ["--set", f"/perf_analyzer/concurrency={json.dumps(levels)}"]
    subprocess.run(command, check=True)
    rows = []
    with open(out) as f:
        for r in csv.DictReader(f):
            rows.append([r["Concurrency"], r["Inferences/Second"], r["p50 latency"], r["p99 latency"], r["Server Queue"]])
    return sorted(rows, key=lambda r: int(r[0]))


def predict(sonicsim, base, spec, levels, predictions_path, work):
    """Simulates the cases; returns the problems found (stale predictions in subset mode)."""
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for case in spec["cases"]:
            subset = None
            if levels == "subset":
                subset = sorted(set(spec["subset"]) & set(measured(os.path.join(base, case["measured"]))))
            jobs[case["id"]] = pool.submit(_simulate, sonicsim, os.path.join(base, case["scenario"]), subset,
                                           os.path.join(work, f"nvidia-{case['id']}.csv"))
    simulated = [[case_id] + row for case_id, job in jobs.items() for row in job.result()]
    if levels == "all":
        with open(predictions_path, "w", newline="") as f:
            writer = csv.writer(f, lineterminator="\n")
            writer.writerow(PREDICTION_COLUMNS)
            writer.writerows(simulated)
        return []
    committed = {(r[0], r[1]): r for r in _read_predictions(predictions_path)}
    problems = []
    for row in simulated:
        if committed.get((row[0], row[1])) != row:
            problems.append(f"{row[0]} at concurrency {row[1]}: simulated {row[2:]}, {predictions_path} has "
                            f"{committed.get((row[0], row[1]), ['nothing'])[2:]}")
    return problems


def _read_predictions(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    if rows[0] != PREDICTION_COLUMNS:
        raise ValueError(f"{path}: expected the columns {PREDICTION_COLUMNS}")
    return rows[1:]


def compare(base, spec, predictions_path):
    """Per case, the rows of predicted against measured at every concurrency of its online table."""
    predicted = {}
    for r in _read_predictions(predictions_path):
        predicted.setdefault(r[0], {})[int(r[1])] = {"throughput": float(r[2]), "p50": int(r[3]) / 1e3,
                                                      "p99": int(r[4]) / 1e3, "queue": int(r[5]) / 1e3}
    tolerance = spec["tolerance"]
    results = []
    for case in spec["cases"]:
        rows = []
        for c, m in sorted(measured(os.path.join(base, case["measured"])).items()):
            p = predicted.get(case["id"], {}).get(c)
            if p is None:
                raise ValueError(f"{predictions_path}: no prediction for {case['id']} at concurrency {c}")
            row = {"concurrency": c, "measured": m, "predicted": p}
            for metric in ("throughput", "p50"):
                row[f"{metric}_error"] = p[metric] / m[metric] - 1
                row[f"{metric}_ok"] = abs(row[f"{metric}_error"]) <= tolerance[metric]
            rows.append(row)
        results.append((case, rows))
    return results


def failures(results):
    """Cases with a level outside the tolerance and no mechanism stated for it."""
    return [case["id"] for case, rows in results
            if not case.get("mechanism") and not all(r["throughput_ok"] and r["p50_ok"] for r in rows)]


def summary_lines(results):
    lines = []
    for case, rows in results:
        t_ok = sum(r["throughput_ok"] for r in rows)
        p_ok = sum(r["p50_ok"] for r in rows)
        lines.append(f"{case['id']:22} throughput within tolerance at {t_ok}/{len(rows)} levels, p50 at {p_ok}/{len(rows)}"
                     f"{'' if t_ok == p_ok == len(rows) else ' (misses explained in the report)' if case.get('mechanism') else ' FAIL'}")
    return lines


def _pct(x):
    return f"{100 * x:+.0f}%"


def report_lines(spec, results, plot_link):
    tol = spec["tolerance"]
    lines = ["", "## NVIDIA Triton: the offline tables predict the online tables", "", spec["about"], "",
             "| case | model, GPU | calibration input (kind: calibration) | target (kind: target) | throughput within "
             f"{100 * tol['throughput']:.0f}% | p50 within {100 * tol['p50']:.0f}% | throughput error (min to max) | "
             "p50 error (min to max) |", "|---|---|---|---|---|---|---|---|"]
    for case, rows in results:
        te = [r["throughput_error"] for r in rows]
        pe = [r["p50_error"] for r in rows]
        lines.append(f"| {case['id']} | {case['label']} | `{case['calibration']}` | `{case['measured']}` | "
                     f"{sum(r['throughput_ok'] for r in rows)}/{len(rows)} | {sum(r['p50_ok'] for r in rows)}/{len(rows)} | "
                     f"{_pct(min(te))} to {_pct(max(te))} | {_pct(min(pe))} to {_pct(max(pe))} |")
    for n in spec.get("not_expressed", []):
        lines.append(f"| {n['id']} | {n['label']} | `{n['calibration']}` | `{n['measured']}` | not expressed | "
                     f"not expressed | — | — |")
    if plot_link:
        levels = ", ".join(str(c) for c in spec.get("band_levels", []))
        lines += ["", f"![throughput and latency against concurrency, predicted and measured]({plot_link})", "",
                  "Per case, throughput (top) and p50 latency (bottom) against concurrency, axes from 0: the measured "
                  f"levels with the tolerance band around them (±{100 * tol['throughput']:.0f}% and "
                  f"±{100 * tol['p50']:.0f}%), the nominal prediction at every level (line), the frozen 90% band (5% to "
                  "95% of the design's runs, scenarios/validation/predictions/nvidia/) as bars at the levels it was "
                  f"made at ({levels}; elsewhere the prediction is nominal only), and the baselines (a) no contention and "
                  "(b) the offline ceiling as thin grey lines (from the offline table, a calibration input; scores.py), "
                  "above the axis where not seen. p99 is drawn faint: reported, not judged."]
    lines += ["", "### Outside the tolerance, and why", ""]
    for case, rows in results:
        misses = [r["concurrency"] for r in rows if not (r["throughput_ok"] and r["p50_ok"])]
        if misses:
            lines.append(f"- `{case['id']}` ({len(misses)} of {len(rows)} levels): "
                         f"{case.get('mechanism', 'no mechanism recorded')}")
    for n in spec.get("not_expressed", []):
        lines.append(f"- `{n['id']}`, not expressed: {n['why']}")
    lines += ["", "### Every level", "",
              "Throughput in inferences/s, latencies and the server queue in ms; predicted / measured (error). "
              "Every row is a target (kind: target); the calibration inputs are the offline tables named above"
              + (f", and {spec['http_row']}" if spec.get("http_row") else "") + ". p99 and the queue are reported, "
              "not judged.", ""]
    for case, rows in results:
        lines += [f"**{case['id']}** ({case['label']})", "",
                  "| concurrency | throughput | p50 | p99 | server queue | status |", "|---|---|---|---|---|---|"]
        for r in rows:
            m, p = r["measured"], r["predicted"]
            status = "ok" if r["throughput_ok"] and r["p50_ok"] else "miss"
            lines.append(f"| {r['concurrency']} | {p['throughput']:.0f} / {m['throughput']:.0f} "
                         f"({_pct(r['throughput_error'])}) | {p['p50']:.1f} / {m['p50']:.1f} ({_pct(r['p50_error'])}) | "
                         f"{p['p99']:.1f} / {m['p99']:.1f} | {p['queue']:.1f} / {m['queue']:.1f} | {status} |")
        lines.append("")
    return lines[:-1]
