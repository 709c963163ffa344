#!/usr/bin/env python3
"""The source-wide terms of the NVIDIA cases, learned on the GPUNet variants no case predicts.

    python3 scenarios/validation/source_wide_terms.py [--simulate SONICSIM]

Reads only the offline and online tables of nvidia_triton.SOURCE_WIDE (calibration inputs, on both
hosts); the cases' online tables (targets) are never read. Prints:
  1. the online staging each host's cases get (nvidia_triton.online_staging) and its residuals;
  2. how two instances share the GPU on those rows: each row's Compute Infer over the offline
     Compute Infer at the row's batch (nvidia_triton.row_batch), against time-sharing (2), against
     "kernel_sharing": "occupancy" (scenarios/README.md, "Kernels sharing a device": two executions of
     the row's batch, max(1, 2 u(B)) x (1 + s)), s fitted on the same rows, and against time-sharing
     with a switching cost c per execution, 2 (tau + c) / tau, c fitted on the same rows (the cases'
     "kernel_switch_cost");
  3. perf_analyzer's client-side gap by Little's law on each row: z = concurrency / throughput - avg latency;
  4. that gap as perf_analyzer's count windows make it, from each row's own latencies (count_window_held).
--simulate runs the simulator on the same variants, built as nvidia_triton.py builds a case (in a
temporary root), and prints simulated against measured throughput and execution (Compute Input +
Infer + Output) per level: a check of the learned terms on their own calibration rows.
"""
import argparse
import csv
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "analysis", "validation"))
import nvidia_triton as nt  # noqa: E402
import declared  # noqa: E402  (nominal values of declared unknowns, as `sonicsim run` takes them)

HOSTS = {"v100": "V100", "a100": "A100"}
PARTS = ("Input", "Infer", "Output")
SHOWN_LEVELS = (8, 16, 32, 64, 128, 192, 256)


def occupancy(offline):
    """u(B) of scenarios/README.md's occupancy model, from an offline table's tau(B) = Input + Infer + Output."""
    tau = [(int(r["Batch"]), nt.execution_ms(r)) for r in offline]
    peak = max(b / t for b, t in tau)
    full = min(b for b, t in tau if b / t == peak)
    return lambda batch: 1.0 if batch >= full else batch / (nt.interpolate(tau, batch) * peak)


def staging(root):
    print("1. Online staging: Compute Input beyond the offline one, as a pageable copy per request")
    for device in ("V100", "A100"):
        s = nt.online_staging(root, device)
        print(f"  {device:5} per_request {1e6 * s['per_request']:6.1f} us, host_to_device.pageable "
              f"{8 / s['s_per_byte'] / 1e9:6.2f} Gbps ({s['rows']} rows, share {nt.STAGING_SHARE[device]:g})")


def sharing(root):
    print("2. Two instances on one GPU: online Compute Infer / offline Compute Infer at the row's batch")
    for host, device in HOSTS.items():
        pairs = nt.sharing_rows(root, host)
        u = {v: occupancy(nt.read_table(root, f"gpunet-{v}_offline_{host}.csv")) for v in nt.SOURCE_WIDE}
        # (batch, occupancy, offline, measured ratio) per row; a model gives the ratio from the first three
        rows = [(batch, u[variant](batch), offline, online / offline) for variant, batch, offline, online in pairs]
        c_ms = nt.fit_switch_cost_ms([(offline, online) for _, _, offline, online in pairs])

        def occupied(s):
            return lambda b, u, offline: max(1, 2 * u) * (1 + s)

        def switched(b, u, offline):
            return 2 * (offline + c_ms) / offline

        def rms_log(model):
            return math.sqrt(sum(math.log(model(b, u, o) / ratio) ** 2 for b, u, o, ratio in rows) / len(rows))

        small = [x for x in rows if x[0] < 4]
        large = [x for x in rows if x[0] >= 16]

        def spans(model):
            return f"{span([model(*x[:3]) for x in small])} and {span([model(*x[:3]) for x in large])}"

        best_s = min((i / 100 for i in range(300)), key=lambda s: rms_log(occupied(s)))
        print(f"  {device}: measured {span([x[3] for x in small])} at batch < 4 ({len(small)} rows), "
              f"{span([x[3] for x in large])} at batch >= 16 ({len(large)} rows)")
        for label, s in (("occupancy, s = 0", 0.0), (f"occupancy, s = {best_s:.2f} (least squares)", best_s)):
            print(f"    {label}: {spans(occupied(s))}; RMS log error {rms_log(occupied(s)):.3f}")
        print(f"    time-sharing: 2 and 2; RMS log error {rms_log(lambda b, u, offline: 2.0):.3f}")
        print(f"    time-sharing with a switching cost c = {1e3 * c_ms:.1f} us per execution (least squares, "
              f"nvidia_triton.switch_cost_s): {spans(switched)}; RMS log error {rms_log(switched):.3f}")


def span(values):
    return f"{min(values):.2f}-{max(values):.2f}"


def client_gap(root):
    print("3. Client-side gap by Little's law, z = c / X - avg latency (ms), per concurrency")
    print(f"  {'variant, host':<18}" + "".join(f"{'c=' + str(c):>8}" for c in SHOWN_LEVELS) + "   X*avg/c at c >= 128")
    for host in HOSTS:
        for variant in nt.SOURCE_WIDE:
            rows = {int(r["Concurrency"]): r for r in nt.read_table(root, f"gpunet-{variant}_online_{host}.csv")}
            gaps = {c: 1e3 * c / float(r["Inferences/Second"]) - float(r["avg latency (ms)"]) for c, r in rows.items()}
            held = [float(r["Inferences/Second"]) * float(r["avg latency (ms)"]) * 1e-3 / c for c, r in rows.items()
                    if c >= 128]
            print(f"  {variant + ', ' + host:<18}" + "".join(f"{gaps[c]:8.2f}" if c in gaps else f"{'-':>8}"
                                                         for c in SHOWN_LEVELS) + f"   {min(held):.2f}-{max(held):.2f}")


def count_window_held(row, request_count=nt.ONLINE_REQUEST_COUNT):
    """X * avg / c that perf_analyzer's count windows report for a row whose clients hold all c in flight
    (scenarios/README.md, "Count windows"): 1 - L_max / (2 W), W = whole seconds until request_count requests
    are answered at the true rate c / avg; p99 stands for the longest latency, which no row gives."""
    concurrency = int(row["Concurrency"])
    avg_s, p99_s = float(row["avg latency (ms)"]) / 1e3, float(row["p99 latency (ms)"]) / 1e3
    window_s = max(1, math.ceil(request_count / (concurrency / avg_s)))
    return 1 - p99_s / (2 * window_s)


def count_windows(root):
    print("4. The gap is perf_analyzer's count windows: X*avg/c measured / 1 - p99/(2W) from the row's own latencies")
    print(f"  {'variant, host':<18}" + "".join(f"{'c=' + str(c):>14}" for c in SHOWN_LEVELS[3:]))
    for host in HOSTS:
        for variant in nt.SOURCE_WIDE:
            rows = {int(r["Concurrency"]): r for r in nt.read_table(root, f"gpunet-{variant}_online_{host}.csv")}
            cells = []
            for c in SHOWN_LEVELS[3:]:
                r = rows[c]
                held = float(r["Inferences/Second"]) * float(r["avg latency (ms)"]) * 1e-3 / c
                cells.append(f"{held:.3f} / {count_window_held(r):.3f}")
            print(f"  {variant + ', ' + host:<18}" + "".join(f"{cell:>14}" for cell in cells))


def build_variants(root, scratch, sonicsim):
    """Each SOURCE_WIDE variant on each host as a case of nvidia_triton.py, calibrated in `scratch`."""
    shutil.copytree(os.path.join(root, nt.DATA), os.path.join(scratch, nt.DATA))
    os.makedirs(os.path.join(scratch, nt.MODELS))
    os.makedirs(os.path.join(scratch, "scenarios", "validation"), exist_ok=True)
    cases = []
    for host, device in HOSTS.items():
        for variant in nt.SOURCE_WIDE:
            case = f"gpunet-{variant}-{host}"
            nt.CASES[case] = (f"gpunet-{variant}_offline_{host}.csv", nt.resolution(root, variant), 64, device,
                              f"gpunet-{variant}_online_{host}.csv")
            nt.calibrate(sonicsim, scratch, case)
            cases.append((case, device, f"gpunet-{variant}_online_{host}.csv"))
    return cases


def run_variant(root, scratch, sonicsim, case, device, online, share):
    """{concurrency: (simulated row, measured row)} at SHOWN_LEVELS, with the staging share given."""
    path = os.path.join(scratch, "scenarios", "validation", f"nvidia-{case}.json")
    scenario = nt.scenario(scratch, case)
    scenario["models"]["gpunet"]["staging"] = nt.staging_block(root, device, share)
    with open(path, "w") as f:
        json.dump(scenario, f)
    out = os.path.join(scratch, f"{case}.csv")
    command = [sonicsim, "run", path, "--quiet", "--perf-csv", out,
               "--set", f"/perf_analyzer/concurrency=[{','.join(map(str, SHOWN_LEVELS))}]"]
    for pointer, value in declared.nominal_sets(path):
        command += ["--set", f"{pointer}={value}"]
    subprocess.run(command, check=True)
    with open(out) as f:
        simulated = {int(r["Concurrency"]): r for r in csv.DictReader(f)}
    measured = {int(r["Concurrency"]): r for r in nt.read_table(root, online)}
    return {c: (simulated[c], measured[c]) for c in SHOWN_LEVELS}


def throughput_error(rows):
    return [float(s["Inferences/Second"]) / float(m["Inferences/Second"]) - 1 for s, m in rows.values()]


def fit_share(root, scratch, sonicsim, cases, device):
    """The share whose mean log throughput error over the host's variants and SHOWN_LEVELS is 0 (bisection:
    more staging, less throughput)."""
    def mean_log_error(share):
        errors = [math.log(1 + e) for case, d, online in cases if d == device
                  for e in throughput_error(run_variant(root, scratch, sonicsim, case, d, online, share))]
        return sum(errors) / len(errors)
    low, high = 0.0, 1.0
    for _ in range(7):
        middle = (low + high) / 2
        low, high = (middle, high) if mean_log_error(middle) > 0 else (low, middle)
    return (low + high) / 2


def simulate(root, sonicsim, fit):
    print("5. Simulated / measured on the variants' own online rows: throughput, execution (ms)")
    with tempfile.TemporaryDirectory() as scratch:
        cases = build_variants(root, scratch, sonicsim)
        if fit:
            for device in ("V100", "A100"):
                print(f"  {device}: staging share {fit_share(root, scratch, sonicsim, cases, device):.3f} "
                      "(mean log throughput error 0; nvidia_triton.STAGING_SHARE)")
        for case, device, online in cases:
            rows = run_variant(root, scratch, sonicsim, case, device, online, None)
            cells = [f"c={c}: {float(s['Inferences/Second']) / float(m['Inferences/Second']) - 1:+.0%} "
                     f"{sum(int(s[f'Server Compute {p}']) for p in PARTS) / 1e3 / nt.execution_ms(m) - 1:+.0%}"
                     for c, (s, m) in rows.items()]
            print(f"  {case:<19} " + "  ".join(cells))


def self_test():
    """The staging fit and the row's batch against values computed by hand; True when they agree."""
    sizes = [3 * r * r * 2 for r in (224, 288, 320, 384, 456)]  # FP16 images of the variants' resolutions
    on_line = [(x, 20e-6 + x / 10e9) for x in sizes]  # 20 us per request, 10 GB/s
    intercept, slope = nt.line_fit(on_line)
    ok = abs(intercept / 20e-6 - 1) < 1e-9 and abs(slope * 10e9 - 1) < 1e-9
    # A line crossing 0 below the smallest image: refitted through the origin, slope sum(xy) / sum(x^2).
    below = [(x, -50e-6 + x / 5e9) for x in sizes]
    through_origin = sum(x * y for x, y in below) / sum(x * x for x in sizes)
    intercept, slope = nt.line_fit(below)
    ok = ok and intercept == 0.0 and abs(slope / through_origin - 1) < 1e-12
    # 1000 inferences/s, executions of 2 + 7 + 1 ms on 2 busy instances: 1000 x 0.010 / 2 = 5 per batch.
    row = {"Inferences/Second": "1000", "Server Compute Input (ms)": "2", "Server Compute Infer (ms)": "7",
           "Server Compute Output (ms)": "1"}
    ok = ok and abs(nt.row_batch(row) - 5.0) < 1e-12 and nt.row_batch(dict(row, **{"Inferences/Second": "10"})) == 1.0
    # Count windows of 500 at c / avg = 200/s (2.5 s: W = 3 s) with p99 0.6 s: 1 - 0.6 / 6 = 0.9.
    window_row = {"Concurrency": "100", "avg latency (ms)": "500", "p99 latency (ms)": "600"}
    ok = ok and abs(count_window_held(window_row) - 0.9) < 1e-12
    # Two busy time-sharing instances with a switching cost of 0.25 ms: every online execution is 2 (offline + 0.25).
    exact = [(t, 2 * (t + 0.25)) for t in (0.5, 1.0, 3.0, 8.0)]
    ok = ok and nt.fit_switch_cost_ms(exact) == 0.25 and nt.fit_switch_cost_ms([(t, 2 * t) for t in (1.0, 4.0)]) == 0.0
    print(f"source_wide_terms self-test: {'ok' if ok else 'FAILED'}")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=nt.REPO, help="holds scenarios/validation/data/nvidia-triton")
    parser.add_argument("--simulate", metavar="SONICSIM", help="also run the variants through the simulator")
    parser.add_argument("--fit-staging", action="store_true", help="with --simulate: fit the staging share")
    parser.add_argument("--self-test", action="store_true", help="check the fits on values computed by hand")
    args = parser.parse_args()
    if args.self_test:
        sys.exit(0 if self_test() else 1)
    staging(args.root)
    sharing(args.root)
    client_gap(args.root)
    count_windows(args.root)
    if args.simulate:
        simulate(args.root, os.path.abspath(args.simulate), args.fit_staging)


if __name__ == "__main__":
    main()
