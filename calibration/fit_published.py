#!/usr/bin/env python3
"""Fits every published direct-inference scan in calibration/published/ with `sonicsim calibrate`.

    python3 calibration/fit_published.py SONICSIM [--check] [--plot]

run from the repository root, writes one latency model per (device, model, runtime, precision) to
calibration/models/published/, and calibration/models/published/README.md: the table of every
fitted model with its fit quality. Through-server scans (`*_triton.csv`, `*_pytriton.csv`) are
validation data (docs/validation.md) and are not fitted. Every model is fitted with
`--statistic throughput` (calibration/published/README-batch-scans.md, "Small-batch outliers").

--check fits into a temporary directory and exits 1 if any file differs from the committed one.
--plot also draws calibration/models/published/particlenet-tau.png (analysis/plots/plot.py latency,
matplotlib): every ParticleNet direct scan, all GPUs, in one figure.
"""
import argparse
import filecmp
import json
import os
import subprocess
import sys
import tempfile

PUBLISHED = "calibration/published"
OUT = "calibration/models/published"
BOOTSTRAP = "1000"  # resamples per model, calibrate's default


def fail(message):
    print(f"fit_published.py: {message}", file=sys.stderr)
    sys.exit(2)


def direct_scans():
    names = sorted(n for n in os.listdir(PUBLISHED) if n.endswith(".csv"))
    scans = [n for n in names if not n.endswith(("_triton.csv", "_pytriton.csv")) and not n.startswith("mlperf-")]
    if not scans:
        fail(f"no published scans under {PUBLISHED}: run from the repository root")
    return scans


def header(path):
    keys = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                break
            key, sep, value = line[2:].rstrip("\n").partition(": ")
            if sep:
                keys[key] = value
    return keys


def describe(name):
    """(device, model, runtime) from the file name and header."""
    stem = name[:-4]
    keys = header(os.path.join(PUBLISHED, name))
    device = keys.get("device", stem.split("_")[0])
    parts = stem.split("_")
    model, runtime = parts[1], "_".join(parts[2:])
    return device, model, runtime


def fit(sonicsim, name, root):
    """Runs calibrate in root (the repository, or a scratch copy of its layout for --check), so that
    the command recorded in the model file is the same either way."""
    model = os.path.join(OUT, name[:-4] + ".json")
    command = [sonicsim, "calibrate", os.path.join(PUBLISHED, name), "--statistic", "throughput", "--bootstrap",
               BOOTSTRAP, "--seed", "1", "--quiet", "--output", model]
    run = subprocess.run(command, capture_output=True, text=True, cwd=root)
    if run.returncode != 0:
        fail(f"{' '.join(command)}: {run.stderr.strip()}")
    with open(os.path.join(root, model), encoding="utf-8") as f:
        return json.load(f)


# (model file stem, legend label) of the ParticleNet figure: colour by GPU, line style by runtime.
PARTICLENET_FIGURE = [
    ("amd-instinct-mi100_particlenet_pytorch", "MI100 PyTorch"),
    ("amd-instinct-mi100_particlenet_onnxruntime", "MI100 ONNX RT"),
    ("amd-instinct-mi210_particlenet_pytorch", "MI210 PyTorch"),
    ("nvidia-a100-40gb_particlenet_pytorch", "A100 40GB PyTorch"),
    ("nvidia-a100-40gb_particlenet_onnxruntime", "A100 40GB ONNX RT"),
    ("nvidia-a30_particlenet_pytorch", "A30 PyTorch"),
    ("nvidia-a30_particlenet_onnxruntime", "A30 ONNX RT"),
    ("nvidia-a10_particlenet_pytorch", "A10 PyTorch"),
    ("nvidia-v100-32gb_particlenet_pytorch", "V100 32GB PyTorch"),
    ("nvidia-v100-32gb_particlenet_onnxruntime", "V100 32GB ONNX RT"),
    ("nvidia-t4_particlenet_onnxruntime", "T4 ONNX RT"),
]


def draw_particlenet_figure():
    plot = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "analysis", "plots", "plot.py")
    command = [sys.executable, plot, "latency"] + [os.path.join(OUT, stem + ".json") for stem, _ in PARTICLENET_FIGURE]
    command += ["--labels", ",".join(label for _, label in PARTICLENET_FIGURE), "--title",
                "ParticleNet AK4 (fp32), direct inference: published scans (PyTritonStudies@4a8008b), "
                "tau = batch / throughput", "--out", os.path.join(OUT, "particlenet-tau.png")]
    if subprocess.run(command).returncode != 0:
        fail("plot.py latency failed")


def throughput_by_batch(models, stem):
    for name, _, _, _, m in models:
        if name == stem + ".json":
            return {int(p["batch"]): p["batch"] / p["latency_s"] for p in m["points"]}
    fail(f"no model {stem}.json")


# The posters' GPU claims: (poster and where docs/reference/ restates it, its words, rival devices).
CLAIMS = [
    ("The AMD GPU poster (docs/reference/published-results.md §3)", "Direct-inference tests show the AMD MI100 GPU has somewhat better throughput performance than the "
            "NVIDIA V100 and A30", ["nvidia-v100-32gb", "nvidia-a30"]),
    ("The Tier-2 poster (docs/reference/published-results.md §4)", "AMD MI100 has superior throughput to several existing GPU types (even A100s at smaller batch sizes)",
            ["nvidia-a100-40gb", "nvidia-v100-32gb", "nvidia-a30", "nvidia-a10", "nvidia-t4"]),
]


def runs_of(batches):
    """'4–16, 2048' from sorted batch sizes, contiguous in the scan's doubling grid."""
    if not batches:
        return "none"
    groups, start, prev = [], batches[0], batches[0]
    for b in batches[1:]:
        if b != 2 * prev:
            groups.append((start, prev))
            start = b
        prev = b
    groups.append((start, prev))
    return ", ".join(f"{a}" if a == b else f"{a}–{b}" for a, b in groups)


def claims_section(models):
    lines = ["", "## The posters' GPU claims, checked with these models", "",
             "Throughput of one GPU at a batch size is batch / τ. The ratio MI100 / rival at every scanned batch",
             "size, per runtime (the AMD GPU poster's study used ONNX Runtime for ParticleNet; the PyTorch scans came later).",
             "Ratios above 1: the MI100 is faster. Generated from the model files; calibration.sh checks it.", ""]
    for poster, words, rivals in CLAIMS:
        lines += [f"**{poster}**: \"{words}.\"", ""]
        for runtime in ["onnxruntime", "pytorch"]:
            mi100 = throughput_by_batch(models, f"amd-instinct-mi100_particlenet_{runtime}")
            batches = sorted(mi100)
            rows = [r for r in rivals if any(n == f"{r}_particlenet_{runtime}.json" for n, *_ in models)]
            if not rows:
                continue
            lines.append(f"| ParticleNet, {runtime}: MI100 / | " + " | ".join(str(b) for b in batches) +
                         " | MI100 faster at batch |")
            lines.append("| --- | " + " | ".join("---" for _ in batches) + " | --- |")
            for rival in rows:
                other = throughput_by_batch(models, f"{rival}_particlenet_{runtime}")
                ratios = {b: mi100[b] / other[b] for b in batches}
                device = next(d for n, d, *_ in models if n == f"{rival}_particlenet_{runtime}.json")
                lines.append(f"| {device} | " + " | ".join(f"{ratios[b]:.2f}" for b in batches) +
                             f" | {runs_of([b for b in batches if ratios[b] > 1])} |")
            lines.append("")
    lines += [
        "Where the claims hold: the AMD GPU poster's holds on ONNX Runtime, its own setup, at every batch size (MI100",
        "1.16–2.26× the V100 and A30; 1.16–1.25× from batch 32 up, \"somewhat better\"). With PyTorch it holds",
        "against the V100 everywhere but against the A30 only up to batch 32; from 64 up they are level",
        "(0.96–1.08). The Tier-2 poster's \"even A100s at smaller batch sizes\" holds up to batch 16 on ONNX Runtime and",
        "up to batch 32 on PyTorch; above that the A100 is ahead, by up to 1.5× (ONNX) and 2× (PyTorch) at",
        "batch 256–2048. \"Several existing GPU types\": the V100, A30 (ONNX) and T4 at every batch size, the A10",
        "from batch 32 up (PyTorch). Both comparisons are tilted by how the source measured (README-batch-scans.md,",
        "Caveats): the NVIDIA PyTorch script never synchronises, which can only flatter the NVIDIA GPUs, and",
        "the MI100 ONNX run probably used a higher graph-optimisation level than the NVIDIA ones, which",
        "flatters the MI100.",
        ""]
    return lines


def quality(form):
    q = form["quality"]
    return q["r_squared"], q["rms_relative_error"], q["max_relative_error"], q["max_relative_error_batch"]


def percent(x):
    return f"{100 * x:.1f}%"


def table(models):
    lines = [
        "# calibration/models/published — latency models fitted to the published scans",
        "",
        "Written by `python3 calibration/fit_published.py build/sonicsim`; do not edit by hand. One model per",
        "direct-inference scan of `../../published/` (README-batch-scans.md there says where each number",
        "comes from), fitted with `sonicsim calibrate FILE --statistic throughput` (τ = batch / throughput, the",
        "harmonic mean of the call times; the small-batch means of the PyTorch scans are dominated by a few",
        "slow calls). Scenarios use the `table` form (exact at every measured batch size, selected). The",
        "columns give how well the two closed forms describe the scan: R² on the latencies, the RMS and the",
        "largest relative error (at which batch), and for the knee form τ0 and the knee batch.",
        "",
        "| model file | device | model | runtime | batches | τ(min batch) | τ(max batch) | affine R² | affine RMS | affine max (at b) | knee R² | knee RMS | knee max (at b) | knee τ0, b_k |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, device, model, runtime, m in models:
        points = m["points"]
        affine, knee = m["forms"]["affine"], m["forms"]["knee"]
        ar2, arms, amax, ab = quality(affine)
        kr2, krms, kmax, kb = quality(knee)
        lines.append(
            f"| `{name}` | {device} | {model} | {runtime} | {points[0]['batch']:g}–{points[-1]['batch']:g} ({len(points)}) "
            f"| {1e3 * points[0]['latency_s']:.3g} ms | {1e3 * points[-1]['latency_s']:.3g} ms "
            f"| {ar2:.4f} | {percent(arms)} | {percent(amax)} ({ab:g}) "
            f"| {kr2:.4f} | {percent(krms)} | {percent(kmax)} ({kb:g}) "
            f"| {1e3 * knee['flat_s']:.3g} ms, {knee['knee_batch']:.3g} |")
    lines += [
        "",
        "Read with care: RMS and maximum are relative errors of the closed form at the measured points",
        "(the table form has none). A large affine error at small batch means the device is not full",
        "there (latency flat in the batch), which the knee form captures; a large knee error means the",
        "scan has structure neither form has (for example a step between two batch sizes).",
        "",
        "![ParticleNet tau(batch) per GPU](particlenet-tau.png)",
        "",
        "`particlenet-tau.png` (`fit_published.py SONICSIM --plot`): every ParticleNet direct scan; colour by",
        "GPU, solid PyTorch, dashed ONNX Runtime; the band is the 95% bootstrap of the table form (visible where",
        "the source's throughput error is large, as for V100 and MI210 PyTorch at large batch).",
        "",
    ]
    lines += claims_section(models)
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description="fit every published direct-inference scan with sonicsim calibrate")
    ap.add_argument("sonicsim", help="path to the sonicsim binary")
    ap.add_argument("--check", action="store_true", help="compare with the committed files instead of writing them")
    ap.add_argument("--plot", action="store_true", help="also draw the ParticleNet figure (matplotlib)")
    args = ap.parse_args()
    if not os.access(args.sonicsim, os.X_OK):
        fail(f"{args.sonicsim}: expected the sonicsim binary")
    sonicsim = os.path.abspath(args.sonicsim)
    scans = direct_scans()
    root = "."
    if args.check:
        root = tempfile.mkdtemp(prefix="fit_published.")
        os.makedirs(os.path.join(root, "calibration"))
        os.symlink(os.path.abspath(PUBLISHED), os.path.join(root, PUBLISHED))
    os.makedirs(os.path.join(root, OUT), exist_ok=True)
    models = []
    for name in scans:
        device, model_name, runtime = describe(name)
        models.append((name[:-4] + ".json", device, model_name, runtime, fit(sonicsim, name, root)))
    readme = table(models)
    with open(os.path.join(root, OUT, "README.md"), "w", encoding="utf-8") as f:
        f.write(readme)
    if not args.check:
        print(f"fitted {len(models)} models into {OUT}/, table in {OUT}/README.md")
        if args.plot:
            draw_particlenet_figure()
        return 0
    differ = [name for name in [m[0] for m in models] + ["README.md"]
              if not os.path.exists(os.path.join(OUT, name))
              or not filecmp.cmp(os.path.join(root, OUT, name), os.path.join(OUT, name), shallow=False)]
    for d in differ:
        print(f"fit_published.py: {OUT}/{d} differs from a fresh fit", file=sys.stderr)
    print(f"checked {len(models)} models: {'all identical' if not differ else f'{len(differ)} differ'}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
