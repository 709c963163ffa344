#!/usr/bin/env python3
"""The server frontend of particlenet-through-server.json, fitted on one GPU per server.

    python3 scenarios/validation/fit_frontend.py [--check]

The published ParticleNet scans (calibration/published/) time the same model directly and through
a server with one synchronous client. Their difference per batch b, overhead(b) = t_server(b) -
t_direct(b) (t = b / throughput, as the direct models are fitted), is taken as a frontend of
per_request + b x 9792 B / bandwidth (9760 B of inputs and 32 B of scores per jet, both at the same
rate), fitted by least squares on the relative error of t_server: on the A100 for NVIDIA's Triton
and on the MI100 for PyTriton (AMD). The other GPUs keep these values: their through-server scans
are then independent of the simulation's inputs. --check exits 1 unless cases.json's
"scan_frontends" hold these values (to the digits written there).
"""
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PUBLISHED = os.path.join(HERE, "..", "..", "calibration", "published")
CASES = os.path.join(HERE, "cases.json")
BYTES_PER_JET = 9760 + 32
FITS = {"triton": "nvidia-a100-40gb", "pytriton": "amd-instinct-mi100"}


def latencies(path):
    with open(path, encoding="utf-8") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    return {int(r["batch_size"]): int(r["batch_size"]) / float(r["throughput_items_per_s"]) for r in rows}


def fit(device, server):
    direct = latencies(os.path.join(PUBLISHED, f"{device}_particlenet_pytorch.csv"))
    through = latencies(os.path.join(PUBLISHED, f"{device}_particlenet_pytorch_{server}.csv"))
    # Weighted least squares of overhead = a + c b with weights 1 / t_server^2.
    sw = sx = sy = sxx = sxy = 0.0
    for b, t in through.items():
        w, y = 1 / t**2, t - direct[b]
        sw, sx, sy, sxx, sxy = sw + w, sx + w * b, sy + w * y, sxx + w * b * b, sxy + w * b * y
    c = (sw * sxy - sx * sy) / (sw * sxx - sx * sx)
    a = (sy - c * sx) / sw
    return {"per_request": f"{a * 1e3:.4f}ms", "bandwidth": f"{BYTES_PER_JET * 8 / c / 1e9:.4f}Gbps"}


def main():
    fitted = {server: fit(device, server) for server, device in FITS.items()}
    for server, values in fitted.items():
        print(f"{server} (fitted on {FITS[server]}): per_request {values['per_request']}, bandwidth {values['bandwidth']}")
    if "--check" not in sys.argv[1:]:
        return 0
    with open(CASES, encoding="utf-8") as f:
        written = json.load(f)["scan_frontends"]
    ok = all(written[s]["per_request"] == v["per_request"] and written[s]["input_bandwidth"] == v["bandwidth"] and
             written[s]["output_bandwidth"] == v["bandwidth"] for s, v in fitted.items())
    print("cases.json holds these values" if ok else "cases.json's scan_frontends differ from the fit", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
