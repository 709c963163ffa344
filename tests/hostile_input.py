#!/usr/bin/env python3
"""Hostile input: malformed, absurd and adversarial scenarios, configs, logs and flags.

Every case must end, within its time bound and with bounded memory, in the promised one-line
error naming the file and the JSON pointer (or line and column) and exit code 2; never a crash,
a hang, unbounded memory or an exit 0 with wrong results. Usage:
    hostile_input.py SONICSIM REPOSITORY_ROOT
"""
import copy
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time

SONICSIM, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
WORK = tempfile.mkdtemp(prefix="sonicsim-hostile-")
TIME_LIMIT_S = 60
# Address space for one sonicsim process. Sanitizer builds reserve terabytes of shadow memory, so
# the bound applies to ordinary builds only.
MEMORY_LIMIT = None if os.environ.get("SONICSIM_SANITIZED") else 8 << 30

failures = []
passed = 0


def limit_memory():
    if MEMORY_LIMIT:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    os.setsid()


def run(args, stdin=None, timeout=TIME_LIMIT_S):
    """(exit code, stdout, stderr); exit code None if it ran past the time limit."""
    start = time.monotonic()
    proc = subprocess.Popen([SONICSIM] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=stdin,
                            preexec_fn=limit_memory, cwd=WORK)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return None, "", f"(ran past {timeout} s)"
    del start
    return proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def check(name, ok, detail):
    global passed
    if ok:
        passed += 1
    else:
        failures.append(f"{name}: {detail}")
        print(f"FAIL {name}: {detail}", flush=True)


def expect_error(name, args, *expected, code=2, stdin=None, timeout=TIME_LIMIT_S):
    """One line on stderr, starting with 'sonicsim: error: ', containing every `expected` text."""
    rc, _, err = run(args, stdin=stdin, timeout=timeout)
    lines = err.splitlines()
    ok = (rc == code and len(lines) == 1 and lines[0].startswith("sonicsim: error: ") and
          all(text in lines[0] for text in expected) and len(lines[0]) <= 1100)
    check(name, ok, f"exit {rc}, {len(lines)} line(s): {err[:600]!r}")


def write(name, content):
    path = os.path.join(WORK, name)
    mode = "wb" if isinstance(content, bytes) else "w"
    with open(path, mode) as f:
        f.write(content if isinstance(content, (str, bytes)) else json.dumps(content))
    return path


BASE = {
    "name": "hostile",
    "platform": {
        "worker_pools": [{"name": "w", "nodes": 2, "cores_per_node": 4, "cpu_speed": 1.0,
                          "nic": {"bandwidth": "10Gbps", "latency": "50us"}}],
        "site_uplink": {"bandwidth": "10Gbps", "latency": "100us"},
        "servers": [{"name": "s", "count": 1, "gpus_per_server": 1, "gpu": "T4",
                     "nic": {"bandwidth": "10Gbps", "latency": "50us"}, "models": ["m"]}],
    },
    "models": {"m": {"input_bytes_per_item": "4kB", "output_bytes_per_item": "100B", "max_batch_size": 64,
                     "instances_per_gpu": 1,
                     "kernel_latency": {"type": "affine", "intercept": "1ms", "per_item": "10us"}}},
    "workload": {"jobs": 4, "events_per_job": 3, "start": {"pattern": "all_at_once"},
                 "modules": [{"type": "cpu", "name": "reco", "time": "10ms"},
                             {"type": "inference", "name": "ml", "model": "m", "items_per_event": 100,
                              "items_per_request": 50, "preprocess": "1ms", "in_flight": 1}]},
    "simulation": {"seed": 1},
}


def scenario(name, edit=None, text=None):
    """A copy of BASE changed by `edit` (a function of the dict), written as NAME.json."""
    if text is not None:
        return write(name + ".json", text)
    s = copy.deepcopy(BASE)
    if edit:
        edit(s)
    return write(name + ".json", s)


def bad_scenario(name, edit, *expected, code=2, extra=()):
    path = scenario(name, edit)
    expect_error(name, ["run", path, "--quiet"] + list(extra), f"{name}.json: ", *expected, code=code)


def setter(pointer, value):
    """An edit setting the value at a JSON pointer (list indices as ints)."""
    def edit(s):
        keys = [int(k) if k.isdigit() else k for k in pointer.strip("/").split("/")]
        target = s
        for k in keys[:-1]:
            target = target[k]
        target[keys[-1]] = value
    return edit


# The base scenario itself must run.
rc, _, err = run(["run", scenario("base"), "--quiet"])
check("base scenario runs", rc == 0 and err == "", f"exit {rc}: {err[:300]!r}")

# ---- Crashes --------------------------------------------------------------------------------------
deep = "[" * 100000 + "]" * 100000
expect_error("deeply nested scenario", ["run", scenario("deep", text=deep)], "deep.json: ", "nested more than 64 levels")
expect_error("deeply nested scenario, 10^6 levels", ["run", scenario("deeper", text="{\"a\":" * 1000000 + "1" + "}" * 1000000)],
             "deeper.json: ", "nested more than 64 levels")
bad_scenario("huge_stack_size", setter("/simulation/stack_size", "4GiB"), "/simulation/stack_size: ", "16KiB to 64MiB")
bad_scenario("huge_cpu_speed", setter("/platform/worker_pools/0/cpu_speed", 1e308), "/platform/worker_pools/0/cpu_speed: ")
bad_scenario("infinite_duration", setter("/workload/modules/0/time", "1e308h"), "/workload/modules/0/time: ",
             "non-negative, finite a duration")
bad_scenario("long_duration", setter("/workload/modules/0/time", "1e300s"), "/workload/modules/0/time: ", "at most 1e8 s")
bad_scenario("million_gpus", setter("/platform/servers/0/gpus_per_server", 1000000), "/platform/servers/0/gpus_per_server: ")
bad_scenario("million_instances", setter("/models/m/instances_per_gpu", 1000000), "/models/m/instances_per_gpu: ")
bad_scenario("million_frontend_threads", setter("/platform/servers/0/frontend", {"threads": 1000000}),
             "/platform/servers/0/frontend/threads: ")
bad_scenario("in_flight_2e9", setter("/workload/modules/1/in_flight", 2000000000), "/workload/modules/1/in_flight: ")

# ---- Hangs and memory -----------------------------------------------------------------------------
expect_error("scenario from /dev/zero", ["run", "/dev/zero"], "/dev/zero: ", "16 MiB")
expect_error("scenario is a directory", ["run", WORK], "is a directory")
expect_error("pad an array with 10^9 nulls", ["run", scenario("pad"), "--set", "/workload/modules/1000000000=1"],
             "pad.json: /workload/modules/1000000000: ", "expected an index of the array (0 to 2")
expect_error("10^12 sweep points",
             ["sweep", scenario("sweep"), "--output", os.path.join(WORK, "sweep-out"), "--set", "/workload/jobs=1:1000000:1",
              "--set", "/simulation/seed=1:1000000:1"], "more than 100000")
bad_scenario("2e9_events", setter("/workload/events_per_job", 2000000000), "/workload/events_per_job: ", "events")
bad_scenario("2e9_priority_levels", setter("/models/m/dynamic_batching", {"priority_levels": 2000000000, "default_priority_level": 1}),
             "/models/m/dynamic_batching/priority_levels: ", "at most 1000 priority levels")

# ---- Wrong successes ------------------------------------------------------------------------------
bad_scenario("zero_byte_requests", setter("/models/m/input_bytes_per_item", "0B"), "/models/m/input_bytes_per_item: ",
             "positive data size")
def all_passive(s):
    del s["models"]["m"]["instances_per_gpu"]
    s["models"]["m"]["instance_group"] = [{"kind": "KIND_GPU", "count": 1, "passive": True}]
bad_scenario("all_instances_passive", all_passive, "/models/m: ", "no instance that takes work")
bad_scenario("nan_in_unit", setter("/platform/wan", {"bandwidth": "nanGbps", "latency": "1ms"}), "/platform/wan/bandwidth: ")
bad_scenario("inf_in_unit", setter("/platform/site_uplink/latency", "infms"), "/platform/site_uplink/latency: ")
bad_scenario("negative_kernel_latency",
             setter("/models/m/kernel_latency", {"type": "table", "points": [{"batch": 1, "latency": "2ms"},
                                                                               {"batch": 2, "latency": "1ms"}]}),
             "/models/m: ", "kernel latency for \"T4\" is negative")
bad_scenario("model_listed_twice", setter("/platform/servers/0/models", ["m", "m"]), "/platform/servers/0/models/1: ",
             "listed twice")
expect_error("duplicate JSON keys", ["run", scenario("dupkeys", text='{"name": "a", "name": "b"}')], "dupkeys.json: /name: ",
             "duplicate key")
expect_error("--set a number beyond a double", ["run", scenario("huge_number"), "--set", "/workload/jobs=1e999"],
             "huge_number.json: /workload/jobs: ", "beyond the range of a double")
bad_scenario("two_billion_requests_per_event", lambda s: s["workload"]["modules"][1].update(
    {"items_per_event": 2000000000, "items_per_request": 1}), "/workload/modules/1: ", "more than 1000000000 requests")
# items_per_event + items_per_request - 1 overflowed an int: 2e9 items in one request.
rc, out, err = run(["run", scenario("requests_per_event_overflow", lambda s: s["workload"]["modules"][1].update(
    {"items_per_event": 2000000000, "items_per_request": 2000000000})), "--quiet", "--output", os.path.join(WORK, "rpe")])
summary = json.load(open(os.path.join(WORK, "rpe", "summary.json"))) if rc == 0 else {}
check("requests_per_event_overflow", rc == 0 and summary.get("requests", {}).get("sent") == 12,
      f"exit {rc}, {summary.get('requests')}: {err[:300]!r}")

# ---- Messages -------------------------------------------------------------------------------------
bad_scenario("newline_in_value", setter("/workload/modules/0/name", "a\nsonicsim: error: forged\r\x1b[31m"),
             "/workload/modules/0/name: ", "\\n", "\\r", "\\x1B")
bad_scenario("newline_in_key", lambda s: s["workload"].update({"x\ny": 1}), "/workload/x\\ny: unknown key")
bad_scenario("huge_value_echoed", setter("/workload/modules/0/time", "9" * 100000 + "parsecs"), "/workload/modules/0/time: ")
expect_error("invalid UTF-8 in --set", ["run", scenario("utf8"), "--set", "/name=\udcff"], "utf8.json: /name: ")
bad_scenario("server_named_like_worker_pool", setter("/platform/servers/0/name", "w"), "/platform/servers/0/name: ",
             "already names a worker pool")
bad_scenario("server_name_with_slash", setter("/platform/servers/0/name", "../s"), "/platform/servers/0/name: ")
bad_scenario("cores_overflow", lambda s: s["platform"]["worker_pools"][0].update({"nodes": 100000, "cores_per_node": 100000}),
             "/platform/worker_pools/0/cores_per_node: ")

print(f"{passed} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
