#!/usr/bin/env python3
"""Hostile scenarios: malformed, absurd and adversarial scenario files, run as a user would.

Every case must end, within its time bound and with bounded memory, in the promised one-line
error naming the file and the JSON pointer (or line and column) and exit code 2; never a crash,
a hang, unbounded memory or an exit 0 with wrong results. Usage:
    hostile_input.py SONICSIM REPOSITORY_ROOT
"""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hostile_harness import *  # noqa: E402,F401,F403

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
             "non-negative, finite duration")
bad_scenario("long_duration", setter("/workload/modules/0/time", "1e300s"), "/workload/modules/0/time: ", "at most 1e8 s")
bad_scenario("million_gpus", setter("/platform/servers/0/gpus_per_server", 1000000), "/platform/servers/0/gpus_per_server: ")
bad_scenario("million_instances", setter("/models/m/instances_per_gpu", 1000000), "/models/m/instances_per_gpu: ")
def mixed_naming(s):
    server = s["platform"]["servers"][0]
    server["device"] = server.pop("gpu")
bad_scenario("precision_of_100_percent", setter("/simulation/stop_at_precision", {"relative_half_width": "100%"}),
             "/simulation/stop_at_precision/relative_half_width: ", "above 0 and below 1")
bad_scenario("precision_nan", setter("/simulation/stop_at_precision", {"relative_half_width": "nan%"}),
             "/simulation/stop_at_precision/relative_half_width: ", "a percentage")
bad_scenario("mixed_device_naming", mixed_naming, "/platform/servers/0/gpus_per_server: ", "use one naming throughout")
bad_scenario("million_frontend_threads", setter("/platform/servers/0/frontend", {"threads": 1000000}),
             "/platform/servers/0/frontend/threads: ")
expect_error("million perf_analyzer clients", ["run", os.path.join(ROOT, "scenarios", "perf-analyzer-small-requests.json"), "--set",
                                               "/perf_analyzer/concurrency=[1000000]"], "perf-analyzer-small-requests.json: /perf_analyzer: ",
             "simulated actors")
expect_error("perf_analyzer request rate beyond what can be in flight",
             ["run", os.path.join(ROOT, "scenarios", "perf-analyzer-small-requests.json"), "--set",
              '/perf_analyzer={"model": "emtrkmichelid", "request_rate": [1e9]}'], "/perf_analyzer/request_rate: ")
# The limits on what runs at once are what runs in minutes (docs/benchmark.md, "Limits that run"): a
# million requests in flight per job (its former limit) or 10,000 threads and streams did not finish.
bad_scenario("a million requests in flight per job", lambda s: s["workload"]["modules"][1].update(
    {"in_flight": 1000000, "items_per_event": 1000000, "items_per_request": 1}), "/workload/modules/1/in_flight: ",
    "expected an integer from 1 to 10000, got 1000000")
bad_scenario("one request in flight beyond the limit", lambda s: s["workload"]["modules"][1].update(
    {"in_flight": 10001, "items_per_event": 10001, "items_per_request": 1}), "/workload/modules/1/in_flight: ",
    "expected an integer from 1 to 10000, got 10001")
bad_scenario("a million streams", setter("/workload/streams", 1000000), "/workload/streams: ", "from 1 to 5000")
bad_scenario("one stream beyond the limit", setter("/workload/streams", 5001), "/workload/streams: ",
             "expected an integer from 1 to 5000, got 5001")
bad_scenario("one thread beyond the limit", lambda s: (s["platform"]["worker_pools"][0].update({"cores_per_node": 5000}),
                                                      s["workload"].update({"threads": 5001})), "/workload/threads: ",
             "expected an integer from 1 to 5000, got 5001")
bad_scenario("one core per node beyond the limit", setter("/platform/worker_pools/0/cores_per_node", 5001),
             "/platform/worker_pools/0/cores_per_node: ", "expected an integer from 1 to 5000, got 5001")
bad_scenario("jobs multiply the requests in flight", lambda s: (s["workload"].update({"jobs": 1000}),
             s["platform"]["worker_pools"][0].update({"nodes": 250}), s["workload"]["modules"][1].update(
    {"in_flight": 10000, "items_per_event": 10000, "items_per_request": 1})), "/workload/modules/1: ",
    "10000000 requests in flight at once (jobs running at once x in_flight)")
bad_scenario("streams multiply the requests in flight", lambda s: (s["workload"].update({"streams": 5000}), s["workload"]["modules"][1].update(
    {"in_flight": 1000, "items_per_event": 1000, "items_per_request": 1})), "/workload/modules/1: ",
    "20000000 requests in flight at once (jobs running at once x streams x in_flight)")
bad_scenario("in_flight_2e9", setter("/workload/modules/1/in_flight", 2000000000), "/workload/modules/1/in_flight: ")
bad_scenario("poisson items with an astronomical mean", setter("/workload/modules/1/items_per_event",
             {"distribution": "poisson", "mean": 1e300}), "/workload/modules/1/items_per_event/mean: ", "at most 10000")
bad_scenario("poisson items with a NaN-like mean", setter("/workload/modules/1/items_per_event",
             {"distribution": "poisson", "mean": -0.0}), "/workload/modules/1/items_per_event/mean: ")
bad_scenario("a tensor of 10^18 floats per item", lambda s: (s["models"]["m"].pop("input_bytes_per_item"), s["models"]["m"].update(
    {"input": [{"name": "x", "data_type": "TYPE_FP32", "dims": [1000000, 1000000, 1000000]}]})),
    "/models/m/input/0/dims: ", "1 PB")
bad_scenario("2e9 elements per item of a variable tensor", lambda s: (s["models"]["m"].pop("input_bytes_per_item"), s["models"]["m"].update(
    {"input": [{"name": "x", "data_type": "TYPE_FP64", "dims": [-1, 1000000]}, {"name": "h", "data_type": "TYPE_INT8", "dims": [1]}]}),
    s["workload"]["modules"][1].update({"elements_per_item": 2000000000})), "/workload/modules/1: ", "1PB")
# 4 bits per item, one item per request: half a byte, which a transfer rounds to none (it ended in
# the deadlock error that asks to be reported).
bad_scenario("a request of half a byte", lambda s: (s["models"]["m"].update({"input_bytes_per_item": "4b"}),
                                                   s["workload"]["modules"][1].update({"items_per_request": 1})),
             "/workload/modules/1: ", "its smallest request (1 item of model \"m\") carries 0.5 bytes")
bad_scenario("the last request of an event too small", lambda s: (s["models"]["m"].update({"input_bytes_per_item": "4b"}),
                                                                 s["workload"]["modules"][1].update({"items_per_event": 101})),
             "/workload/modules/1: ", "its smallest request (1 item of model \"m\") carries 0.5 bytes")
bad_scenario("an empirical item count of 2e9 in requests of one", lambda s: s["workload"]["modules"][1].update(
    {"items_per_event": {"distribution": "empirical", "samples": [1, 2000000000]}, "items_per_request": 1}),
    "/workload/modules/1: ", "requests")
# A gamma or lognormal kernel spread of cv 1e-200 is a legitimate "no spread": 1/cv^2 overflows a
# double (it aborted the run, "simulate up to -nan"); the run must equal the one without a spread.
externalwork = os.path.join(ROOT, "scenarios", "cms-threaded-externalwork.json")
def events_with_spread(name, spread):
    out = os.path.join(WORK, name)
    rc, _, err = run(["run", externalwork, "--quiet", "--output", out, "--set", "/models/tagger/kernel_latency/spread=" + spread])
    return rc, err, open(os.path.join(out, "events.csv")).read() if rc == 0 else ""
_, _, no_spread = events_with_spread("spread_none", '"none"')
for shape in ("gamma", "lognormal"):
    rc, err, events = events_with_spread("spread_" + shape, f'{{"distribution": "{shape}", "cv": 1e-200}}')
    check(f"a {shape} kernel spread of cv 1e-200 runs as no spread", rc == 0 and no_spread and events == no_spread,
          f"exit {rc}: {err[:300]!r}")

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


# ---- Batch-system workloads ------------------------------------------------------------------------
def submitted(pattern, **workload):
    def edit(s):
        del s["workload"]["start"]
        s["workload"].update({"submit": pattern, **workload})
    return edit
bad_scenario("start and submit", lambda s: s["workload"].update({"submit": {"pattern": "all_at_once"}}), "/workload: ",
             "exactly one of \"start\"")
bad_scenario("unknown submit pattern", submitted({"pattern": "burst"}), "/workload/submit/pattern: ", "\"poisson\" or \"trace\"")
bad_scenario("negative Poisson interval", submitted({"pattern": "poisson", "mean_interval": "-5s"}),
             "/workload/submit/mean_interval: ")
bad_scenario("zero Poisson interval", submitted({"pattern": "poisson", "mean_interval": "0s"}),
             "/workload/submit/mean_interval: ")
bad_scenario("eleven million jobs", submitted({"pattern": "all_at_once"}, jobs=11000000), "/workload/jobs: ")
bad_scenario("events range upside down", submitted({"pattern": "all_at_once"}, events_per_job={"distribution": "uniform",
             "min": 5, "max": 2}), "/workload/events_per_job/max: ", "no smaller than the minimum")
bad_scenario("events drawn beyond the bound", submitted({"pattern": "all_at_once"}, jobs=1000, events_per_job={
             "distribution": "empirical", "samples": [1, 1000000]}), "/workload/events_per_job: ", "events")
trace_rows = write("trace_rows.csv", "submit_s,events\n0,1\n3,x\n")
bad_scenario("trace with a bad row", submitted({"pattern": "trace", "file": trace_rows}), "",
             file="trace_rows.csv: line 3, column \"events\": ")
trace_negative = write("trace_negative.csv", "submit_s\n0\n-3\n")
bad_scenario("trace with a negative time", submitted({"pattern": "trace", "file": trace_negative}), "from 0 to 1e8",
             file="trace_negative.csv: line 3, column \"submit_s\": ")
trace_short = write("trace_short.csv", "submit_s\n0\n1\n")
bad_scenario("more jobs than the trace", submitted({"pattern": "trace", "file": trace_short}, jobs=3), "/workload/jobs: ",
             "at most the 2 jobs")
condor_trace = write("trace_condor.json", json.dumps([{"ClusterId": 1, "QDate": 1700000000}, {"ClusterId": 2}]))
bad_scenario("condor trace without QDate", submitted({"pattern": "trace", "file": condor_trace}), "QDate",
             file="trace_condor.json: /1: ")
bad_scenario("trace_from_dev_zero", submitted({"pattern": "trace", "file": "/dev/zero"}), "512 MiB", file="/dev/zero: ")
bad_scenario("trace that is a directory", submitted({"pattern": "trace", "file": WORK}), "is a directory", file=WORK)
# A trace of 1,000 jobs on 8 cores runs, and says so in jobs.csv: every job done, in the trace's order.
trace_ok = write("trace_ok.csv", "submit_s,events\n" + "".join(f"{j * 0.01},{1 + j % 3}\n" for j in range(1000)))
def whole_trace(s):
    submitted({"pattern": "trace", "file": trace_ok})(s)
    del s["workload"]["jobs"]
rc, _, err = run(["run", scenario("trace_run", whole_trace), "--quiet",
                  "--output", os.path.join(WORK, "trace_run")])
rows = list(csv.DictReader(open(os.path.join(WORK, "trace_run", "jobs.csv")))) if rc == 0 else []
check("a 1,000-job trace runs", rc == 0 and len(rows) == 1000 and all(r["outcome"] == "done" for r in rows) and
      [int(r["events"]) for r in rows[:4]] == [1, 2, 3, 1], f"exit {rc}, {len(rows)} rows: {err[:300]!r}")

# ---- Failures, client behaviour, proxy --------------------------------------------------------------
ML = "/workload/modules/1"
bad_scenario("unknown on_failure", setter(ML + "/on_failure", "retry_forever"), ML + "/on_failure: ",
             "\"fail_job\", \"fallback\" or \"failover\"")
bad_scenario("fallback without cpu_fallback", setter(ML + "/on_failure", "fallback"), ML + ": ", "cpu_fallback")
bad_scenario("fallback scope without fallback", setter(ML + "/fallback_scope", "job"), ML + "/fallback_scope: ",
             "only with")
bad_scenario("negative allowed_tries", setter(ML + "/allowed_tries", -1), ML + "/allowed_tries: ")
bad_scenario("fractional allowed_tries", setter(ML + "/allowed_tries", 1.5), ML + "/allowed_tries: ")
bad_scenario("zero client timeout", setter(ML + "/client_timeout", "0s"), ML + "/client_timeout: ")
bad_scenario("client timeout without unit", setter(ML + "/client_timeout", 300), ML + "/client_timeout: ")
bad_scenario("negative failure time", setter("/platform/servers/0/failures", {"at": ["-5s"]}),
             "/platform/servers/0/failures/at/0: ")
bad_scenario("failure times out of order", setter("/platform/servers/0/failures", {"at": ["5s", "2s"]}),
             "/platform/servers/0/failures/at/1: ", "increasing")
bad_scenario("failures at and between", setter("/platform/servers/0/failures", {"at": ["5s"], "time_between": "1h"}),
             "/platform/servers/0/failures: ", "exactly one of")
bad_scenario("time between failures without repair", setter("/platform/servers/0/failures", {"time_between": "1h"}),
             "/platform/servers/0/failures: ", "repair")
bad_scenario("zero time between failures", setter("/platform/servers/0/failures", {"time_between": "0s", "repair": "1s"}),
             "/platform/servers/0/failures/time_between: ", "positive")
bad_scenario("negative repair", setter("/platform/servers/0/failures", {"at": ["1s"], "repair": "-1s"}),
             "/platform/servers/0/failures/repair: ")
bad_scenario("unknown failures key", setter("/platform/servers/0/failures", {"at": ["1s"], "mttr": "1s"}),
             "/platform/servers/0/failures/mttr: ", "unknown key")
bad_scenario("resubmit without a batch system", setter("/workload/resubmit", 1), "/workload/resubmit: ", "submit")
bad_scenario("negative resubmit", submitted({"pattern": "all_at_once"}, resubmit=-1), "/workload/resubmit: ")
bad_scenario("proxy with per_job", setter("/platform/proxy", {"nic": {"bandwidth": "10Gbps", "latency": "10us"}}),
             "/platform/proxy: ", "load_balancing")
def proxied(**proxy):
    def edit(s):
        s["platform"]["load_balancing"] = "round_robin"
        s["platform"]["proxy"] = {"nic": {"bandwidth": "10Gbps", "latency": "10us"}, **proxy}
    return edit
bad_scenario("proxy with zero DNS refresh", proxied(dns_refresh="0s"), "/platform/proxy/dns_refresh: ")
bad_scenario("proxy with negative connect timeout", proxied(connect_timeout="-1s"), "/platform/proxy/connect_timeout: ")
bad_scenario("proxy with no threads", proxied(threads=0), "/platform/proxy/threads: ")
bad_scenario("proxy without a NIC", lambda s: (proxied()(s), s["platform"]["proxy"].pop("nic")), "/platform/proxy/nic: ", "missing")
def gated(**gate):
    def edit(s):
        proxied()(s)
        s["platform"]["proxy"]["saturation_gate"] = gate
    return edit
bad_scenario("gate without cpu_fallback", gated(threshold=100), "/workload/modules/1: ", "cpu_fallback")
bad_scenario("gate with a negative threshold", lambda s: (gated(threshold=-1)(s), s["workload"]["modules"][1].update(
             {"cpu_fallback": "1s"})), "/platform/proxy/saturation_gate/threshold: ")
bad_scenario("gate without a threshold", gated(window="30s"), "/platform/proxy/saturation_gate/threshold: ", "missing")
bad_scenario("gate with a zero window", gated(threshold=1, window="0s"), "/platform/proxy/saturation_gate/window: ")
bad_scenario("zero scrape interval", setter("/platform/scrape_interval", "0s"), "/platform/scrape_interval: ")
bad_scenario("connection limit without cpu_fallback", proxied(connection_limit={}), "/workload/modules/1: ", "cpu_fallback")
bad_scenario("connection limit of zero tokens", proxied(connection_limit={"max_tokens": 0}), "/platform/proxy/connection_limit/max_tokens: ")
bad_scenario("connection limit with a zero fill interval", proxied(connection_limit={"fill_interval": "0s"}),
             "/platform/proxy/connection_limit/fill_interval: ")
def autoscaled(**autoscaling):
    def edit(s):
        proxied()(s)
        s["platform"]["servers"][0]["count"] = 2
        s["platform"]["servers"][0]["autoscaling"] = {"max_replicas": 2, "threshold": 20, **autoscaling}
    return edit
AS = "/platform/servers/0/autoscaling"
bad_scenario("autoscaling without a proxy", setter("/platform/servers/0/autoscaling", {"max_replicas": 1, "threshold": 1}),
             AS + ": ", "/platform/proxy")
bad_scenario("autoscaling without max_replicas", lambda s: (autoscaled()(s), s["platform"]["servers"][0]["autoscaling"].pop("max_replicas")),
             AS + "/max_replicas: ", "missing")
bad_scenario("autoscaling with zero threshold", autoscaled(threshold=0), AS + "/threshold: ", "positive")
bad_scenario("autoscaling min above max", autoscaled(min_replicas=3), AS + "/min_replicas: ")
bad_scenario("autoscaling initial above the pool", autoscaled(max_replicas=5, initial_replicas=3), AS + "/initial_replicas: ",
             "GPU pool")
bad_scenario("autoscaling with an unknown metric", autoscaled(metric="p99_latency"), AS + "/metric: ", "supersonic_load")
bad_scenario("autoscaling with an unknown metric type", autoscaled(metric_type="Utilization"), AS + "/metric_type: ",
             "AverageValue")
bad_scenario("autoscaling with an empty policy list", autoscaled(scale_up={"policies": []}), AS + "/scale_up/policies: ")
bad_scenario("autoscaling policy of zero pods", autoscaled(scale_up={"policies": [{"type": "pods", "value": 0, "period": "15s"}]}),
             AS + "/scale_up/policies/0/value: ")
bad_scenario("autoscaling policy period too long", autoscaled(scale_down={"policies": [{"type": "percent", "value": 10, "period": "31min"}]}),
             AS + "/scale_down/policies/0/period: ", "1800")
bad_scenario("autoscaling stabilization window too long", autoscaled(scale_down={"stabilization_window": "2h"}),
             AS + "/scale_down/stabilization_window: ", "3600")
bad_scenario("autoscaling with an unknown select", autoscaled(scale_up={"select": "median"}), AS + "/scale_up/select: ")
bad_scenario("autoscaling with a zero sync period", autoscaled(sync_period="0s"), AS + "/sync_period: ")
bad_scenario("autoscaling synced every nanosecond", autoscaled(sync_period="1ns"), AS + "/sync_period: ", "at least 1 s")
bad_scenario("KEDA polling every microsecond", autoscaled(polling_interval="1us"), AS + "/polling_interval: ", "at least 1 s")
bad_scenario("autoscaling with a zero probe period", autoscaled(readiness={"period": "0s"}), AS + "/readiness/period: ")
bad_scenario("autoscaling with a negative grace period", autoscaled(grace_period="-1s"), AS + "/grace_period: ")
bad_scenario("autoscaling with an unknown key", autoscaled(cooldown_period="1s"), AS + "/cooldown_period: ", "unknown key")
bad_scenario("autoscaled group that also fails", lambda s: (autoscaled()(s), s["platform"]["servers"][0].update(
             {"failures": {"at": ["1s"]}})), AS + ": ", "not both")
bad_scenario("unknown output", setter("/simulation/outputs", ["timeseries", "pods"]), "/simulation/outputs/1: ", "timeseries")
# Servers that fail every millisecond and come back at once: the run stops at the bound on
# failures, with one line, instead of running for ever.
def flapping(s):
    s["platform"]["servers"][0]["failures"] = {"time_between": "1us", "repair": "0s"}
    s["workload"].update({"events_per_job": 100000})
    s["workload"]["modules"][1].update({"on_failure": "fallback", "cpu_fallback": "1ms"})
if not os.environ.get("SONICSIM_SANITIZED"):  # 10^5 failures take a minute under ASan
    bad_scenario("servers failing for ever", flapping, "/workload", "server failures")
# A failing farm runs: every request ends completed, rejected or failed, and the summary says so.
def failing(s):
    s["platform"]["servers"][0]["failures"] = {"at": ["0.5s"], "repair": "1s"}
    s["workload"]["events_per_job"] = 200
    s["workload"]["modules"][1].update({"on_failure": "fallback", "cpu_fallback": "5ms", "allowed_tries": 2})
rc, _, err = run(["run", scenario("failing_run", failing), "--quiet", "--output", os.path.join(WORK, "failing_run")])
summary = json.load(open(os.path.join(WORK, "failing_run", "summary.json"))) if rc == 0 else {}
req = summary.get("requests", {})
check("a failing farm runs and conserves its requests", rc == 0 and req.get("failed", 0) > 0 and
      req["sent"] == req["completed"] + req["rejected"] + req["failed"] and
      summary["failures"]["servers_restarted"] == 1, f"exit {rc}: {err[:300]!r} {req}")

# ---- Scale ---------------------------------------------------------------------------------------
def hundred_thousand_jobs(s):
    s["platform"]["worker_pools"][0].update({"nodes": 1000, "cores_per_node": 100})
    s["workload"].update({"jobs": 100000, "events_per_job": 1, "start": {"pattern": "spread", "window": "100s"}})
    s["simulation"].update({"stack_size": "16KiB", "outputs": []})
if not os.environ.get("SONICSIM_SANITIZED"):
    rc, out, err = run(["run", scenario("scale", hundred_thousand_jobs), "--output", os.path.join(WORK, "scale")], timeout=300)
    done = json.load(open(os.path.join(WORK, "scale", "summary.json")))["events"]["count"] if rc == 0 else 0
    check("100,000 jobs run", rc == 0 and done == 100000 and "without them" in err, f"exit {rc}, {done} events: {err[:300]!r}")
# At the limits on what runs at once: a job of 5,000 threads and streams, each stream with an event,
# and an event of 10,000 requests all in flight (32 s of CPU time in a release build; minutes under ASan).
def five_thousand_streams(s):
    s["platform"]["worker_pools"][0].update({"nodes": 1, "cores_per_node": 5000})
    s["workload"].update({"jobs": 1, "threads": 5000, "streams": 5000, "events_per_job": 5000})
rc, _, err = run(["run", scenario("streams_at_limit", five_thousand_streams), "--quiet", "--output", os.path.join(WORK, "streams_at_limit")])
summary = json.load(open(os.path.join(WORK, "streams_at_limit", "summary.json"))) if rc == 0 else {}
check("a job of 5,000 threads and streams runs", rc == 0 and summary["events"]["count"] == 5000 and
      summary["requests"]["completed"] == 10000, f"exit {rc}: {err[:300]!r}")
if not os.environ.get("SONICSIM_SANITIZED"):
    def ten_thousand_in_flight(s):
        s["workload"].update({"jobs": 1, "events_per_job": 1})
        s["workload"]["modules"][1].update({"in_flight": 10000, "items_per_event": 10000, "items_per_request": 1})
    rc, _, err = run(["run", scenario("in_flight_at_limit", ten_thousand_in_flight), "--quiet", "--output",
                      os.path.join(WORK, "in_flight_at_limit")], timeout=300)
    summary = json.load(open(os.path.join(WORK, "in_flight_at_limit", "summary.json"))) if rc == 0 else {}
    check("10,000 requests in flight at once run", rc == 0 and summary["requests"]["completed"] == 10000,
          f"exit {rc}: {err[:300]!r}")
bad_scenario("400,000 jobs", lambda s: (hundred_thousand_jobs(s), s["platform"]["worker_pools"][0].update({"nodes": 4000}),
                                        s["workload"].update({"jobs": 400000})), "/workload: ", "simulated actors")

finish()
