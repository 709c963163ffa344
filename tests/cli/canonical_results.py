#!/usr/bin/env python3
"""Bounds how far results may move when the order of simultaneous events changes.

tests/cli/identical_results.sh holds every output byte for byte. Some changes to how the simulator
drives SimGrid keep every simulated time but handle events of the same instant in another order
(two servers' batches ending together get their batch ids the other way round) or move a mean in its
last printed digit (a sum taken in another order). identical_results.sh therefore also hands its
runs to this script, which compares a canonical form of every output file with a record: CSV rows
sorted, the `batch` id columns dropped, JSON numbers rounded to 12 significant digits and JSON lists
in a fixed order. Any other difference (a time, a count, a status, a batch's size) fails.

  canonical_results.py RUNS_DIR RECORD [--update]
"""
import csv
import hashlib
import io
import json
import os
import sys

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


def digests(runs):
    """One "SHA-256  ./relative/path" line per file under `runs`, of its canonical form, by path."""
    lines = []
    for directory, _, files in os.walk(runs):
        for file in files:
            path = os.path.join(directory, file)
            digest = hashlib.sha256(canonical(path).encode()).hexdigest()
            lines.append(f"{digest}  ./{os.path.relpath(path, runs)}")
    return sorted(lines, key=lambda line: line.split("  ", 1)[1])


def main():
    runs, record = sys.argv[1], sys.argv[2]
    found = digests(runs)
    if sys.argv[3:] == ["--update"]:
        open(record, "w").write("\n".join(found) + "\n")
        print(f"recorded {len(found)} canonical output digests in {record}")
        return
    recorded = open(record).read().split("\n")[:-1]
    failures = sorted({line.split("  ", 1)[1] for line in set(found) ^ set(recorded)})
    for file in failures:
        print(f"FAIL {file}: its canonical form differs from the record (or is new, or missing)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
