#!/usr/bin/env python3
"""Kernel time per execution and the server frontend of the CMS Mini-AOD T4, from the perf_analyzer scans.

    python3 calibration/models/cms-miniaod-t4/fit_executions.py --sonicsim build/sonicsim [--check]

The scans (scenarios/validation/data/cms-miniaod/perf_analyzer/, one perf_analyzer row per client batch B at
concurrency 4, async gRPC on localhost) ran against a server whose dynamic batcher merged about two requests
per execution, and the PyTorch backend reports its GPU time in Compute Output (README.md here). So a row is
read as one execution of

    items = throughput x T_exec,   T_exec = Compute Input + Compute Infer + Compute Output

(the mean items per execution when one instance is always busy: Little's law on the instance). Rows that
round to the same item count are averaged. For each scan the script writes executions/<scan>.csv (a
calibration CSV, data/README.md's format, p50 = p99 = mean since perf_analyzer gives only means for the
split) and runs `sonicsim calibrate` on it into nvidia-t4_<scan>_executions.json.

The frontend: every row's Network+Server Send/Recv (localhost, so the server's parsing of the request and
serialising of the response) is fitted, over all four scans at once, as per_request + request bytes /
bandwidth, least squares on the relative error (weights 1 / y^2): one frontend for the one server. Request
bytes are B x the scan's bytes per item (float32 tensors): ParticleNet 100 particles x 23 + 10 vertices x 14
floats = 9760 B per jet (runner.py's --shape; the AK8 scans have no runner and are taken to be padded the
same, as AK8 jets are in production); DeepMET 4500 candidates x 11 features = 198000 B; DeepTau one tau's
grids (11 x 11 inner + 21 x 21 outer cells x (86 + 64 + 38) features) and 43 tau features = 422796 B. The
fit is written to frontend.json. --check refits into a scratch folder and exits 1 where a committed file
differs.

The AK4 scan pads every jet to 100 particles + 10 vertices, production to 50 + 5 (paper_setup.csv): how the
kernel time follows the padding is not measured. Beside the fit per scanned jet, the script writes the fit
per padded element, in production jets (executions/particlenet_AK4_PT_per_element.csv and
nvidia-t4_particlenet-ak4_pytorch_per_element.json: each scanned jet counted as the production jets whose
elements it holds, 2440 / 1220 = 2): the two ends of the range the CMS scenarios declare.
"""
import argparse
import csv
import filecmp
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
SCANS_DIR = os.path.join(REPO, "scenarios", "validation", "data", "cms-miniaod", "perf_analyzer")
SOURCE = ("yongbinfeng/SONIC_miniAOD_paper_2022@d1f5d28fb024e66adceeb01e1ab3aaf39a490ffe "
          "explicit_model_file_location/")
PARTICLENET_JET_BYTES = 4 * (100 * (2 + 20 + 1) + 10 * (2 + 11 + 1))
DEEPMET_EVENT_BYTES = 4 * 4500 * 11
DEEPTAU_TAU_BYTES = 4 * ((11 * 11 + 21 * 21) * (86 + 64 + 38) + 43)
SETUP_CSV = os.path.join(REPO, "scenarios", "validation", "data", "cms-miniaod", "paper_setup.csv")
SCANS = {  # scan folder -> (model file name part, bytes per item of the scan's requests)
    "particlenet_AK4_PT": ("particlenet-ak4_pytorch", PARTICLENET_JET_BYTES),
    "particlenet_PT": ("particlenet-ak8_pytorch", PARTICLENET_JET_BYTES),
    "deepmet": ("deepmet_tensorflow", DEEPMET_EVENT_BYTES),
    "deeptau_nosplit_trt": ("deeptau_tensorflow-trt", DEEPTAU_TAU_BYTES),
}


def production_ak4_jet_bytes():
    """float32 bytes of one AK4 jet as production pads it (paper_setup.csv: particles and vertices)."""
    with open(SETUP_CSV, encoding="utf-8") as f:
        setup = {r["quantity"]: int(r["value"]) for r in csv.DictReader(l for l in f if not l.startswith("#"))
                 if r["quantity"] in ("ak4_padding_particles", "ak4_padding_vertices")}
    return 4 * (setup["ak4_padding_particles"] * (2 + 20 + 1) + setup["ak4_padding_vertices"] * (2 + 11 + 1))


# The scans whose jets are padded beyond production's: (file name part, scanned elements per production jet's).
PER_ELEMENT = {"particlenet_AK4_PT": ("particlenet-ak4_pytorch_per_element",
                                      lambda: PARTICLENET_JET_BYTES / production_ak4_jet_bytes())}


def read_scan(scan):
    """[(B, row)] by increasing B; row = perf_analyzer's columns (times in us)."""
    rows = []
    folder = os.path.join(SCANS_DIR, scan)
    for name in os.listdir(folder):
        batch = int(name[len(scan) + len("_batch"):-len(".csv")])
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            rows.append((batch, next(csv.DictReader(f))))
    return sorted(rows, key=lambda r: r[0])


def executions(rows, items_per_item=1.0):
    """{items per execution: [T_exec s, ...]} of one scan, each scanned item counted as `items_per_item`."""
    by_items = {}
    for _, row in rows:
        t_exec = sum(float(row[c]) for c in ("Server Compute Input", "Server Compute Infer",
                                              "Server Compute Output")) * 1e-6
        items = round(float(row["Inferences/Second"]) * t_exec * items_per_item)
        by_items.setdefault(max(1, items), []).append(t_exec)
    return by_items


def write_executions_csv(path, scan, by_items, items_per_item=1.0):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("# sonicsim calibration data v1\n"
                "# device: NVIDIA T4\n"
                "# device_type: cuda\n"
                f"# source: {SOURCE}{scan}/ (perf_analyzer -f CSVs, concurrency 4, async gRPC; imported by "
                "scenarios/validation/import_sources.py)\n"
                "# command: python3 calibration/models/cms-miniaod-t4/fit_executions.py --sonicsim build/sonicsim\n"
                "# timing: one execution of the dynamic batcher: Server Compute Input + Infer + Output of a row; "
                "batch_size = Inferences/Second x that time, rounded (rows of one size averaged)\n"
                "# note1: perf_analyzer gives means only: p50_s and p99_s repeat mean_s, stddev_s is 0, repeats counts "
                "the rows averaged\n"
                + ("" if items_per_item == 1 else f"# note2: items are production jets: each scanned jet holds the "
                   f"padded elements of {items_per_item:g} (fit_executions.py, PER_ELEMENT)\n"))
        f.write("batch_size,mean_s,p50_s,p99_s,stddev_s,repeats,throughput_items_per_s\n")
        for items in sorted(by_items):
            times = by_items[items]
            mean = sum(times) / len(times)
            f.write(f"{items},{mean:.6e},{mean:.6e},{mean:.6e},0,{len(times)},{items / mean:.6e}\n")


def fit_frontend(scans):
    """Weighted least squares of Network+Server Send/Recv = a + c x bytes over every row of every scan."""
    sw = sx = sy = sxx = sxy = 0.0
    points = []
    for scan, rows in scans.items():
        for batch, row in rows:
            x = batch * SCANS[scan][1]
            y = float(row["Network+Server Send/Recv"]) * 1e-6
            w = 1 / y**2
            sw, sx, sy, sxx, sxy = sw + w, sx + w * x, sy + w * y, sxx + w * x * x, sxy + w * x * y
            points.append((scan, batch, x, y))
    c = (sw * sxy - sx * sy) / (sw * sxx - sx * sx)
    a = (sy - c * sx) / sw
    residuals = [{"scan": s, "batch": b, "request_bytes": x, "measured_s": y, "fitted_s": a + c * x,
                  "relative_error": round((a + c * x) / y - 1, 4)} for s, b, x, y in points]
    return {"about": "Triton's gRPC frontend of the CMS Mini-AOD T4 server: per_request + request bytes / "
                     "input_bandwidth, fitted on the perf_analyzer scans' Network+Server Send/Recv by "
                     "calibration/models/cms-miniaod-t4/fit_executions.py (weighted least squares, all four scans)",
            "per_request": f"{a * 1e3:.4f}ms", "input_bandwidth": f"{8 / c / 1e9:.4f}Gbps",
            "bytes_per_item": {s: SCANS[s][1] for s in SCANS}, "residuals": residuals}


def build(sonicsim, out):
    os.makedirs(os.path.join(out, "executions"), exist_ok=True)
    scans = {scan: read_scan(scan) for scan in SCANS}
    fits = [(scan, f"{scan}.csv", f"nvidia-t4_{SCANS[scan][0]}_executions.json", 1.0) for scan in SCANS]
    fits += [(scan, f"{scan}_per_element.csv", f"nvidia-t4_{name}.json", factor()) for scan, (name, factor) in
             PER_ELEMENT.items()]
    for scan, csv_name, model_name, items_per_item in fits:
        csv_path = os.path.join(out, "executions", csv_name)
        write_executions_csv(csv_path, scan, executions(scans[scan], items_per_item), items_per_item)
        model = os.path.join(out, model_name)
        # Relative paths in the model file's recorded command, whatever the output folder.
        rel_csv = os.path.relpath(csv_path, out)
        subprocess.run([os.path.abspath(sonicsim), "calibrate", rel_csv, "--output", os.path.relpath(model, out),
                        "--quiet"], check=True, cwd=out)
    with open(os.path.join(out, "frontend.json"), "w", encoding="utf-8") as f:
        json.dump(fit_frontend(scans), f, indent=1)
        f.write("\n")


def outputs():
    names = [os.path.join("executions", f"{s}.csv") for s in SCANS]
    names += [f"nvidia-t4_{SCANS[s][0]}_executions.json" for s in SCANS] + ["frontend.json"]
    names += [os.path.join("executions", f"{s}_per_element.csv") for s in PER_ELEMENT]
    names += [f"nvidia-t4_{name}.json" for name, _ in PER_ELEMENT.values()]
    return names


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sonicsim", required=True)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if not args.check:
        build(args.sonicsim, HERE)
        with open(os.path.join(HERE, "frontend.json"), encoding="utf-8") as f:
            fe = json.load(f)
        print(f"frontend: per_request {fe['per_request']}, input_bandwidth {fe['input_bandwidth']}")
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        build(args.sonicsim, scratch)
        differ = [n for n in outputs() if not os.path.exists(os.path.join(HERE, n))
                  or not filecmp.cmp(os.path.join(HERE, n), os.path.join(scratch, n), shallow=False)]
    for n in differ:
        print(f"fit_executions.py: {n} differs from a refit", file=sys.stderr)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
