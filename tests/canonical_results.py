#!/usr/bin/env python3
"""Bounds how far results may move when the order of simultaneous events changes.

tests/identical_results.sh holds every output byte for byte. Some changes to how the simulator
drives SimGrid keep every simulated time but handle events of the same instant in another order
(two servers' batches ending together get their batch ids the other way round) or move a mean in its
last printed digit (a sum taken in another order). This test reruns the regression cases and compares
a canonical form of their outputs with tests/data/regression/canonical_sha256.txt: CSV rows sorted,
the `batch` id columns dropped, JSON numbers rounded to 12 significant digits and JSON lists in a
fixed order. Any other difference (a time, a count, a status, a batch's size) fails.

  canonical_results.py SONICSIM ROOT [--update]
"""
import csv
import hashlib
import io
import json
import os
import subprocess
import sys
import tempfile

SIGNIFICANT_DIGITS = 12


def canonical_json(value):
    if isinstance(value, float):
        return float(f"{value:.{SIGNIFICANT_DIGITS}g}")
    if isinstance(value, dict):
        return {key: canonical_json(item) for key, item in value.items()}
    if isinstance(value, list):
        items = [canonical_json(item) for item in value]
        return sorted(items, key=lambda item: json.dumps(item, sort_keys=True))
    return value


def canonical_csv(text):
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return ""
    header, body = rows[0], rows[1:]
    keep = [i for i, name in enumerate(header) if name != "batch"]
    lines = [",".join(row[i] for i in keep) for row in body]
    return ",".join(header[i] for i in keep) + "\n" + "\n".join(sorted(lines)) + "\n"


def canonical(path):
    text = open(path).read()
    if path.endswith(".json"):
        return json.dumps(canonical_json(json.loads(text)), sort_keys=True)
    if path.endswith(".csv"):
        return canonical_csv(text)
    return text


def run_cases(sonicsim, root, work):
    for line in open(os.path.join(root, "tests", "data", "regression", "cases.txt")):
        if not line.strip() or line.startswith("#"):
            continue
        name, scenario, extra = (part.strip() for part in line.split("|", 2))
        out = os.path.join(work, name)
        os.makedirs(out)
        # Split on blanks, as identical_results.sh does: the arguments keep their quotes.
        extra = extra.replace("{output}", out) if "{output}" in extra else f"--output {out} {extra}"
        result = subprocess.run([sonicsim, "run", os.path.join(root, scenario), "--quiet"] + extra.split(),
                                capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"FAIL {name}: the run failed: {result.stderr.strip()}")
    digests = []
    for directory, _, files in os.walk(work):
        for file in files:
            path = os.path.join(directory, file)
            digest = hashlib.sha256(canonical(path).encode()).hexdigest()
            digests.append(f"{digest}  ./{os.path.relpath(path, work)}")
    return sorted(digests, key=lambda line: line.split("  ", 1)[1])


def main():
    sonicsim, root = sys.argv[1], sys.argv[2]
    record = os.path.join(root, "tests", "data", "regression", "canonical_sha256.txt")
    with tempfile.TemporaryDirectory() as work:
        digests = run_cases(sonicsim, root, work)
    if sys.argv[3:] == ["--update"]:
        open(record, "w").write("\n".join(digests) + "\n")
        print(f"recorded {len(digests)} canonical output digests in {record}")
        return
    recorded = open(record).read().split("\n")[:-1]
    failures = sorted({line.split("  ", 1)[1] for line in set(digests) ^ set(recorded)})
    for file in failures:
        print(f"FAIL {file}: its canonical form differs from the record (or is new, or missing)")
    print(f"{len(digests) - len(failures)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
