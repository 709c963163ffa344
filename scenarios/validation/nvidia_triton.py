#!/usr/bin/env python3
"""Builds the NVIDIA Triton validation cases (docs/validation-sources.md §2) from the calibration part
of the source only: each offline table gives the kernel latency tau(B) and its spread, and one row
named below gives the HTTP cost; the online tables, the targets, are never read here.

    python3 scenarios/validation/nvidia_triton.py SONICSIM [--root DIR] [--check]

Writes, under the repository root (or --root, which must hold scenarios/validation/data/nvidia-triton):
  calibration/models/nvidia-triton/perf/CASE_batchB.csv  each offline row as a perf_analyzer -f CSV
      (integer us; Server Compute Infer holds the whole execution, Input + Infer + Output, so that
      `sonicsim calibrate FILE@BATCH` takes it as tau; Compute Input and Output are 0)
  calibration/models/nvidia-triton/CASE.json  `sonicsim calibrate ... --spread lognormal --select table`
  scenarios/validation/nvidia-CASE.json       the online setup as a perf_analyzer scenario
--check writes into a temporary root and exits 1 if any file differs from the committed one.

The choices (one per assumption, the same in every case; docs/validation-sources.md §2):
  - HTTP cost of a request: Triton's HTTP frontend (8 handler threads, Triton's default
    --http-thread-count) holds a thread for a fixed per-request cost plus the input bytes at one rate;
    the client spends Client Send at another. Both rates come from one row, the lowest concurrency of
    GPUNet 2.25ms-D on the A100 (HTTP_ROW): its Client Send and Network+Server Send/Recv over the
    image's bytes. The fixed cost is the Network+Server Send/Recv of the case's own offline table at
    batch 1 (shared memory: no tensor bytes), and for the T4, whose host has no such table, the DGX-1's.
  - The Triton release the source names: 21.12 for GPUNet (GPUNet/triton/*/runner/config_*.yaml line 29),
    whose batcher closes a payload once it is queued (model key "batcher_payloads": "fixed"); 21.02 for
    ResNet-50 (ConvNets/triton/scripts/docker/triton_inference_server.sh line 29), whose batcher formed a
    batch when an instance asked for one, which today's growing payload matches ("grow", the default).
  - Client Send varies from request to request (lognormal, cv CLIENT_SEND_CV): real requests never reach
    the server at one instant, where a deterministic simulation returns a whole batch's clients together
    and they arrive together again (lockstep). No source row measures this spread; the predictions do
    not depend on its size (cv 0.01 and 0.1 give the same rows within a few per cent), only on the
    arrival instants being distinct.
  - Two instances on one GPU time-share it (no kernel_overlap key): the offline tables have one busy
    instance, so nothing on the calibration side measures how two overlap.
  - ResNet-50's offline table has no split and runs over HTTP: tau(B) is its Avg Latency less the HTTP
    cost of B images by the rule above; its p50 is taken as the Avg (for the spread). Where tau so read
    does not grow with B, the table is bound by the transfer and the case is not expressed.
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
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
DATA = "scenarios/validation/data/nvidia-triton"
MODELS = "calibration/models/nvidia-triton"
HTTP_ROW = ("gpunet-225ms-d_online_a100.csv", 528)  # the row that calibrates the HTTP cost, its image side
HTTP_THREADS = 8  # Triton's --http-thread-count default (server src/command_line_parser.cc, http_thread_cnt_)
FP16 = 2  # bytes per element: the tables' precision; GPUNet triton/dataloader.py lines 60-69 and
# ConvNets triton/dataloader.py lines 53-58 cast inputs and labels to it
CLASSES = 1000  # output: one FP16 score per ImageNet class
CLIENT_SEND_CV = 0.1  # spread of Client Send, so that requests do not arrive in lockstep (above)

# Triton release of each model's deployment -> how its batcher treats a queued payload (above).
PAYLOADS = {"gpunet": "fixed", "resnet50": "grow"}
# case -> (offline table, input resolution, max batch size, Triton device name, online table)
CASES = {
    "gpunet-225ms-d-v100": ("gpunet-225ms-d_offline_v100.csv", 528, 64, "V100", "gpunet-225ms-d_online_v100.csv"),
    "gpunet-225ms-d-a100": ("gpunet-225ms-d_offline_a100.csv", 528, 64, "A100", "gpunet-225ms-d_online_a100.csv"),
    "gpunet-05ms-d-v100": ("gpunet-05ms-d_offline_v100.csv", 224, 64, "V100", "gpunet-05ms-d_online_v100.csv"),
    "gpunet-05ms-d-a100": ("gpunet-05ms-d_offline_a100.csv", 224, 64, "A100", "gpunet-05ms-d_online_a100.csv"),
    "resnet50-t4": ("resnet50-pytorch_offline_t4.csv", 224, 128, "T4", "resnet50-pytorch_online_t4.csv"),
    "resnet50-a100": ("resnet50-pytorch_offline_a100.csv", 224, 128, "A100", "resnet50-pytorch_online_a100.csv"),
}
# The fixed HTTP cost of a host without a shared-memory table: its own GPU's, and for the T4 the DGX-1's.
HOST_TABLE = {"V100": "gpunet-225ms-d_offline_v100.csv", "A100": "gpunet-225ms-d_offline_a100.csv",
              "T4": "gpunet-225ms-d_offline_v100.csv"}
PERF_HEADER = ["Concurrency", "Inferences/Second", "Client Send", "Network+Server Send/Recv", "Server Queue",
               "Server Compute Input", "Server Compute Infer", "Server Compute Output", "Client Recv", "p50 latency",
               "p90 latency", "p95 latency", "p99 latency"]


class NotExpressed(Exception):
    """A case the rules above cannot calibrate (the reason is reported, not worked around)."""


def fail(message):
    sys.exit(f"nvidia_triton.py: error: {message}")


def read_table(root, name):
    path = os.path.join(root, DATA, name)
    try:
        with open(path, encoding="utf-8") as f:
            return list(csv.DictReader(line for line in f if not line.startswith("#")))
    except OSError as e:
        fail(f"{path}: {e}")


def image_bytes(resolution):
    return 3 * resolution * resolution * FP16


def us(ms):
    return round(float(ms) * 1000)


def http_cost(root):
    """Per-byte HTTP times (s per byte) of the client and of the server frontend, from HTTP_ROW."""
    table, resolution = HTTP_ROW
    row = min(read_table(root, table), key=lambda r: int(r["Concurrency"]))
    offline = read_table(root, table.replace("_online_", "_offline_"))
    fixed_s = float(offline[0]["Network+Server Send/Recv (ms)"]) * 1e-3
    size = image_bytes(resolution)
    client_s = float(row["Client Send (ms)"]) * 1e-3 / size
    server_s = (float(row["Network+Server Send/Recv (ms)"]) * 1e-3 - fixed_s) / size
    source = (f"{DATA}/{table}, Concurrency {row['Concurrency']}: Client Send {row['Client Send (ms)']} ms and "
              f"Network+Server Send/Recv {row['Network+Server Send/Recv (ms)']} ms for {size} B, less the fixed "
              f"{offline[0]['Network+Server Send/Recv (ms)']} ms of its offline table at batch 1")
    return client_s, server_s, source


def fixed_cost_s(root, case):
    offline, _, _, device, _ = CASES[case]
    name = offline if offline.startswith("gpunet") else HOST_TABLE[device]
    return float(read_table(root, name)[0]["Network+Server Send/Recv (ms)"]) * 1e-3


def perf_rows(root, case, http):
    """The offline rows of a case as perf_analyzer rows (batch, row cells), tau in Server Compute Infer."""
    offline, resolution, _, _, _ = CASES[case]
    rows = []
    if offline.startswith("gpunet"):
        for r in read_table(root, offline):
            execution = us(r["Server Compute Input (ms)"]) + us(r["Server Compute Infer (ms)"]) + \
                us(r["Server Compute Output (ms)"])
            rows.append((int(r["Batch"]), [1, r["Inferences/Second"], us(r["Client Send (ms)"]),
                                           us(r["Network+Server Send/Recv (ms)"]), us(r["Server Queue (ms)"]), 0,
                                           execution, 0, us(r["Client Recv (ms)"]), us(r["p50 latency (ms)"]),
                                           us(r["p90 latency (ms)"]), us(r["p95 latency (ms)"]),
                                           us(r["p99 latency (ms)"])]))
        return rows
    client_s, server_s, _ = http
    fixed = fixed_cost_s(root, case)
    for r in read_table(root, offline):
        batch = int(r["Client Batch Size"])
        send = us(1e3 * batch * image_bytes(resolution) * client_s)
        network = us(1e3 * (fixed + batch * (image_bytes(resolution) + CLASSES * FP16) * server_s))
        execution = us(r["Avg Latency"]) - send - network
        if execution <= 0:
            raise NotExpressed(f"{DATA}/{offline}: at batch {batch} the HTTP cost of the images ({(send + network) / 1e3:g} "
                               f"ms by the source's rate) is not below the measured Avg Latency ({r['Avg Latency']} ms): "
                               "this offline table is bound by the transfer, and tau cannot be read off it")
        if rows and execution < rows[-1][1][6]:
            raise NotExpressed(f"{DATA}/{offline}: tau read off it falls from {rows[-1][1][6] / 1e3:g} ms at batch "
                               f"{rows[-1][0]} to {execution / 1e3:g} ms at batch {batch}: the table is bound by the "
                               "HTTP transfer of the images, and what is left of it is not a kernel time")
        rows.append((batch, [1, r["Inferences/second"], send, network, 0, 0, execution, 0, 0, us(r["Avg Latency"]),
                             us(r["P90 Latency"]), us(r["P95 Latency"]), us(r["P99 Latency"])]))
    return rows


def calibrate(sonicsim, root, case, http):
    rows = perf_rows(root, case, http)
    os.makedirs(os.path.join(root, MODELS, "perf"), exist_ok=True)
    inputs = []
    for batch, cells in rows:
        name = f"{MODELS}/perf/{case}_batch{batch}.csv"
        with open(os.path.join(root, name), "w", newline="") as f:
            writer = csv.writer(f, lineterminator="\n")
            writer.writerow(PERF_HEADER)
            writer.writerow(cells)
        inputs.append(f"{name}@{batch}")
    subprocess.run([sonicsim, "calibrate", *inputs, "--spread", "lognormal", "--select", "table", "--bootstrap", "0",
                    "--output", f"{MODELS}/{case}.json", "--quiet"], cwd=root, check=True)


def scenario(root, case, http):
    offline, resolution, max_batch, device, online = CASES[case]
    client_s, server_s, source = http
    size = image_bytes(resolution)
    fixed = fixed_cost_s(root, case)
    model = "gpunet" if offline.startswith("gpunet") else "resnet50"
    levels = [int(r["Concurrency"] if "Concurrency" in r else r["Concurrent client requests"])
              for r in read_table(root, online)]
    link = {"bandwidth": "100Gbps", "latency": "10us"}
    return {
        "name": f"nvidia-{case}",
        "description": (
            f"NVIDIA's online perf_analyzer test of {case} (DeepLearningExamples@729963dd; {DATA}/{online} is the "
            f"target, not read to build this): batch-1 requests of 3x{resolution}x{resolution} FP16 over HTTP from "
            f"another host, concurrency {levels[0]} to {levels[-1]}, Triton's dynamic batcher (max batch "
            f"{max_batch}, preferred {max_batch}, queue delay 0; payloads {PAYLOADS[model]} once queued, as in Triton "
            f"{'21.12' if model == 'gpunet' else '21.02'}) and 2 instances time-sharing one {device}. "
            f"Kernel tau(B) and its lognormal spread: {MODELS}/{case}.json, fitted on {DATA}/{offline} only. HTTP: "
            f"frontend {HTTP_THREADS} threads, {1e3 * fixed:g} ms per request (the offline Network+Server Send/Recv "
            f"at batch 1) plus the input at {8 / server_s / 1e9:.4g} Gbps; client send {1e3 * size * client_s:.4g} "
            f"ms (mean; lognormal, cv {CLIENT_SEND_CV}: requests never arrive at one instant); both rates from {source}. Links 100 Gbps, 10 us (not limiting). Written by "
            "scenarios/validation/nvidia_triton.py."),
        "platform": {
            "worker_pools": [{"name": "client", "nodes": 1, "cores_per_node": 1, "cpu_speed": 1.0, "nic": link}],
            "placement": "fill",
            "site_uplink": link,
            "servers": [{
                "name": "triton", "count": 1, "devices_per_server": 1, "device": device, "nic": link,
                "models": [model],
                "frontend": {"threads": HTTP_THREADS, "per_request": f"{1e6 * fixed:.6g}us",
                             "input_bandwidth": f"{8 / server_s:.6g}bps", "per_response": "0s",
                             "output_bandwidth": f"{8 / server_s:.6g}bps"}}],
            "load_balancing": "per_job"},
        "models": {model: {
            "input_bytes_per_item": f"{size}B",
            "output_bytes_per_item": f"{CLASSES * FP16}B",
            "max_batch_size": max_batch,
            "dynamic_batching": {"preferred_batch_size": [max_batch], "max_queue_delay_microseconds": 0},
            "instance_group": [{"kind": "KIND_GPU", "count": 2}],
            "batcher_payloads": PAYLOADS[model],
            "kernel_latency_by_device": {device: {"type": "calibrated", "file": f"../../{MODELS}/{case}.json"}}}},
        "perf_analyzer": {
            "model": model, "batch_size": 1, "concurrency": levels, "warmup": "2s", "measurement_interval": "2s",
            "windows": 3, "client_send": {"distribution": "lognormal", "mean": f"{1e6 * size * client_s:.6g}us",
                            "stddev": f"{1e6 * size * client_s * CLIENT_SEND_CV:.6g}us"},
            "client_recv": "0s"},
        "simulation": {"seed": 1, "network": {"model": "CM02", "tcp_gamma": "0B", "crosstraffic": False},
                       "outputs": []},
    }


def build(sonicsim, root):
    """Writes every file; returns {case: reason} for the cases the rules cannot calibrate."""
    http = http_cost(root)
    shutil.rmtree(os.path.join(root, MODELS, "perf"), ignore_errors=True)
    skipped = {}
    for case in CASES:
        try:
            calibrate(sonicsim, root, case, http)
        except NotExpressed as e:
            skipped[case] = str(e)
            continue
        with open(os.path.join(root, "scenarios", "validation", f"nvidia-{case}.json"), "w") as f:
            json.dump(scenario(root, case, http), f, indent=2)
            f.write("\n")
    return skipped


def generated(root):
    names = [f"{MODELS}/{n}" for n in os.listdir(os.path.join(root, MODELS)) if n.endswith(".json")]
    names += [f"{MODELS}/perf/{n}" for n in os.listdir(os.path.join(root, MODELS, "perf"))]
    names += [f"scenarios/validation/{n}" for n in os.listdir(os.path.join(root, "scenarios", "validation"))
              if n.startswith("nvidia-") and n.endswith(".json")]
    return sorted(names)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sonicsim")
    parser.add_argument("--root", default=REPO)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    sonicsim = os.path.abspath(args.sonicsim)
    if not args.check:
        for case, reason in build(sonicsim, args.root).items():
            print(f"not expressed: {case}: {reason}")
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copytree(os.path.join(args.root, DATA), os.path.join(scratch, DATA))
        os.makedirs(os.path.join(scratch, MODELS))
        build(sonicsim, scratch)
        fresh, committed = generated(scratch), generated(args.root)
        stale = sorted(set(fresh) ^ set(committed))
        stale += [n for n in fresh if n in committed and not filecmp.cmp(os.path.join(scratch, n),
                                                                         os.path.join(args.root, n), shallow=False)]
    if stale:
        print("nvidia_triton.py: stale (run it without --check): " + ", ".join(sorted(stale)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
