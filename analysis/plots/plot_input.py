"""Reading the files the plots draw from: a bad file is one line on stderr and exit code 2, as sonicsim itself."""
import csv
import sys


def fail(message):
    """Bad input: one line on stderr and exit code 2, as sonicsim itself."""
    print(f"plot.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def read_csv(path, required):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    if rows:
        missing = [c for c in required if c not in rows[0]]
        if missing:
            fail(f"{path}: line 1: expected the columns {', '.join(missing)}")
    return rows


def number(path, line, column, text):
    try:
        return float(text)
    except ValueError:
        fail(f'{path}: line {line}, column "{column}": expected a number, got "{text}"')


def optional_number(path, line, column, text):
    return None if text == "" else number(path, line, column, text)
