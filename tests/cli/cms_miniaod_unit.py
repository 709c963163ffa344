#!/usr/bin/env python3
"""The arithmetic of the CMS Mini-AOD cases (analysis/validation/cms_miniaod.py), against values worked out by
hand: the crossing interpolation, the bisected simulated crossing, the quantiles, the two-sample KS statistic
and a log's reading."""
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
# The simulated crossing is root-found on runs, not read off a straight segment across the knee. A device
# saturating at 100 jobs: the median is 4.0 up to N = 100 and 4.0 x 100 / N beyond (the device's capacity
# shared), so it falls below 3.88 at N* = 400 / 3.88 = 103.09 jobs. Known points at 60 and 400 only: a straight
# segment between them says 60 + 0.12 / 3 x 340 = 73.6; bisection needs ceil(log2(340)) = 9 runs to bracket
# N* within 1 job (103 to 104), where the curve is nearly straight.


class KneeRunner:
    def __init__(self):
        self.runs = []

    def rates(self, scenario, n, sets=()):
        self.runs.append(n)
        return [4.0 if n <= 100 else 4.0 * 100 / n]


knee = KneeRunner()
x, curve = c.simulated_crossing(knee, "scenario", {60: 4.0, 400: 1.0}, 3.88)
check("bisected crossing within 1 job of N* = 400 / 3.88", x, 400 / 3.88, 1.0)
if c.bracket(curve, 3.88) != (103, 104):
    failures.append(f"bisection: the crossing is bracketed by {c.bracket(curve, 3.88)}, expected (103, 104)")
if len(knee.runs) > 9 or len(set(knee.runs)) != len(knee.runs):
    failures.append(f"bisection: {len(knee.runs)} runs {knee.runs}, expected at most 9, none twice")
# Above the level at both known N: N grows by 1.25 until it brackets (400 -> 500 -> 625 with the capacity at
# 600: 3.84 < 3.88 at 625, N* = 2400 / 3.88 = 618.6), then bisects.
far = KneeRunner()
far.rates = lambda scenario, n, sets=(): far.runs.append(n) or [4.0 if n <= 600 else 2400 / n]
x, curve = c.simulated_crossing(far, "scenario", {60: 4.0, 400: 4.0}, 3.88)
check("outwards, then bisected", x, 2400 / 3.88, 1.0)
if c.bracket(curve, 3.88) != (618, 619):
    failures.append(f"outwards then bisection: bracketed by {c.bracket(curve, 3.88)}, expected (618, 619)")
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

# The suite's nominal values of declared unknowns (analysis/validation/declared.py), as sonicsim's nominal run takes
# them: a range at its median, a choice at its first alternative.
import declared  # noqa: E402
import scores  # noqa: E402
check("uniform median", declared.nominal({"between": [2.0, 8.0]}), 5.0)
check("log-uniform median: the geometric mean", declared.nominal({"between": [1.0, 100.0], "distribution": "log-uniform"}),
      10.0, 1e-9)
# triangular on [0, 4], mode 0: F(x) = 1 - (4 - x)^2 / 16 = 1/2 at x = 4 - sqrt(8)
check("triangular median", declared.nominal({"between": [0.0, 4.0], "distribution": "triangular", "mode": 0.0}),
      4 - 8 ** 0.5, 1e-12)
if declared.nominal({"between": ["2ms", "8ms"]}) != "5ms" or declared.nominal({"one_of": ["grow", "fixed"]}) != "grow":
    failures.append("nominal with a unit or of a choice")
# whole numbers 1..4, each a quarter: the median quantile of [1, 5) is 3, rounded down 3
if declared.nominal({"between": [1, 4]}) != 3:
    failures.append(f"whole-number median: got {declared.nominal({'between': [1, 4]})}, expected 3")
if declared.find({"a": [{"b": {"one_of": [1, 2]}}], "c/d": {"between": [1, 2]}}) != \
        [("/a/0/b", {"one_of": [1, 2]}), ("/c~1d", {"between": [1, 2]})]:
    failures.append("declared.find: pointers")
# Scores: coverage, half-width and errors of one target worked by hand; skill against the best baseline.
t = scores.target("x", "m", 100.0, (104.0, 95.0, 115.0), {"a": 150.0, "b": 80.0}, 0.05)
if not t["covered"] or not t["within"] or t["baselines"]["b"]["within"]:
    failures.append(f"target: covered / within: {t}")
check("half-width: (115 - 95) / 2 / 104", t["half_width"], 10 / 104)
check("error of the median", t["error"], 0.04)
s = scores.summarize([t, scores.target("x", "m", 100.0, (90.0, 85.0, 89.0), {"a": 150.0, "b": 80.0}, 0.05)])
check("coverage 1 of 2", s["coverage"], 0.5)
check("error: mean of 0.04 and 0.10", s["error"], 0.07)
check("skill against (b), the best: 1 - 0.07 / 0.20", s["skill"], 1 - 0.07 / 0.2)
if s["best_baseline"] != "b":
    failures.append(f"best baseline: {s['best_baseline']}")
check("a baseline with no value counts 100%", scores.relative_error(float("inf"), 70.0), 1.0)
for failure in failures:
    print("FAIL", failure)
sys.exit(1 if failures else 0)
