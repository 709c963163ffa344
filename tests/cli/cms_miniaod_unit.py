#!/usr/bin/env python3
"""The arithmetic of the CMS Mini-AOD cases (analysis/validation/cms_miniaod.py), against values worked out by
hand: the crossing interpolation, the quantiles, the two-sample KS statistic and a log's reading."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis", "validation"))
import cms_miniaod as c  # noqa: E402

failures = []


def check(what, got, expected, tol=1e-12):
    if (expected is None) != (got is None) or (expected is not None and abs(got - expected) > tol):
        failures.append(f"{what}: got {got}, expected {expected}")


# Medians 3.954 at 148 jobs and 3.766 at 180: 3.88 is crossed at 148 + (3.954-3.88)/(3.954-3.766) x 32.
check("crossing", c.crossing([(180, 3.766), (148, 3.954), (60, 3.974)], 3.88), 148 + 0.074 / 0.188 * 32)
check("crossing at a point", c.crossing([(10, 4.0), (20, 3.0)], 4.0), 10.0)
check("no crossing", c.crossing([(10, 4.0), (20, 3.9)], 3.8), None)
check("crossing back up is not one", c.crossing([(10, 3.0), (20, 4.0)], 3.5), None)
# numpy's linear quantile of 1..5: p10 = 1 + 0.4 x 1, p90 = 4 + 0.6 x 1.
check("p10", c.quantile([5, 1, 3, 2, 4], 0.1), 1.4)
check("p90", c.quantile([5, 1, 3, 2, 4], 0.9), 4.6)
check("p50 of one", c.quantile([7.0], 0.5), 7.0)
# KS: {1,2,3,4} against {3,4,5,6}: at x = 2 the CDFs are 1/2 and 0.
check("ks", c.ks_statistic([1, 2, 3, 4], [3, 4, 5, 6]), 0.5)
check("ks identical", c.ks_statistic([1, 2], [2, 1]), 0.0)
check("ks disjoint", c.ks_statistic([1, 2], [3, 4]), 1.0)
with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
    f.write("# header\n# drawn in the paper's GPU-saturation figure: no (x)\n4.5\n\n3.5\n")
values, drawn = c.read_rates(f.name)
os.unlink(f.name)
if values != [4.5, 3.5] or drawn:
    failures.append(f"read_rates: got {values}, drawn {drawn}")
for failure in failures:
    print("FAIL", failure)
sys.exit(1 if failures else 0)
