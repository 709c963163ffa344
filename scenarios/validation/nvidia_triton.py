#!/usr/bin/env python3
"""Builds the NVIDIA Triton validation cases (docs/validation-sources.md §2) from the calibration part
of the source only: each offline table gives the kernel latency tau(B) and its spread, and the tables
of the GPUNet variants no case predicts give the range of the HTTP cost; the online tables of the
cases, the targets, are never read here.

    python3 scenarios/validation/nvidia_triton.py SONICSIM [--root DIR] [--check]

Writes, under the repository root (or --root, which must hold scenarios/validation/data/nvidia-triton):
  calibration/models/nvidia-triton/perf/CASE_batchB.csv  each offline row as a perf_analyzer -f CSV
      (integer us; Server Compute Infer holds the whole execution, Input + Infer + Output, so that
      `sonicsim calibrate FILE@BATCH` takes it as tau; Compute Input and Output are 0)
  calibration/models/nvidia-triton/CASE.json  `sonicsim calibrate ... --spread lognormal --select table`
  scenarios/validation/nvidia-CASE.json       the online setup as a perf_analyzer scenario, whose
      unmeasured values are declared unknowns (a range or alternatives with their source, "why")
--check writes into a temporary root and exits 1 if any file differs from the committed one.

The choices (one per assumption, the same in every case; docs/validation-sources.md §2):
  - HTTP cost of a request: Triton's HTTP frontend (8 handler threads, Triton's default
    --http-thread-count) holds a thread for a fixed per-request cost plus the input bytes at one rate;
    the client spends Client Send at another. The fixed cost is the Network+Server Send/Recv of the
    case's own offline table at batch 1 (shared memory: no tensor bytes), and for the T4, whose host
    has no such table, the DGX-1's. The two per-byte rates are declared unknowns: each ranges over
    what the lowest-concurrency rows of the five GPUNet variants no case predicts (SOURCE_WIDE) give
    on the case's host (DGX-1 for the V100, DGX A100 for the A100; both hosts for the T4's, which
    the source does not measure): Client Send over the image's bytes, and Network+Server Send/Recv
    less the same variant's offline batch-1 value over them.
  - The Triton release the source names: 21.12 for GPUNet (its READMEs' requirements, line 82, and
    GPUNet/triton/*/runner/config_*.yaml line 29), whose batcher closes a payload once it is queued
    (model key "batcher_payloads": "fixed"); for ResNet-50 the README names 20.11 (line 93) and its
    server script 21.02 (ConvNets/triton/scripts/docker/triton_inference_server.sh line 29), both
    before 21.07, whose batcher formed a batch when an instance asked for one, which today's growing
    payload matches ("grow", the default).
  - Client Send varies from request to request (lognormal): real requests never reach the server at
    one instant, where a deterministic simulation returns a whole batch's clients together and they
    arrive together again (lockstep). No row measures this spread: its standard deviation is a
    declared unknown, log-uniform from 1% to 100% of the nominal Client Send.
  - How perf_analyzer measured (GPUNet): in count windows of 500 requests (ONLINE_REQUEST_COUNT), as
    GPUNet's runner ran it; a window lasts until that many are answered, so its rate leaves out the
    requests in flight at its edges. ResNet-50's runner is not read for this: its cases keep time windows.
  - Online staging (GPUNet; source-wide, per host): an online execution copies its input from HTTP
    buffers, not shared memory, so its Compute Input is several times the offline one that tau holds.
    The model's "staging" (pageable: per_request + bytes / host_to_device.pageable) is what the rows
    of the SOURCE_WIDE online tables of the case's host give beyond the offline Compute Input
    (calibration input: gpunet-VARIANT_online_{v100,a100}.csv, columns Inferences/Second and Server
    Compute Input, Infer and Output; gpunet-VARIANT_offline_*.csv, columns Batch and Server Compute
    Input). A row's mean batch is not in the table: it is read off the row's own columns (row_batch:
    two instances busy, B = X x execution / 2). The excess per request is fitted by least squares
    over the variants' image bytes (staging_rows, online_staging), then scaled by STAGING_SHARE,
    fitted by runs of the simulator over the same variants (source_wide_terms.py --simulate SONICSIM
    --fit-staging): the simulated instances time-share the staging with the kernels, so part of the
    measured excess is the other instance's work. ResNet-50's offline table is over HTTP already: no
    staging is added there.
  - Two instances on one GPU time-share it, and an execution that starts while the other instance's
    runs adds a switching cost c of device work (GPUNet; source-wide, per host: "kernel_switch_cost"):
    on the rows of the SOURCE_WIDE online tables (Server Compute Infer over the offline value at the
    row's batch: 2.0 to 3.7 at batches below 4, 1.6 to 2.6 from 16), time-sharing's 2 is off by an RMS
    log error of 0.14 (V100) and 0.16 (A100), time-sharing with c, 2 (tau + c) / tau with c fitted on
    the same rows (switch_cost_s: about 0.22 ms on the DGX-1, 0.16 ms on the DGX A100), by 0.12 and
    0.13; "kernel_sharing": "occupancy" with u(B) from the offline tau(B) gives at most 2 (1.0 to 1.7
    at batches below 4) and 0.37 and 0.35, and with its interference cost s fitted on the same rows
    (0.22, 0.21) still 0.31 and 0.30: the occupancy model cannot give ratios above 2 at small batches
    without giving 4 and more at large ones, where a cost per execution is large beside a small
    batch's tau and small beside a large one's (source_wide_terms.py). No table of the source runs a
    model on the T4 with two instances: there kernel_overlap is a declared unknown from 0
    (time-sharing) to 1, and no switching cost is learned for its host.
  - ResNet-50's offline table has no split and runs over HTTP: tau(B) is its Avg Latency less the HTTP
    cost of B images at the nominal (middle) rates; its p50 is taken as the Avg (for the spread).
    Where tau so read does not grow with B, the table is bound by the transfer and the case is not
    expressed. The T4 host's instance count is a declared unknown: the README's online results name
    2 instances (line 505), its deployment commands set NUMBER_OF_MODEL_INSTANCES="1" (line 289).
"""
import argparse
import csv
import filecmp
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
DATA = "scenarios/validation/data/nvidia-triton"
MODELS = "calibration/models/nvidia-triton"
# The GPUNet variants no case predicts: their lowest-concurrency online rows give the HTTP cost's range.
SOURCE_WIDE = ("065ms", "085ms", "08ms-d", "125ms-d", "175ms")
HTTP_THREADS = 8  # Triton's --http-thread-count default (server src/command_line_parser.cc, http_thread_cnt_)
FP16 = 2  # bytes per element: the tables' precision; GPUNet triton/dataloader.py lines 60-69 and
# ConvNets triton/dataloader.py lines 53-58 cast inputs and labels to it
CLASSES = 1000  # output: one FP16 score per ImageNet class
CLIENT_SEND_CV = (0.01, 1.0)  # range of Client Send's coefficient of variation (above)

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
# The hosts whose source-wide rows bound a case's per-byte HTTP rates: its own, or both for the T4's.
RATE_HOSTS = {"V100": ("v100",), "A100": ("a100",), "T4": ("v100", "a100")}
HOST_NAMES = {"v100": "DGX-1", "a100": "DGX A100"}
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


def resolution(root, variant):
    """The input resolution of a GPUNet variant ("125ms-d"), from setup.csv."""
    rows = {r["quantity"]: r["value"] for r in read_table(root, "setup.csv")}
    return int(rows[f"gpunet_{variant.replace('-', '_')}_input_resolution"])


def http_rates(root, device):
    """The per-byte HTTP rates a case on `device` may have: {"server": (low, high), "client": (low, high)}
    in bits per second, over the lowest-concurrency online row of each SOURCE_WIDE variant on its
    host(s), with the sentence that says so."""
    server, client = [], []
    for variant in SOURCE_WIDE:
        size = image_bytes(resolution(root, variant))
        for host in RATE_HOSTS[device]:
            row = min(read_table(root, f"gpunet-{variant}_online_{host}.csv"), key=lambda r: int(r["Concurrency"]))
            fixed = float(read_table(root, f"gpunet-{variant}_offline_{host}.csv")[0]["Network+Server Send/Recv (ms)"])
            server.append(8 * size / ((float(row["Network+Server Send/Recv (ms)"]) - fixed) * 1e-3))
            client.append(8 * size / (float(row["Client Send (ms)"]) * 1e-3))
    hosts = " and ".join(HOST_NAMES[h] for h in RATE_HOSTS[device])
    source = (f"the lowest-concurrency online rows of GPUNet {', '.join(SOURCE_WIDE)} on the {hosts} host"
              f"{'s' if len(RATE_HOSTS[device]) > 1 else ''} ({DATA}/gpunet-VARIANT_online_*.csv, no case's target)")
    return {"server": (min(server), max(server)), "client": (min(client), max(client)), "source": source}


def interpolate(points, batch):
    """The value at `batch` of a table's (batch, value) points, linear between rows, flat beyond them."""
    points = sorted(points)
    if batch <= points[0][0]:
        return points[0][1]
    for (b0, v0), (b1, v1) in zip(points, points[1:]):
        if batch <= b1:
            return v0 + (v1 - v0) * (batch - b0) / (b1 - b0)
    return points[-1][1]


def execution_ms(row):
    """A row's execution: Server Compute Input + Infer + Output, ms (each a per-request mean of its batch's)."""
    return sum(float(row[f"Server Compute {part} (ms)"]) for part in ("Input", "Infer", "Output"))


def row_batch(row, instances=2):
    """The mean batch of an online row, from its own columns: its executions (Compute Input + Infer +
    Output, each a per-request mean of a batch's time) keep `instances` instances busy, so X = instances
    x B / execution; where they are idle part of the time this is a lower bound (at least 1)."""
    return max(1.0, float(row["Inferences/Second"]) * execution_ms(row) * 1e-3 / instances)


# GPUNet's online tests counted windows of 500 requests (GPUNet/triton/*/runner/pipeline_impl.py,
# --measurement-request-count 500; run_performance_on_triton.py: --measurement-mode count_windows by default):
# the GPUNet cases, and the runs that fit STAGING_SHARE, measure the same way (scenarios/README.md, "Count windows").
ONLINE_REQUEST_COUNT = 500

# The share of the staging learned from the online rows that the simulated executions take (online_staging):
# the simulated instances time-share every phase of an execution, the staging included (scenarios/README.md,
# "The request path"), so a staging the rows give is slowed again in the simulation. Fitted by runs of the
# simulator over the SOURCE_WIDE cases (source_wide_terms.py --fit-staging: mean log throughput error 0).
STAGING_SHARE = {"V100": 0.199, "A100": 0.184}


def sharing_rows(root, host):
    """(variant, the row's batch, offline Compute Infer at that batch, online Compute Infer), ms, of every
    SOURCE_WIDE online row of a host, the batch from the row's own columns (row_batch)."""
    rows = []
    for variant in SOURCE_WIDE:
        infer = [(int(r["Batch"]), float(r["Server Compute Infer (ms)"]))
                 for r in read_table(root, f"gpunet-{variant}_offline_{host}.csv")]
        for r in read_table(root, f"gpunet-{variant}_online_{host}.csv"):
            batch = row_batch(r)
            rows.append((variant, batch, interpolate(infer, batch), float(r["Server Compute Infer (ms)"])))
    return rows


def switch_cost_s(root, device):
    """The switching cost c per execution of two busy time-sharing instances on a host (scenarios/README.md,
    "Kernels sharing a device"): each execution takes 2 (tau + c), so c is fitted on the SOURCE_WIDE rows
    (sharing_rows) by fit_switch_cost_ms."""
    rows = sharing_rows(root, RATE_HOSTS[device][0])
    return fit_switch_cost_ms([(offline, online) for _, _, offline, online in rows]) * 1e-3


def fit_switch_cost_ms(rows):
    """c (ms, to 0.1 us) minimising the squared log error of 2 (offline + c) / online over (offline, online) rows:
    golden-section search over 0 to 10 ms, which assumes one minimum there (each term's log rises with c, so the
    sum falls, then rises)."""
    def error(c_ms):
        return sum(math.log(2 * (offline + c_ms) / online) ** 2 for offline, online in rows)

    low, high, ratio = 0.0, 10.0, (math.sqrt(5) - 1) / 2
    for _ in range(100):
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        low, high = (low, b) if error(a) < error(b) else (a, high)
    return round((low + high) / 2 * 1e4) / 1e4


def staging_rows(root, host):
    """(image bytes, online Compute Input beyond the offline one per request, s) of every SOURCE_WIDE
    online row of a host: (online Compute Input - offline Compute Input at the row's batch) / batch,
    the batch from the row's own columns (row_batch)."""
    points = []
    for variant in SOURCE_WIDE:
        size = image_bytes(resolution(root, variant))
        offline = [(int(r["Batch"]), float(r["Server Compute Input (ms)"]) * 1e-3)
                   for r in read_table(root, f"gpunet-{variant}_offline_{host}.csv")]
        for r in read_table(root, f"gpunet-{variant}_online_{host}.csv"):
            batch = row_batch(r)
            points.append((size, (float(r["Server Compute Input (ms)"]) * 1e-3 - interpolate(offline, batch)) / batch))
    return points


def line_fit(points):
    """(intercept, slope) of the least-squares line through (x, y) points, the intercept at least 0: a
    negative one is refitted as 0, through the origin (no request costs less than nothing)."""
    n = len(points)
    mean_x, mean_y = sum(x for x, _ in points) / n, sum(y for _, y in points) / n
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / sum((x - mean_x) ** 2 for x, _ in points)
    intercept = mean_y - slope * mean_x
    if intercept < 0:
        return 0.0, sum(x * y for x, y in points) / sum(x * x for x, _ in points)
    return intercept, slope


def online_staging(root, device, share=None):
    """The staging of an online execution beyond the offline one that tau holds, as a pageable copy (HTTP
    buffers are not pinned): {"per_request": s, "s_per_byte": s, "rows": n, "source": sentence}. Least
    squares in seconds of staging_rows over the image bytes of the variants on the case's host (a negative
    per-request cost refitted as 0, through the origin), times the share (STAGING_SHARE by default)."""
    host = {"V100": "v100", "A100": "a100"}[device]
    share = STAGING_SHARE[device] if share is None else share
    points = staging_rows(root, host)
    n = len(points)
    per_request, slope = line_fit(points)
    source = (f"every row of the online tables of GPUNet {', '.join(SOURCE_WIDE)} on the {HOST_NAMES[host]} host "
              "(no case's target): per request, Server Compute Input less the offline one at the row's batch "
              "(Inferences/Second x execution / 2 instances), least squares over the image bytes, times "
              f"{share:g}, the share fitted by runs of the simulator on those variants")
    return {"per_request": share * per_request, "s_per_byte": share * slope, "rows": n, "source": source}


def nominal_s_per_byte(rates, side):
    """The rate a single value takes (a range's median: the middle of its uniform range), as s per byte."""
    low, high = rates[side]
    return 8 / ((low + high) / 2)


def fixed_cost_s(root, case):
    offline, _, _, device, _ = CASES[case]
    name = offline if offline.startswith("gpunet") else HOST_TABLE[device]
    return float(read_table(root, name)[0]["Network+Server Send/Recv (ms)"]) * 1e-3


def perf_rows(root, case):
    """The offline rows of a case as perf_analyzer rows (batch, row cells), tau in Server Compute Infer."""
    offline, resolution, _, device, _ = CASES[case]
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
    rates = http_rates(root, device)
    client_s, server_s = nominal_s_per_byte(rates, "client"), nominal_s_per_byte(rates, "server")
    fixed = fixed_cost_s(root, case)
    for r in read_table(root, offline):
        batch = int(r["Client Batch Size"])
        send = us(1e3 * batch * image_bytes(resolution) * client_s)
        network = us(1e3 * (fixed + batch * (image_bytes(resolution) + CLASSES * FP16) * server_s))
        execution = us(r["Avg Latency"]) - send - network
        if execution <= 0:
            raise NotExpressed(f"{DATA}/{offline}: at batch {batch} the HTTP cost of the images ({(send + network) / 1e3:g} "
                               f"ms at the source-wide rates) is not below the measured Avg Latency ({r['Avg Latency']} ms): "
                               "this offline table is bound by the transfer, and tau cannot be read off it")
        if rows and execution < rows[-1][1][6]:
            raise NotExpressed(f"{DATA}/{offline}: tau read off it falls from {rows[-1][1][6] / 1e3:g} ms at batch "
                               f"{rows[-1][0]} to {execution / 1e3:g} ms at batch {batch}: the table is bound by the "
                               "HTTP transfer of the images, and what is left of it is not a kernel time")
        rows.append((batch, [1, r["Inferences/second"], send, network, 0, 0, execution, 0, 0, us(r["Avg Latency"]),
                             us(r["P90 Latency"]), us(r["P95 Latency"]), us(r["P99 Latency"])]))
    return rows


def calibrate(sonicsim, root, case):
    rows = perf_rows(root, case)
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


def between(low, high, unit, why, distribution=None):
    """A declared unknown: a range (numbers in `unit`) with its source."""
    out = {"between": [f"{low:.6g}{unit}", f"{high:.6g}{unit}"], "why": why}
    return out | ({"distribution": distribution} if distribution else {})


def staging_block(root, device, share=None):
    """The model's "staging": the online Compute Input beyond the offline one that tau holds (online_staging)."""
    staging = online_staging(root, device, share)
    return {"memory": "pageable", "per_request": f"{1e6 * staging['per_request']:.6g}us",
            "host_to_device": {"pageable": f"{8 / staging['s_per_byte'] / 1e9:.6g}Gbps"}}


def scenario(root, case):
    offline, resolution, max_batch, device, online = CASES[case]
    rates = http_rates(root, device)
    size = image_bytes(resolution)
    fixed = fixed_cost_s(root, case)
    model = "gpunet" if offline.startswith("gpunet") else "resnet50"
    levels = [int(r["Concurrency"] if "Concurrency" in r else r["Concurrent client requests"])
              for r in read_table(root, online)]
    link = {"bandwidth": "100Gbps", "latency": "10us"}
    server_low, server_high = rates["server"]
    client_low, client_high = rates["client"]
    send_us = 1e6 * size * nominal_s_per_byte(rates, "client")
    per_byte = "HTTP per-byte rate, the {} side: the range of {}".format
    frontend = {"threads": HTTP_THREADS, "per_request": f"{1e6 * fixed:.6g}us",
                "input_bandwidth": between(server_low / 1e9, server_high / 1e9, "Gbps", per_byte("server",
                                                                                               rates["source"])),
                "per_response": "0s", "output_bandwidth": f"{8 / nominal_s_per_byte(rates, 'server'):.6g}bps"}
    instances = 2
    server = {"name": "triton", "count": 1, "devices_per_server": 1, "device": device, "nic": link, "models": [model],
              "frontend": frontend}
    if model == "resnet50":
        instances = {"one_of": [2, 1], "why": "the README's online results name 2 model instances (line 505), its "
                                              "deployment commands set NUMBER_OF_MODEL_INSTANCES=\"1\" (line 289)"}
        server["kernel_overlap"] = {"between": [0.0, 1.0], "why": "no table of the source runs a model on the T4 with two "
                                                              "instances: from time-sharing (0) to full overlap (1)"}
    if model == "gpunet":
        server["kernel_switch_cost"] = f"{1e6 * switch_cost_s(root, device):.6g}us"
    switching = (f"An execution that starts while the other instance's runs adds {server['kernel_switch_cost']} of "
                 f"device work (learned on the online rows of GPUNet {', '.join(SOURCE_WIDE)} on the same host, no "
                 "case's target). " if model == "gpunet" else "")
    counted = (f" (perf_analyzer's count windows of {ONLINE_REQUEST_COUNT} requests, as GPUNet's runner measured)"
               if model == "gpunet" else "")
    sharing = ("2 instances time-sharing" if model == "gpunet" else
               "2 instances (or 1: declared) sharing, by an overlap declared from 0 to 1,")
    return {
        "name": f"nvidia-{case}",
        "description": (
            f"NVIDIA's online perf_analyzer test of {case} (DeepLearningExamples@729963dd; {DATA}/{online} is the "
            f"target, not read to build this): batch-1 requests of 3x{resolution}x{resolution} FP16 over HTTP from "
            f"another host, concurrency {levels[0]} to {levels[-1]}{counted}, Triton's dynamic batcher (max batch "
            f"{max_batch}, preferred {max_batch}, queue delay 0; payloads {PAYLOADS[model]} once queued, as in Triton "
            f"{'21.12' if model == 'gpunet' else '20.11 and 21.02'}) and {sharing} one {device}. {switching}"
            f"Kernel tau(B) and its lognormal spread: {MODELS}/{case}.json, fitted on {DATA}/{offline} only. HTTP: "
            f"frontend {HTTP_THREADS} threads, {1e3 * fixed:g} ms per request (the offline Network+Server Send/Recv "
            f"at batch 1) plus the input at {server_low / 1e9:.3g} to {server_high / 1e9:.3g} Gbps; client send of "
            f"the image at {client_low / 1e9:.3g} to {client_high / 1e9:.3g} Gbps (lognormal, its spread declared: "
            f"requests never arrive at one instant); the rates' ranges from {rates['source']}. Links 100 Gbps, 10 "
            "us (not limiting). Written by scenarios/validation/nvidia_triton.py."),
        "platform": {
            "worker_pools": [{"name": "client", "nodes": 1, "cores_per_node": 1, "cpu_speed": 1.0, "nic": link}],
            "placement": "fill",
            "site_uplink": link,
            "servers": [server],
            "load_balancing": "per_job"},
        "models": {model: {
            "input_bytes_per_item": f"{size}B",
            "output_bytes_per_item": f"{CLASSES * FP16}B",
            "max_batch_size": max_batch,
            "dynamic_batching": {"preferred_batch_size": [max_batch], "max_queue_delay_microseconds": 0},
            "instance_group": [{"kind": "KIND_GPU", "count": instances}],
            "batcher_payloads": PAYLOADS[model],
            "kernel_latency_by_device": {device: {"type": "calibrated", "file": f"../../{MODELS}/{case}.json"}}}
            | ({"staging": staging_block(root, device)} if model == "gpunet" else {})},
        "perf_analyzer": {
            "model": model, "batch_size": 1, "concurrency": levels, "warmup": "2s", "measurement_interval": "2s",
            "windows": 3}
            | ({"measurement_mode": "count_windows", "measurement_request_count": ONLINE_REQUEST_COUNT}
               if model == "gpunet" else {})
            | {
            "client_send": {"distribution": "lognormal",
                            "mean": between(1e6 * size * 8 / client_high, 1e6 * size * 8 / client_low, "us",
                                            per_byte("client", rates["source"])),
                            "stddev": between(CLIENT_SEND_CV[0] * send_us, CLIENT_SEND_CV[1] * send_us, "us",
                                              "no row measures how far apart the clients' requests arrive: from 1% "
                                              "to 100% of the nominal Client Send", "log-uniform")},
            "client_recv": "0s"},
        "simulation": {"seed": 1, "network": {"model": "CM02", "tcp_gamma": "0B", "crosstraffic": False},
                       "outputs": []},
    }


def build(sonicsim, root):
    """Writes every file; returns {case: reason} for the cases the rules cannot calibrate."""
    shutil.rmtree(os.path.join(root, MODELS, "perf"), ignore_errors=True)
    skipped = {}
    for case in CASES:
        try:
            calibrate(sonicsim, root, case)
        except NotExpressed as e:
            skipped[case] = str(e)
            continue
        with open(os.path.join(root, "scenarios", "validation", f"nvidia-{case}.json"), "w") as f:
            json.dump(scenario(root, case), f, indent=2)
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
