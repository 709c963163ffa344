#!/usr/bin/env python3
"""The published-results cases' design (analysis/validation/published_bands.py): a Latin hypercube has one
point in every stratum of every dimension and is the same for the same seed; a design value reaches the
scenario as the unknown says (set with its unit, scaled, or divided for a power of -1, only on its runs); a
case's value is evaluated point by point, pairing the runs of a point, and has none where a plan it reads had
no answer; a pointer the scenario lacks is refused; and a malformed spec gets one line and exit 2."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis", "validation"))
import published_bands as pb  # noqa: E402

failures = []


def expect(what, got, wanted):
    if got != wanted:
        failures.append(f"{what}: got {got!r}, expected {wanted!r}")


# One point per stratum: for 20 samples, floor(20 x) over a column is 0..19, each once.
design = pb.latin_hypercube(3, 20, "seed")
for d in range(3):
    expect(f"strata of dimension {d}", sorted(int(20 * p[d]) for p in design), list(range(20)))
expect("the same design for the same seed", pb.latin_hypercube(3, 20, "seed"), design)
if pb.latin_hypercube(3, 20, "other") == design:
    failures.append("another seed gave the same design")

with tempfile.TemporaryDirectory() as work:
    scenario = os.path.join(work, "s.json")
    with open(scenario, "w") as f:
        json.dump({"models": {"m": {"kernel_latency": {"intercept": "4ms"}}},
                   "platform": {"servers": [{"frontend": {"input_bandwidth": "5Gbps"}}]},
                   "workload": {"modules": [{"time": "110s"}]}, "simulation": {"seed": 1}}, f)
    group = {"id": "g", "unknowns": [
        {"name": "cpu", "between": ["100s", "120s"], "set": ["/workload/modules/0/time"]},
        {"name": "server", "between": [0.5, 1.5], "runs": ["remote"],
         "scale": {"/models/m/kernel_latency/intercept": 1, "/platform/servers/0/frontend/input_bandwidth": -1}},
        {"name": "quantile", "between": [0.005, 0.995], "set": ["/simulation/latency_quantile"], "runs": ["other"]}]}
    point = {"cpu": (105.0, "s"), "server": (0.8, ""), "quantile": (0.5, "")}
    # 4 ms x 0.8 = 3.2 ms of kernel; 5 Gbps / 0.8 = 6.25 Gbps: the frontend's time scales with the kernel's.
    expect("sets of a run the scale applies to", pb.point_sets(group, point, "remote", scenario),
           [("/workload/modules/0/time", '"105s"'), ("/models/m/kernel_latency/intercept", '"3.2ms"'),
            ("/platform/servers/0/frontend/input_bandwidth", '"6.25Gbps"')])
    expect("sets of a run it does not", pb.point_sets(group, point, "local", scenario),
           [("/workload/modules/0/time", '"105s"')])
    # A member the scenario lacks, of an object it has, is added (as --set adds it); one of no object is refused.
    expect("a new member of an existing object", pb.point_sets(group, point, "other", scenario)[-1],
           ("/simulation/latency_quantile", "0.5"))
    group["unknowns"][0]["set"] = ["/workload/nowhere/time"]
    try:
        pb.point_sets(group, point, "local", scenario)
        failures.append("a pointer the scenario lacks was accepted")
    except SystemExit as e:
        if "/workload/nowhere/time" not in str(e):
            failures.append(f"the refusal does not name the pointer: {e}")

# A case that combines two runs takes both from the same point: cpu / sonic per point, not per run.
suite = {"scans": [], "cases": [{"id": "speedup", "value": "runs['cpu']['t'] / runs['sonic']['t']"},
                                {"id": "elsewhere", "value": "runs['absent']['t']"}]}
simulated = {"runs": [{"cpu": {"t": 330.0}, "sonic": {"t": 110.0}}, {"cpu": {"t": 300.0}, "sonic": {"t": 150.0}}],
             "scans": [{}, {}]}
expect("values paired by point", pb.case_values(suite, simulated), {"speedup": [3.0, 2.0]})
# A plan without an answer at a point gives the cases that read it no value there, never a number.
suite["cases"].append({"id": "cap", "value": "runs['plan']['jobs']"})
simulated["runs"][0]["plan"] = {"jobs": 300}
simulated["runs"][1]["plan"] = {"no_answer": ["no job count within the tolerance"]}
expect("a plan without an answer", pb.case_values(suite, simulated)["cap"], [300.0, None])
# A run whose requests were rejected or left in flight, or whose events did not finish, is broken: named, never used.
sound = {"requests": {"rejected": 0, "in_flight_at_end": 0}, "events": {"incomplete": 0}}
expect("a sound run", pb.broken(sound), [])
expect("a broken run", pb.broken({"requests": {"rejected": 3, "in_flight_at_end": 1}, "events": {"incomplete": 2}}),
       ["3 requests rejected", "1 requests in flight at the end", "2 events not finished"])

# A malformed "published_bands" gets one line naming the file and the JSON path, and exit 2: NaN, inf, negative,
# zero, huge, missing and wrong-typed values where each key expects something else.
import copy  # noqa: E402
import io  # noqa: E402
import contextlib  # noqa: E402

GOOD = {"runs": {"a": {}, "b": {}}, "scans": [{"id": "s"}], "published_bands": {
    "samples": 20, "design_seed": 1, "groups": [
    {"id": "g", "runs": ["a", "b"], "unknowns": [
        {"name": "t", "between": ["1s", "2s"], "set": ["/x"], "why": "source"},
        {"name": "f", "between": [0.9, 1.1], "scale": {"/y": -1}, "runs": ["b"], "why": "source"}]},
    {"id": "h", "scans": True, "unknowns": [{"name": "q", "between": [0.1, 0.9], "set": ["/q"], "runs": ["s"],
                                             "why": "source"}]}]}}
U = "/groups/0/unknowns/0"
HOSTILE = [  # (JSON path under /published_bands, value)
    ("/samples", 1), ("/samples", 0), ("/samples", -5), ("/samples", 2.5), ("/samples", "20"), ("/samples", None),
    ("/samples", float("nan")), ("/design_seed", float("inf")), ("/groups", []), ("/groups", {}),
    ("/groups/0/runs", ["absent"]), ("/groups/0/runs", "a"), ("/groups/0/unknowns", []),
    (U + "/between", ["2s", "1s"]), (U + "/between", ["1s", "1s"]), (U + "/between", [float("nan"), 2]),
    (U + "/between", [1, float("inf")]), (U + "/between", ["1s", "2ms"]), (U + "/between", [1]),
    (U + "/between", "1s"), (U + "/between", None), (U + "/between", [True, 2]), (U + "/between", [1, "1e999"]),
    (U + "/distribution", "normal"), (U + "/why", ""), (U + "/why", None), (U + "/set", []), (U + "/set", ["x"]),
    (U + "/set", "/x"), (U + "/name", 3), ("/groups/0/unknowns/1/scale", {"/y": 2}),
    ("/groups/0/unknowns/1/scale", {"/y": True}), ("/groups/0/unknowns/1/between", [-1, 1]),
    ("/groups/0/unknowns/1/runs", ["absent"]), ("/groups/1/unknowns/0/runs", ["a"]),
]


def put(document, path, value):
    keys = path.split("/")[1:]
    node = document["published_bands"]
    for key in keys[:-1]:
        node = node[int(key)] if isinstance(node, list) else node[key]
    node[int(keys[-1]) if isinstance(node, list) else keys[-1]] = value


def exit_and_line(document):
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            pb.validate(document, "cases.json")
    except SystemExit as e:
        return e.code, err.getvalue()
    return 0, err.getvalue()


expect("a well-formed spec", exit_and_line(copy.deepcopy(GOOD)), (0, ""))
for path, value in HOSTILE:
    document = copy.deepcopy(GOOD)
    put(document, path, value)
    code, line = exit_and_line(document)
    if code != 2 or line.count("\n") != 1 or not line.startswith("cases.json: /published_bands/"):
        failures.append(f"{path} = {value!r}: exit {code}, {line!r}")
document = copy.deepcopy(GOOD)
del document["published_bands"]["groups"][0]["unknowns"][0]["set"]  # neither set nor scale
expect("an unknown that sets nothing", exit_and_line(document)[0], 2)

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("published_bands_unit: ok")
