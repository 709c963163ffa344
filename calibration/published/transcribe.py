#!/usr/bin/env python3
"""Regenerate the published GPU batch-scan CSVs of calibration/published/ from their sources.

    python3 transcribe.py PLOT_GPU_COMPARISON_PY [--aitemplate-root DIR] [--out-dir DIR] [--check]

PLOT_GPU_COMPARISON_PY: a local copy of batchscanning/plot_gpu_comparison.py of
github.com/EthanColbert8/PyTritonStudies at commit 4a8008be91b5170d47ef7ae7bd233c05e76583c2, e.g.
    git --git-dir=MIRROR show 4a8008be91b5170d47ef7ae7bd233c05e76583c2:batchscanning/plot_gpu_comparison.py > plot_gpu_comparison.py
--aitemplate-root DIR: a directory holding examples/01_resnet-50/README.md, examples/03_bert/README.md
and examples/04_vit/README.md of github.com/facebookincubator/AITemplate at commit
c8aad3774cddca8934f06281755aff5d7e5def40 (without it, only the PyTritonStudies files are made).
--out-dir DIR: where the CSVs go (default: the directory of this script).
--check: write nothing; compare what would be written with the files in --out-dir, byte for byte.

Nothing here holds a measured number: every value is read from the source text (the numeric
literals of the dict lists, via the ast module, including the blocks the source has commented
out; the cells of the README tables). Unit changes are exact decimal shifts of the printed digits
(decimal.Decimal.scaleb), so no digit is added or rounded away. The one computed column,
derived_batch_over_throughput_s, is batch_size / throughput to 10 significant digits and is
labelled as derived. Python 3 standard library only.
"""
import argparse
import ast
import decimal
import hashlib
import io
import os
import re
import sys
import tokenize

PTS_REPO = "github.com/EthanColbert8/PyTritonStudies"
PTS_COMMIT = "4a8008be91b5170d47ef7ae7bd233c05e76583c2"
PTS_FILE = "batchscanning/plot_gpu_comparison.py"
PTS_BLOB = "94ed71c3c64d56e38c28173c7dca3edbdb0fe95c"  # git blob id of PTS_FILE at PTS_COMMIT
AIT_REPO = "github.com/facebookincubator/AITemplate"
AIT_COMMIT = "c8aad3774cddca8934f06281755aff5d7e5def40"
AIT_FILES = {  # path -> git blob id at AIT_COMMIT
    "examples/01_resnet-50/README.md": "3f75060ffe199e5147000cbbfb4e32c9b61119bc",
    "examples/03_bert/README.md": "019a2368c022fe6ddcae309b38e91c972fff838f",
    "examples/04_vit/README.md": "fc747b4a1d57d527ee44c8095c92fe713ee1d0db",
}
NA = "n/a (published)"
MAGIC = "# sonicsim calibration data v1"
BASE_COLUMNS = ["batch_size", "mean_s", "p50_s", "p99_s", "stddev_s", "repeats", "throughput_items_per_s"]


def git_blob_id(data):
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def slug(name):
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def shift(text, places):
    """The decimal number `text` times 10**places, exactly, in plain decimal notation."""
    d = decimal.Decimal(text).scaleb(places)
    out = format(d, "f")
    return out


def ratio10(numerator, denominator):
    with decimal.localcontext() as ctx:
        ctx.prec = 10
        return format(decimal.Decimal(numerator) / decimal.Decimal(denominator), "f")


# ---------------------------------------------------------------------------------------------
# PyTritonStudies: batchscanning/plot_gpu_comparison.py
# ---------------------------------------------------------------------------------------------

# Source legend label -> device name (this project's spelling), device_type.
PTS_DEVICES = {
    "AMD MI100": ("AMD Instinct MI100", "rocm"),
    "AMD MI210": ("AMD Instinct MI210", "rocm"),
    "Nvidia A10": ("NVIDIA A10", "cuda"),
    "Nvidia A30": ("NVIDIA A30", "cuda"),
    "Nvidia A100 (40 GB)": ("NVIDIA A100 40GB", "cuda"),
    "Nvidia V100 (32 GB)": ("NVIDIA V100 32GB", "cuda"),
    "Nvidia V100 (32GB)": ("NVIDIA V100 32GB", "cuda"),
    "Nvidia T4": ("NVIDIA T4", "cuda"),
}

BSI = "Batch_Scan_info.md"
PN_DESC = ("ParticleNet AK4 jet tagger of fastmachinelearning/sonic-models; per jet pf_points (2,100), "
           "pf_features (20,100), pf_mask (1,100), sv_points (2,10), sv_features (11,10), sv_mask (1,10), float32, "
           "random standard-normal values regenerated every trial")
PN_WEIGHTS = "trained weights as shipped in fastmachinelearning/sonic-models"

# One entry per kind of scan in the source file. 'where' says how to find the dicts.
PTS_FAMILIES = [
    {
        "id": "direct_pytorch", "where": ("assign", "direct_info"), "model": "particlenet", "runtime": "pytorch",
        "tag": {"rocm": "", "cuda": ""}, "repeats": "100", "derived": True,
        "method_section": "section \"Direct-Inference Benchmarks\"",
        "framework": "pytorch (TorchScript model.pt via torch.jit.load), direct inference in the scanning process",
        "framework_version": {
            "rocm": NA + "; the environment recipe (" + BSI + " line 18) installs torch from the PyTorch rocm5.7 wheel index",
            "cuda": NA},
        "python_version": {"rocm": NA + "; the conda recipe (" + BSI + " line 13) uses python=3.8", "cuda": NA},
        "hip_version": NA + "; PyTorch wheels of the rocm5.7 index (" + BSI + " line 18)",
        "scripts": {"rocm": "batchscanning/scan_pnet_pt.py", "cuda": "batchscanning/scan_pnet_pt_cuda.py"},
        "command": {"rocm": "python scan_pnet_pt.py SAVE_NAME GPU_TYPE (" + BSI + "; actual arguments not published)",
                    "cuda": "python scan_pnet_pt_cuda.py SAVE_NAME GPU_TYPE (actual arguments not published)"},
        "model_name": "particlenet_AK4_PT (sonic-models models/particlenet_AK4_PT/1/model.pt)",
        "model_description": PN_DESC,
        "weights": PN_WEIGHTS,
        "precision": "fp32 (float32 inputs; the script changes no precision setting)",
        "repetitions": ("101 timed trials per batch size, the first discarded (n_trials = 101; times[1:]), so 100 "
                        "enter the statistics; no other warm-up; batch sizes scanned in increasing order"),
        "timing": {
            "rocm": ("time.perf_counter_ns() around: .to(device) of the six input tensors (host-to-device copy "
                     "included), the model call and, in the script at " + PTS_COMMIT[:7] + ", torch.cuda.synchronize() "
                     "(scan_pnet_pt.py lines 63-76); input generation (torch.randn on the CPU) is outside the timer; "
                     "under torch.no_grad()"),
            "cuda": ("time.perf_counter_ns() around: .to(device) of the six input tensors (host-to-device copy "
                     "included) and the model call, with NO torch.cuda.synchronize() (scan_pnet_pt_cuda.py lines "
                     "65-76); input generation (torch.randn on the CPU) is outside the timer; under torch.no_grad()")},
        "date_utc": NA + "; numbers added to the source in ca9ba7c4d7ab7e3aa3d68a12b9fb5db6faf84471 (2025-02-10)",
        "data_commit": "ca9ba7c4d7ab7e3aa3d68a12b9fb5db6faf84471 (2025-02-10, \"update scanning protocol to record timing info\")",
        "notes_family": {
            "rocm": [
                "torch.cuda.synchronize() is in scan_pnet_pt.py only from commit d0c668e (2025-03-31, committed from the "
                "AMD cluster), after these numbers were committed (ca9ba7c, 2025-02-10); whether the run that produced them "
                "had it cannot be told from the repository.",
            ],
            "cuda": [
                "scan_pnet_pt_cuda.py never calls torch.cuda.synchronize(): the timer stops when the model call returns; "
                "GPU work still queued is waited for by the next trial's blocking host-to-device copy, so part of the GPU "
                "time can fall outside the timed interval (overlapping the untimed input generation).",
                "The script does not set torch.backends.cudnn.allow_tf32, whose PyTorch default is True, so on Ampere "
                "GPUs (A10, A30, A100) cuDNN convolutions may have run in TF32.",
            ]},
    },
    {
        "id": "triton_pytorch", "where": ("assign", "triton_info"), "model": "particlenet", "runtime": "pytorch",
        "tag": {"rocm": "pytriton", "cuda": "triton"}, "repeats": "100", "derived": True,
        "method_section": "sections \"Triton Inference Server\" and \"Clients and Requests\"",
        "framework": {
            "rocm": ("pytorch (TorchScript) behind PyTriton (nvidia-pytriton; server/server_pnet_pt.py, Python "
                     "inference function, ModelConfig(max_batch_size=5000)), one synchronous gRPC client "
                     "(pytriton.client.ModelClient.infer_batch) on the same node"),
            "cuda": ("pytorch (TorchScript) behind the containerized NVIDIA Triton Inference Server (PyTorch backend, "
                     "model particlenet_AK4_PT), one synchronous gRPC client (tritonclient.grpc, localhost:8001)")},
        "framework_version": {
            "rocm": NA + "; recipe: torch from the rocm5.7 wheel index, nvidia-pytriton (" + BSI + " lines 16-18)",
            "cuda": NA},
        "python_version": {"rocm": NA + "; the conda recipe (" + BSI + " line 13) uses python=3.8", "cuda": NA},
        "hip_version": NA + "; PyTorch wheels of the rocm5.7 index (" + BSI + " line 18)",
        "scripts": {"rocm": "batchscanning/client_scan_pnet_pt_rocm.py and server/server_pnet_pt.py",
                    "cuda": "batchscanning/client_scan_pnet_pt_cuda.py"},
        "command": {"rocm": "python client_scan_pnet_pt_rocm.py SAVE_NAME GPU_TYPE against server/server_pnet_pt.py (actual arguments not published)",
                    "cuda": "python client_scan_pnet_pt_cuda.py SAVE_NAME GPU_TYPE against a Triton container (server command not published)"},
        "model_name": "particlenet_AK4_PT (sonic-models models/particlenet_AK4_PT/1/model.pt)",
        "model_description": PN_DESC,
        "weights": PN_WEIGHTS,
        "precision": "fp32 (float32 inputs)",
        "repetitions": ("101 requests per batch size, one at a time, the first discarded (n_trials = 101; times[1:]), "
                        "so 100 enter the statistics"),
        "timing": {
            "rocm": ("time.perf_counter_ns() around client.infer_batch(*inputs) (client_scan_pnet_pt_rocm.py lines "
                     "58-60): request round trip through PyTriton, including serialization, the server's copies to and "
                     "from the GPU (server_pnet_pt.py lines 23-31) and the model; input generation outside the timer"),
            "cuda": ("time.perf_counter_ns() around set_data_from_numpy of the six inputs, client.infer and "
                     "results.as_numpy (client_scan_pnet_pt_cuda.py lines 53-67): request round trip through Triton; "
                     "input generation outside the timer")},
        "date_utc": NA + "; numbers added to the source in ca9ba7c4d7ab7e3aa3d68a12b9fb5db6faf84471 (2025-02-10)",
        "data_commit": "ca9ba7c4d7ab7e3aa3d68a12b9fb5db6faf84471 (2025-02-10, \"update scanning protocol to record timing info\")",
        "notes_family": {
            "rocm": [
                "Request round-trip latency with one request in flight, not kernel latency: includes gRPC, PyTriton's "
                "Python inference function and host-device copies. Not the same server as the NVIDIA _triton files "
                "(PyTriton on AMD, the Triton container on NVIDIA).",
                "At the data commit (ca9ba7c) the committed server had max_batch_size=1000 and the committed ROCm client "
                "computed no errors; both changed in d0c668e (2025-03-31), so these numbers came from versions first "
                "committed later (the HEAD scripts, read at " + PTS_COMMIT[:7] + ").",
            ],
            "cuda": [
                "Request round-trip latency with one request in flight, not kernel latency: includes gRPC and the "
                "server's host-device copies. Not the same server as the AMD _pytriton files.",
            ]},
    },
    {
        "id": "direct_onnx", "where": ("comment", "######## ParticleNet (ONNX) ########"), "model": "particlenet",
        "runtime": "onnxruntime", "tag": {"rocm": "", "cuda": ""}, "repeats": "100", "derived": False,
        "method_section": "section \"Direct-Inference Benchmarks\", \"The Inference Step\"",
        "framework": {
            "rocm": ("onnxruntime, ROCMExecutionProvider only, direct inference (InferenceSession.run with NumPy "
                     "inputs) of sonic-models particlenet_AK4/1/model.onnx"),
            "cuda": ("onnxruntime, CUDAExecutionProvider only, direct inference (InferenceSession.run with NumPy "
                     "inputs) of sonic-models particlenet_AK4/1/model.onnx")},
        "framework_version": {
            "rocm": NA + "; the recipe (" + BSI + " line 20) installs onnxruntime_training-1.16.3+rocm55 as the build that works with MI100 and ParticleNet",
            "cuda": NA},
        "python_version": {"rocm": NA + "; the conda recipe (" + BSI + " line 13) uses python=3.8", "cuda": NA},
        "hip_version": NA + "; onnxruntime wheel built for ROCm 5.5 (" + BSI + " line 20)",
        "scripts": {"rocm": "batchscanning/scan_pnet_onnx.py", "cuda": "batchscanning/scan_pnet_onnx_cuda.py"},
        "command": {"rocm": "python scan_pnet_onnx.py SAVE_NAME GPU_TYPE (actual arguments not published)",
                    "cuda": "python scan_pnet_onnx_cuda.py SAVE_NAME GPU_TYPE (actual arguments not published)"},
        "model_name": "particlenet_AK4 (sonic-models models/particlenet_AK4/1/model.onnx)",
        "model_description": PN_DESC,
        "weights": PN_WEIGHTS,
        "precision": "fp32 (float32 inputs)",
        "repetitions": ("101 timed trials per batch size, the first discarded (n_trials = 101; times[1:]), so 100 "
                        "enter the statistics"),
        "timing": {
            "rocm": ("time.perf_counter_ns() around sess.run (scan_pnet_onnx.py lines 77-79), which includes "
                     "onnxruntime's host-to-device and device-to-host copies; input generation outside the timer"),
            "cuda": ("time.perf_counter_ns() around sess.run (scan_pnet_onnx_cuda.py lines 70-72), which includes "
                     "onnxruntime's host-to-device and device-to-host copies; input generation outside the timer")},
        "date_utc": NA + "; numbers added to the source in 909d212 (2024-10-07), where this block was live code",
        "data_commit": "909d212 (2024-10-07, \"add script to plot comparison among GPUs\"); commented out at " + PTS_COMMIT[:7],
        "notes_family": {
            "rocm": [
                "Graph optimization level: every committed scan_pnet_onnx.py up to the data commit (909d212) sets "
                "ORT_ENABLE_ALL; ORT_ENABLE_BASIC (\"To match runs that use older software\", line 31 at "
                + PTS_COMMIT[:7] + ") comes only in fdd8d6a (2025-01-07). The NVIDIA runs used ORT_ENABLE_BASIC, so "
                "the MI100 run probably had the higher level; the source does not record it.",
            ],
            "cuda": [
                "Graph optimization level ORT_ENABLE_BASIC (scan_pnet_onnx_cuda.py line 25, comment: needed on Gilbreth "
                "because of an old onnx).",
            ]},
    },
    {
        "id": "direct_tf", "where": ("comment", "######## DeepMET (Tensorflow) ########"), "model": "deepmet",
        "runtime": "tensorflow", "tag": {"rocm": "", "cuda": ""}, "repeats": "20", "derived": False,
        "method_section": "section \"Direct-Inference Benchmarks\", \"The Inference Step\"",
        "framework": ("tensorflow, TF1-style session (tf.compat.v1.Session) on the frozen graph sonic-models "
                      "models/deepmet/1/model.graphdef, direct inference"),
        "framework_version": {"rocm": NA + "; the recipe (" + BSI + " line 17) installs tensorflow-rocm", "cuda": NA},
        "python_version": {"rocm": NA + "; the conda recipe (" + BSI + " line 13) uses python=3.8", "cuda": NA},
        "hip_version": NA,
        "scripts": {"rocm": "batchscanning/scan_deepmet.py", "cuda": "batchscanning/scan_deepmet_cuda.py"},
        "command": {"rocm": "python scan_deepmet.py SAVE_NAME GPU_TYPE (actual arguments not published)",
                    "cuda": "python scan_deepmet_cuda.py SAVE_NAME GPU_TYPE (actual arguments not published)"},
        "model_name": "deepmet (sonic-models models/deepmet/1/model.graphdef)",
        "model_description": ("DeepMET; per event input (4500,8) standard-normal float64 NumPy array plus three (4500,1) "
                              "zero arrays (input_cat0..2), fed via feed_dict; output output/BiasAdd:0"),
        "weights": "trained weights as shipped in fastmachinelearning/sonic-models",
        "precision": NA + " (graph dtype as stored; the script changes no precision setting; inputs generated as float64)",
        "repetitions": ("21 timed trials per batch size, the first discarded (n_trials = 21; times[1:]), so 20 enter "
                        "the statistics"),
        "timing": {
            "rocm": ("time.perf_counter_ns() around sess.run(output_tensor, feed_dict) (scan_deepmet.py lines 63-65), "
                     "which includes feeding the NumPy inputs and fetching the output; input generation outside the timer"),
            "cuda": ("time.perf_counter_ns() around sess.run(output_tensor, feed_dict) (scan_deepmet_cuda.py lines "
                     "54-56), which includes feeding the NumPy inputs and fetching the output; input generation outside "
                     "the timer")},
        "date_utc": NA + "; numbers added to the source in 909d212 (2024-10-07)",
        "data_commit": "909d212 (2024-10-07, \"add script to plot comparison among GPUs\"); commented out there and at " + PTS_COMMIT[:7],
        "notes_family": {"rocm": [], "cuda": []},
    },
]


def _number_nodes(list_node, source, what):
    if not isinstance(list_node, ast.List):
        raise ValueError(f"{what}: expected a list literal")
    out = []
    for elt in list_node.elts:
        if not (isinstance(elt, ast.Constant) and type(elt.value) in (int, float)):
            raise ValueError(f"{what}: expected numbers only")
        text = ast.get_source_segment(source, elt)
        if float(text) != elt.value or not re.fullmatch(r"[0-9]+(\.[0-9]+)?", text):
            raise ValueError(f"{what}: unexpected literal {text}")
        out.append((text, elt.lineno))
    return out


def _series(dict_node, source, what):
    """{'batch_size': [(text, line), ...], 'latency': ..., ...} of one device's dict literal."""
    series = {}
    for key, value in zip(dict_node.keys, dict_node.values):
        if not isinstance(key, ast.Constant):
            continue
        if isinstance(value, ast.List):
            series[key.value] = _number_nodes(value, source, f"{what} '{key.value}'")
        elif isinstance(value, ast.Constant) and isinstance(value.value, str):
            series[key.value] = value.value
    return series


def _block_comments(block_source):
    comments = []
    for tok in tokenize.generate_tokens(io.StringIO(block_source).readline):
        if tok.type == tokenize.COMMENT:
            comments.append((tok.start[0], tok.string))
    return comments


def read_pts(path):
    raw = open(path, "rb").read()
    source = raw.decode("utf-8")
    lines = source.split("\n")
    datasets = []   # (family, label, series, first_line, last_line, extra_notes)
    skipped = []    # (what, first_line, last_line, reason)
    module = ast.parse(source)
    for family in PTS_FAMILIES:
        kind, name = family["where"]
        if kind == "assign":
            nodes = [n for n in module.body if isinstance(n, ast.Assign) and len(n.targets) == 1
                     and isinstance(n.targets[0], ast.Name) and n.targets[0].id == name]
            if len(nodes) != 1:
                raise ValueError(f"{path}: expected one assignment to {name}")
            outer = nodes[0].value
            for key, value in zip(outer.keys, outer.values):
                label = key.value
                datasets.append((family, label, _series(value, source, f"{name}[{label!r}]"),
                                 value.lineno, value.end_lineno, [], f"dict {name}, key \"{label}\""))
        else:
            start = lines.index(name)  # 0-based index of the section heading
            end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("########")), len(lines))
            i = start + 1
            while i < end:
                m = re.match(r"^# (\w+) = \{$", lines[i])
                if not m:
                    i += 1
                    continue
                j = next(k for k in range(i + 1, end) if lines[k] == "# }")
                block = [ln[2:] if ln.startswith("# ") else ln[1:] for ln in lines[i:j + 1]]
                if not all(ln.startswith("#") for ln in lines[i:j + 1]):
                    raise ValueError(f"{path}: line {i + 1}: expected a commented-out block")
                # Pad so that line numbers in the parsed text are the source file's line numbers.
                block_source = "\n" * i + "\n".join(block) + "\n"
                what = f"commented-out dict {m.group(1)} (lines {i + 1}-{j + 1})"
                try:
                    tree = ast.parse(block_source)
                except SyntaxError as e:
                    skipped.append((what, i + 1, j + 1, f"not a valid literal once uncommented ({e.msg} at line {e.lineno}): "
                                    "its lists are empty in the source"))
                    i = j + 1
                    continue
                value = tree.body[0].value
                series = _series(value, block_source, what)
                if "batch_size" not in series:  # e.g. the commented-out plot_dict, which holds no numbers
                    i = j + 1
                    continue
                label = series.get("name")
                comments = _block_comments(block_source)
                extra = []
                if comments:
                    extra.append("In the source the lists end with comments inside the literal ("
                                 + "; ".join(f"line {ln}: \"{text}\"" for ln, text in comments)
                                 + "): a point the author commented out; it is not transcribed.")
                datasets.append((family, label, series, i + 1, j + 1, extra,
                                 f"dict {m.group(1)} (commented out in the source)"))
                i = j + 1
    return raw, datasets, skipped


def pts_files(path):
    raw, datasets, skipped = read_pts(path)
    blob = git_blob_id(raw)
    files = {}
    for family, label, series, first, last, extra_notes, where_text in datasets:
        device, dtype = PTS_DEVICES[label]
        tag = family["tag"][dtype]
        name = f"{slug(device)}_{family['model']}_{family['runtime']}" + (f"_{tag}" if tag else "") + ".csv"
        pick = lambda d: d[dtype] if isinstance(d, dict) else d
        b, lat, thr = series["batch_size"], series["latency"], series["throughput"]
        lat_err, thr_err = series.get("latency_error"), series.get("throughput_error")
        if not (len(b) == len(lat) == len(thr)) or (lat_err and len(lat_err) != len(b)) or (thr_err and len(thr_err) != len(b)):
            raise ValueError(f"{label}: lists of different lengths")
        rows, outliers = [], []
        for k in range(len(b)):
            batch = b[k][0]
            mean = shift(lat[k][0], -3)
            std = shift(lat_err[k][0], -2) if lat_err else "0"
            row = [batch, mean, mean, mean, std, family["repeats"], thr[k][0]]
            if family["derived"]:
                derived = ratio10(batch, thr[k][0])
                row.append(derived)
                if decimal.Decimal(mean) > 2 * decimal.Decimal(derived):
                    outliers.append(batch)
            if thr_err:
                row.append(thr_err[k][0])
            row += [str(b[k][1]), str(lat[k][1])]
            if lat_err:
                row.append(str(lat_err[k][1]))
            row += [str(thr[k][1])]
            if thr_err:
                row.append(str(thr_err[k][1]))
            row.append(str(k))
            rows.append(row)
        columns = list(BASE_COLUMNS)
        if family["derived"]:
            columns.append("derived_batch_over_throughput_s")
        if thr_err:
            columns.append("throughput_sem_items_per_s")
        columns += ["source_line_batch_size", "source_line_latency"]
        if lat_err:
            columns.append("source_line_latency_error")
        columns.append("source_line_throughput")
        if thr_err:
            columns.append("source_line_throughput_error")
        columns.append("source_list_index")

        scripts = pick(family["scripts"])
        header = [
            ("device", device),
            ("device_type", dtype),
            ("device_memory_bytes", NA),
            ("compute_capability", NA if dtype == "cuda" else "n/a (rocm)"),
            ("driver_version", NA),
            ("cuda_version", NA if dtype == "cuda" else "n/a (rocm)"),
        ]
        if dtype == "rocm":
            header.append(("hip_version", family["hip_version"]))
        header += [
            ("cudnn_version", NA if dtype == "cuda" else "n/a (rocm)"),
            ("cudnn_benchmark", NA + "; the script does not set it" if dtype == "cuda" else "n/a (rocm)"),
            ("tf32", NA + "; the script does not set it" if dtype == "cuda" else "n/a (rocm)"),
            ("host_cpu", NA),
            ("framework", pick(family["framework"])),
            ("framework_version", pick(family["framework_version"])),
            ("python_version", pick(family["python_version"])),
            ("hostname", NA + ("; AMD HPC Fund Research Cloud (" + BSI + ")" if dtype == "rocm" else
                               "; a Purdue RCAC cluster (script paths /depot/cms/users/colberte)")),
            ("source", f"{PTS_REPO}@{PTS_COMMIT} {PTS_FILE} lines {first}-{last} ({where_text}), published by Ethan "
                       "Colbert (Purdue University; " + BSI + ") as plotting inputs in a public GitHub repository "
                       "(earlier commits by Yongbin Feng), not in a paper"),
            ("source_label", label),
            ("source_blob", f"{blob} (git blob id of the transcribed file; {PTS_BLOB} at {PTS_COMMIT[:7]})"),
            ("source_data_commit", family["data_commit"]),
            ("source_method", f"{BSI} ({family['method_section']}) and {scripts} at {PTS_COMMIT[:7]}"),
            ("command", pick(family["command"])),
            ("precision", family["precision"]),
            ("repetitions", family["repetitions"]),
            ("timing", pick(family["timing"])),
            ("weights", family["weights"]),
            ("model", family["model_name"]),
            ("model_description", family["model_description"]),
            ("model_parameters", NA),
            ("date_utc", family["date_utc"]),
            ("sweep_wall_s", NA),
            ("transcribed_by", "calibration/published/transcribe.py (numbers read from the source by ast; no number typed by hand)"),
        ]
        notes = [
            "mean_s = the source's 'latency' (mean over the kept trials, in ms) / 1000, an exact decimal shift of the printed digits.",
        ]
        if lat_err:
            notes.append("stddev_s = the source's 'latency_error' x 10 / 1000. The scripts compute latency_error = "
                         "np.std(latency) / sqrt_trials with sqrt_trials = 10.0 over the 100 kept trials, the standard "
                         "error of the mean; x 10 recovers np.std, the population standard deviation (ddof=0; the sample "
                         "one is sqrt(100/99) = 1.005 times larger). With repeats = 100, stddev_s / sqrt(repeats) is the "
                         "source's error exactly.")
        else:
            notes.append("stddev_s = 0 is a placeholder: this scan published no spread (the script computes none). "
                         "sonicsim's reader requires a number >= 0 there, and 0 means 'no spread given' to it.")
        notes.append("p50_s and p99_s are NOT published. sonicsim's reader requires a positive number in both columns "
                     "(an empty cell is rejected), so both repeat mean_s; fit these files with --statistic mean or throughput, "
                     "never p50 or p99.")
        notes.append("throughput_items_per_s = the source's 'throughput', the mean over trials of batch/t "
                     "(np.mean(size / times)), verbatim; it is not batch_size / mean_s as in calibration/data/README.md.")
        if family["derived"]:
            if outliers:
                notes.append("At batch " + ", ".join(outliers) + " the mean latency is dominated by a few slow trials "
                             "(the source's latency error there is close to the mean itself, while the throughput is not "
                             "affected); derived_batch_over_throughput_s = batch_size / throughput_items_per_s (the "
                             "harmonic mean of the trial times; derived by transcribe.py, 10 significant digits, not "
                             "published) is the better per-call latency at those batch sizes. mean_s is left as published; "
                             "calibration/models/published/ is fitted with sonicsim calibrate --statistic throughput, which "
                             "takes batch_size / throughput_items_per_s at every batch size of the file.")
            else:
                notes.append("derived_batch_over_throughput_s = batch_size / throughput_items_per_s (derived by "
                             "transcribe.py, 10 significant digits, not published); no batch size here has a mean latency "
                             "above twice it.")
        if thr_err:
            notes.append("throughput_sem_items_per_s = the source's 'throughput_error' (np.std(throughput) / 10), verbatim; "
                         "with --statistic throughput sonicsim takes batch / throughput^2 times it as the standard error "
                         "of the latency (delta method).")
        notes.append("source_line_* = line in " + PTS_FILE + " of the list holding this row's value; source_list_index "
                     "= the 0-based position in those lists.")
        notes += family["notes_family"][dtype]
        notes += extra_notes
        notes.append("The source does not name the exact SKU (e.g. A100 PCIe or SXM), driver, clocks or host.")
        text = [MAGIC] + [f"# {k}: {v}" for k, v in header] + [f"# note{i + 1}: {n}" for i, n in enumerate(notes)]
        text.append(",".join(columns))
        text += [",".join(r) for r in rows]
        if name in files:
            raise ValueError(f"two datasets map to {name}")
        files[name] = "\n".join(text) + "\n"
    return files, skipped, blob


# ---------------------------------------------------------------------------------------------
# AITemplate example READMEs: "Reference Speed vs PyTorch Eager" tables
# ---------------------------------------------------------------------------------------------

AIT_TABLE_HEADER = re.compile(r"^\| Batch size \| PT Latency \(ms\) \| PT QPS \((im|seq)/s\) \| AIT Latency \(ms\) \| AIT QPS \((im|seq)/s\) \|$")
AIT_MODELS = {
    "examples/01_resnet-50/README.md": ("resnet50", "ResNet-50 (timm resnet50, pretrained=False for PyTorch), input (batch, 3, 224, 224)"),
    "examples/03_bert/README.md": ("bert-base", "BERT-base-uncased encoder stack, hidden 768 (tables by the scripts' default --encoders-only True; the README does not say)"),
    "examples/04_vit/README.md": ("vit", "Vision Transformer from timm"),
}


def _ait_device(gpu_heading, gcd_heading):
    if gpu_heading.startswith("A100-40GB"):
        return "NVIDIA A100 40GB", "cuda"
    if gpu_heading.startswith("MI-250"):
        if gcd_heading == "1 GCD":
            return "AMD Instinct MI250 1 GCD", "rocm"
        if gcd_heading == "2 GCDs":
            return "AMD Instinct MI250 2 GCDs", "rocm"
    raise ValueError(f"unknown device heading {gpu_heading!r} / {gcd_heading!r}")


def read_ait(root):
    tables = []
    for rel, (model_base, model_desc) in AIT_MODELS.items():
        raw = open(os.path.join(root, rel), "rb").read()
        lines = raw.decode("utf-8").split("\n")
        gpu = gcd = variant = None
        i = 0
        while i < len(lines):
            ln = lines[i]
            if ln.startswith("### ") and not ln.startswith("### Note"):
                gpu, gcd, variant = ln[4:].strip(), None, None
            elif ln.startswith("#### "):
                gcd, variant = ln[5:].strip(), None
            elif ln.startswith("- ") and gpu:
                variant = ln[2:].strip()
            elif AIT_TABLE_HEADER.match(ln):
                unit = AIT_TABLE_HEADER.match(ln).group(1)
                rows = []
                k = i + 2
                while k < len(lines) and lines[k].startswith("|"):
                    cells = [c.strip() for c in lines[k].strip().strip("|").split("|")]
                    if len(cells) != 5:
                        raise ValueError(f"{rel} line {k + 1}: expected 5 cells")
                    rows.append((k + 1, cells))
                    k += 1
                tables.append((rel, raw, model_base, model_desc, gpu, gcd, variant, unit, i + 1, k, rows))
                i = k
                continue
            i += 1
    return tables


def ait_files(root):
    files = {}
    for rel, raw, model_base, model_desc, gpu, gcd, variant, unit, first, last, rows in read_ait(root):
        device, dtype = _ait_device(gpu, gcd)
        if model_base == "bert-base":
            m = re.fullmatch(r"Sequence length (\d+)", variant or "")
            model = f"bert-base-seq{m.group(1)}"
            desc = model_desc + f", sequence length {m.group(1)}"
        elif model_base == "vit":
            model = slug(variant)
            desc = model_desc + f" {variant}"
        else:
            model = model_base
            desc = model_desc
        blob = git_blob_id(raw)
        for runtime, lat_col, qps_col in (("pytorch", 1, 2), ("aitemplate", 3, 4)):
            name = f"{slug(device)}_{model}_{runtime}_fp16.csv"
            out_rows, missing = [], []
            for line_no, cells in rows:
                lat, qps = cells[lat_col], cells[qps_col]
                if lat == "" or lat == "OOM":
                    missing.append(f"{cells[0]} ({'OOM' if lat == 'OOM' else 'empty cell'})")
                    continue
                if not (re.fullmatch(r"[0-9]+", cells[0]) and re.fullmatch(r"[0-9]+\.[0-9]+", lat)
                        and re.fullmatch(r"[0-9]+\.[0-9]+", qps)):
                    raise ValueError(f"{rel} line {line_no}: unexpected cells {cells}")
                mean = shift(lat, -3)
                out_rows.append([cells[0], mean, mean, mean, "0", "100" if runtime == "pytorch" else "400", qps, str(line_no)])
            if not out_rows:
                continue
            example = os.path.dirname(rel)
            if runtime == "pytorch":
                framework = "pytorch 1.12 eager (README: \"PT = PyTorch 1.12 Eager\")"
                scripts = f"{example}/benchmark_pt.py"
                repetitions = ("aitemplate.testing.benchmark_pt.benchmark_torch_function(100, ...) called twice (the first "
                               "as warm-up); each call runs 5 untimed iterations, then 100 back-to-back timed iterations")
                timing = ("torch.cuda.Event elapsed time of the 100 back-to-back iterations / 100 (inputs already on the "
                          "GPU; no host-device copies; queued launches overlap, so this is throughput-style time per call)")
            else:
                framework = "AITemplate (compiled model .so; version: the repository's v0.1 era, not stated)"
                scripts = f"{example}/benchmark_ait.py"
                repetitions = ("Model.benchmark_with_tensors(count=100, repeat=4) called twice (the first as warm-up); "
                               "the value is the mean over the 4 repeats of the per-iteration time of 100 back-to-back "
                               "runs, so 400 iterations (repeats = 100 x 4)")
                timing = ("AITemplate runtime's ModelContainer benchmark (inputs already on the GPU); CUDA graphs on the "
                          "A100 (graph_mode True by default) but not on ROCm (the script forces use_graph False there)")
            header = [
                ("device", device),
                ("device_type", dtype),
                ("device_memory_bytes", NA),
                ("compute_capability", NA if dtype == "cuda" else "n/a (rocm)"),
                ("driver_version", NA),
                ("cuda_version", gpu.split(" / ")[1] if dtype == "cuda" else "n/a (rocm)"),
            ]
            if dtype == "rocm":
                header.append(("hip_version", gpu.split(" / ", 1)[1]))
            header += [
                ("cudnn_version", NA if dtype == "cuda" else "n/a (rocm)"),
                ("cudnn_benchmark", NA if dtype == "cuda" else "n/a (rocm)"),
                ("tf32", "n/a (fp16)"),
                ("host_cpu", NA),
                ("framework", framework),
                ("framework_version", NA if runtime == "aitemplate" else "1.12"),
                ("python_version", NA),
                ("hostname", NA),
                ("source", f"{AIT_REPO}@{AIT_COMMIT} {rel} lines {first}-{last} (section \"Reference Speed vs PyTorch "
                           f"Eager\", heading \"{gpu}\"" + (f" / \"{gcd}\"" if gcd else "") + (f" / \"{variant}\"" if variant else "")
                           + f", columns {'PT' if runtime == 'pytorch' else 'AIT'} Latency (ms) and QPS), published by "
                           "Meta in the AITemplate repository"),
                ("source_label", f"{gpu}" + (f", {gcd}" if gcd else "")),
                ("source_blob", f"{blob} (git blob id of the transcribed file; {AIT_FILES[rel]} at {AIT_COMMIT[:7]})"),
                ("source_data_commit", "44026ba7e7f5376a80cf0f2b333a0f25c0eeda6c (v0.1, 2022-09-28); the tables are unchanged since"),
                ("source_method", f"{scripts} at 44026ba7e7f5376a80cf0f2b333a0f25c0eeda6c"),
                ("command", f"python3 {scripts}" + ("" if gcd != "2 GCDs" else
                            " via benchmark_mi250.sh BATCH (one process per GCD, HIP_VISIBLE_DEVICES 0 and 1)" if runtime == "aitemplate" else
                            " (how it was run on 2 GCDs is not stated; benchmark_mi250.sh runs only benchmark_ait.py)")),
                ("precision", "fp16 (.half() inputs and model)" if runtime == "pytorch" else
                 "fp16 (dtype float16; --use-fp16-acc default True: fp16 accumulation)"),
                ("repetitions", repetitions),
                ("timing", timing),
                ("weights", NA),
                ("model", model),
                ("model_description", desc),
                ("model_parameters", NA),
                ("date_utc", NA + "; README tables committed in 44026ba (2022-09-28)"),
                ("sweep_wall_s", NA),
                ("transcribed_by", "calibration/published/transcribe.py (cells read from the README table; no number typed by hand)"),
            ]
            notes = [
                f"mean_s = the README's {'PT' if runtime == 'pytorch' else 'AIT'} Latency (ms) / 1000, an exact decimal "
                "shift of the printed digits. The value is an average over back-to-back iterations, not a per-call sample mean.",
                "stddev_s = 0 is a placeholder: no spread is published. sonicsim's reader requires a number >= 0 there, "
                "and 0 means 'no spread given' to it.",
                "p50_s and p99_s are NOT published. sonicsim's reader requires a positive number in both columns (an empty "
                "cell is rejected), so both repeat mean_s; fit these files with --statistic mean only.",
                f"throughput_items_per_s = the README's {'PT' if runtime == 'pytorch' else 'AIT'} QPS ({unit}/s), verbatim.",
                "source_line = the line of the README table row.",
            ]
            if dtype == "rocm" and gcd == "1 GCD":
                notes.append("MI250 1 GCD runs were frequency-locked (rocm-smi --setperfdeterminism 1700, README notes).")
            if gcd == "2 GCDs":
                notes.append("2 GCDs = the whole MI250 used data-parallel: two processes, each GCD processing half of the "
                             "batch, without perf-determinism (README notes); how the two processes' latencies were combined "
                             "is not stated. Not a single-device kernel latency.")
            if dtype == "cuda":
                notes.append("A100: frequency not locked; longer warm-up instead (README notes).")
            if missing:
                notes.append("Batch sizes without a value in the source: " + ", ".join(missing) + ".")
            text = [MAGIC] + [f"# {k}: {v}" for k, v in header] + [f"# note{i + 1}: {n}" for i, n in enumerate(notes)]
            text.append(",".join(BASE_COLUMNS + ["source_line"]))
            text += [",".join(r) for r in out_rows]
            if name in files:
                raise ValueError(f"two tables map to {name}")
            files[name] = "\n".join(text) + "\n"
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("plot_gpu_comparison")
    ap.add_argument("--aitemplate-root")
    ap.add_argument("--out-dir", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    files, skipped, blob = pts_files(args.plot_gpu_comparison)
    if blob != PTS_BLOB:
        print(f"warning: {args.plot_gpu_comparison} is blob {blob}, not {PTS_BLOB} ({PTS_FILE} at {PTS_COMMIT[:7]})", file=sys.stderr)
    for what, first, last, reason in skipped:
        print(f"not transcribed: {what}: {reason}", file=sys.stderr)
    if args.aitemplate_root:
        ait = ait_files(args.aitemplate_root)
        for rel, expected in AIT_FILES.items():
            got = git_blob_id(open(os.path.join(args.aitemplate_root, rel), "rb").read())
            if got != expected:
                print(f"warning: {rel} is blob {got}, not {expected}", file=sys.stderr)
        overlap = set(ait) & set(files)
        if overlap:
            raise ValueError(f"file names used twice: {sorted(overlap)}")
        files.update(ait)
    differ = 0
    for name in sorted(files):
        target = os.path.join(args.out_dir, name)
        data = files[name].encode("utf-8")
        rows = files[name].count("\n") - sum(1 for ln in files[name].split("\n") if ln.startswith("#")) - 1
        if args.check:
            same = os.path.exists(target) and open(target, "rb").read() == data
            differ += not same
            print(f"{'same' if same else 'DIFFERS'} {name} ({rows} rows)")
        else:
            with open(target, "wb") as f:
                f.write(data)
            print(f"wrote {name} ({rows} rows)")
    if args.check and differ:
        print(f"{differ} file(s) differ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
