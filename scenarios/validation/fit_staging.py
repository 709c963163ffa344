#!/usr/bin/env python3
"""Compute Input and Compute Output of NVIDIA's GPUNet offline tables, fitted per request and per byte.

    python3 scenarios/validation/fit_staging.py [--root DIR] [--self-test]

The offline tables (calibration inputs, docs/validation.md) run one request of B images at a time
through system shared memory, so a row's Server Compute Input is a model's staging of one request
(scenarios/README.md, "The request path"): per_request + B x image bytes / rate, the rate taking in
the gather and the host-to-device copy together (the tables cannot split them). Fitted by least
squares on the relative error, per table and pooled per host (one per-request cost and one rate
for every GPUNet variant on that host: a source-wide value). Compute Output likewise over the
scores (1000 FP16 per image). Prints each fit and its residuals per batch size (pooled: their RMS and largest); writes nothing.
The tables give times to 0.01 ms, so small Compute Output values carry large relative errors.
Online tables (targets) are never read. ResNet-50's offline table has no Compute split and is left out.
--self-test only checks that the fit recovers a known line from points on it, and exits 1 if not.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import nvidia_triton  # noqa: E402  (the tables' reader, byte sizes and host names)

VARIANTS = ("225ms-d", "05ms-d") + nvidia_triton.SOURCE_WIDE
HOSTS = ("v100", "a100")


def fit(points):
    """(per_request_s, s_per_byte) minimising sum((model / measured - 1)^2) over (bytes, seconds) points."""
    # Weighted least squares with weights 1/y^2: solve the 2x2 normal equations.
    s00 = s01 = s11 = t0 = t1 = 0.0
    for x, y in points:
        w = 1.0 / (y * y)
        s00 += w
        s01 += w * x
        s11 += w * x * x
        t0 += w * y
        t1 += w * x * y
    det = s00 * s11 - s01 * s01
    if det == 0:
        raise ValueError("the points do not fix a line (one batch size only?)")
    return (t0 * s11 - t1 * s01) / det, (s00 * t1 - s01 * t0) / det


def rows(root, variant, host, column, bytes_per_image):
    """(bytes, seconds, batch) of each row with a non-zero value of `column`."""
    points = []
    for r in nvidia_triton.read_table(root, f"gpunet-{variant}_offline_{host}.csv"):
        seconds = float(r[column]) * 1e-3
        if seconds > 0:  # 0.00 ms: below the table's resolution, no information
            batch = int(r["Batch"])
            points.append((batch * bytes_per_image, seconds, batch))
    return points


def report(label, points, each=True):
    """Prints the fit; its residual (fitted / measured - 1) at each row, or their RMS and largest."""
    per_request, per_byte = fit([(x, y) for x, y, _ in points])
    rate = f"{1 / per_byte / 1e9:.2f} GB/s" if per_byte > 0 else "no per-byte cost (slope <= 0)"
    errors = [(per_request + per_byte * x) / y - 1 for x, y, _ in points]
    if each:
        residuals = " ".join(f"b={b}:{e:+.0%}" for (_, _, b), e in zip(points, errors))
    else:
        rms = (sum(e * e for e in errors) / len(errors)) ** 0.5
        residuals = f"{len(errors)} rows: RMS {rms:.0%}, largest {max(errors, key=abs):+.0%}"
    print(f"  {label:<22} per_request {per_request * 1e6:8.1f} us  rate {rate:<14}  {residuals}")
    return per_request, per_byte


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=nvidia_triton.REPO, help="holds scenarios/validation/data/nvidia-triton")
    parser.add_argument("--self-test", action="store_true", help="check the fit on points of a known line")
    args = parser.parse_args()
    if args.self_test:
        # 50 us per request and 10 GB/s, at the byte counts of 1 to 64 images of 3x224x224 FP16.
        points = [(b * 301056, 50e-6 + b * 301056 / 10e9) for b in (1, 2, 4, 8, 16, 32, 64)]
        per_request, per_byte = fit(points)
        ok = abs(per_request / 50e-6 - 1) < 1e-9 and abs(per_byte * 10e9 - 1) < 1e-9
        print(f"fit_staging self-test: per_request {per_request * 1e6:.6f} us, rate {1 / per_byte / 1e9:.6f} GB/s")
        sys.exit(0 if ok else 1)
    root = args.root
    sides = (("Compute Input", "Server Compute Input (ms)", lambda v: nvidia_triton.image_bytes(
        nvidia_triton.resolution(root, v))), ("Compute Output", "Server Compute Output (ms)",
                                             lambda v: nvidia_triton.CLASSES * nvidia_triton.FP16))
    for side, column, bytes_of in sides:
        print(f"{side}: per_request + B x bytes / rate, offline tables (system shared memory, one request)")
        for host in HOSTS:
            print(f" {nvidia_triton.HOST_NAMES[host]}:")
            pooled = []
            for variant in VARIANTS:
                points = rows(root, variant, host, column, bytes_of(variant))
                if len(points) < 2:
                    print(f"  gpunet-{variant:<15} fewer than two rows above 0.00 ms: not fitted")
                    continue
                report(f"gpunet-{variant}", points)
                pooled.extend(points)
            if len(pooled) >= 2:
                report("all variants (pooled)", pooled, each=False)


if __name__ == "__main__":
    main()
