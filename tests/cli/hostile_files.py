#!/usr/bin/env python3
"""Hostile inputs other than scenarios (logs, measurements, latency model files, config.pbtxt), hostile
flags, and the integrity of what sonicsim writes.

Every case must end, within its time bound and with bounded memory, in the promised one-line
error naming the file and the JSON pointer (or line and column) and exit code 2; never a crash,
a hang, unbounded memory or an exit 0 with wrong results. Usage:
    hostile_files.py SONICSIM REPOSITORY_ROOT
"""
import csv
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hostile_harness import *  # noqa: E402,F401,F403

# ---- More inputs: logs, measurements, model files, config.pbtxt ------------------------------------
logs_dir = os.path.join(WORK, "logs")
rc, _, err = run(["run", scenario("own"), "--quiet", "--output", logs_dir])
check("logs for the validate cases", rc == 0, f"exit {rc}: {err[:300]!r}")
own = os.path.join(WORK, "own.json")
events_csv = os.path.join(logs_dir, "events.csv")
# A run validates against its own events.csv (its times are rounded to microseconds).
rc, out, err = run(["validate", own, events_csv])
check("validate against its own events.csv", rc == 0 and "all 7 metrics within their tolerance" in out,
      f"exit {rc}: {out[-400:]!r} {err[:300]!r}")
expect_error("log from /dev/zero", ["validate", own, "/dev/zero"], "/dev/zero: ", "512 MiB", timeout=120)
expect_error("log is a directory", ["validate", own, logs_dir], "is a directory")
expect_error("a summary.json given as a log", ["validate", own, write("summary.json", json.dumps({"scenario": "x", "events": {}}))],
             "summary.json: /: a sonicsim summary.json is not a log (give validate the run's events.csv); validate reads an event CSV")
expect_error("a JSON object that is no log", ["validate", own, write("other.json", "{\"a\": 1}")],
             "other.json: /: not a log format sonicsim reads; validate reads an event CSV")
expect_error("deeply nested condor_history", ["validate", own, write("condor.json", "[" * 200000 + "]" * 200000)],
             "condor.json: ", "nested more than 64 levels")
expect_error("condor_history ClusterId beyond an integer", ["validate", own, write("condor-big.json", json.dumps(
    [{"ClusterId": 1e300, "CompletionDate": 20, "RemoteWallClockTime": 10}]))], "condor-big.json: /0/ClusterId: ",
    "expected an integer")
iso_bad = "job,event,start,end\n1,0,2022-13-45T25:61:61Z,2022-05-01T12:00:03Z\n"
expect_error("invalid ISO 8601 time", ["validate", own, write("iso.csv", iso_bad)], "iso.csv: line 2, column \"start\": ",
             "ISO 8601")
expect_error("ISO 8601 time without a zone", ["validate", own, write("iso2.csv", "job,event,start,end\n1,0,2022-05-01T12:00:00,2022-05-01T12:00:03Z\n")],
             "iso2.csv: line 2, column \"start\": ")
expect_error("31 April", ["validate", own, write("iso3.csv", "job,event,start,end\n1,0,2022-04-31T12:00:00Z,2022-05-01T12:00:03Z\n")],
             "iso3.csv: line 2, column \"start\": ")
expect_error("NaN event time", ["validate", own, write("nan.csv", "job,event,start_s,end_s\n1,0,nan,1\n")],
             "nan.csv: line 2, column \"start_s\": ")
expect_error("infinite event time", ["validate", own, write("inf.csv", "job,event,start_s,end_s\n1,0,0,1e400\n")],
             "inf.csv: line 2, column \"end_s\": ")
# Per-job throughput logs (one events/s value per line, as the CMS Mini-AOD SONIC tests wrote them).
expect_error("empty log", ["validate", own, write("empty.txt", "")], "empty.txt: /: an empty log; validate reads an event CSV",
             "a per-job throughput log")
expect_error("blank log", ["validate", own, write("blank.txt", " \n\t\n")], "blank.txt: /: an empty log")
expect_error("per-job throughput log with only a comment", ["validate", own, write("rates-comment.txt", "# jobs\n\n")],
             "rates-comment.txt: ")
expect_error("non-numeric per-job throughput", ["validate", own, write("rates-word.txt", "4.1\n3.9\nfast\n")],
             "rates-word.txt: line 3: expected one number per line, a job's events per second")
expect_error("negative per-job throughput", ["validate", own, write("rates-neg.txt", "4.1\n-3.9\n")],
             "rates-neg.txt: line 2: expected a positive number of events per second")
expect_error("zero per-job throughput", ["validate", own, write("rates-zero.txt", "0\n")],
             "rates-zero.txt: line 1: expected a positive number of events per second")
expect_error("NaN per-job throughput", ["validate", own, write("rates-nan.txt", "4.1\nnan\n")],
             "rates-nan.txt: line 2: expected a finite number of events per second")
expect_error("infinite per-job throughput", ["validate", own, write("rates-inf.txt", "inf\n")],
             "rates-inf.txt: line 1: expected at most 1e+09 events per second")
expect_error("per-job throughput beyond a double", ["validate", own, write("rates-huge.txt", "4.1\n1e400\n")],
             "rates-huge.txt: line 2: expected at most 1e+09 events per second, got \"1e400\"")
expect_error("per-job throughput of 2e9 events/s", ["validate", own, write("rates-big.txt", "2e9\n")],
             "rates-big.txt: line 1: expected at most 1e+09")
expect_error("a 10,000-digit per-job throughput", ["validate", own, write("rates-long.txt", "4" * 10000 + "\n")],
             "rates-long.txt: line 1: expected at most 1e+09")
# Prometheus range-query exports (/api/v1/query_range's JSON), matched by name or given as COLUMN=FILE.
def prom(result):
    return json.dumps({"status": "success", "data": {"resultType": "matrix", "result": result}})
ready = {"__name__": "kube_deployment_status_replicas_ready"}
expect_error("Prometheus export from /dev/zero", ["validate", own, "ready=/dev/zero"], "/dev/zero: ", "512 MiB", timeout=120)
expect_error("deeply nested Prometheus export", ["validate", own, write("prom-deep.json", '{"resultType": ' + "[" * 100000 + "]" * 100000 + "}")],
             "prom-deep.json: ", "nested more than 64 levels")
expect_error("Prometheus values as an object", ["validate", own, write("prom-obj.json", prom([{"metric": ready, "values": {"0": "1"}}]))],
             "prom-obj.json: /data/result/0/values: ", "array")
expect_error("Prometheus timestamp as a string", ["validate", own, write("prom-ts.json", prom([{"metric": ready, "values": [["1700000000", "1"]]}]))],
             "prom-ts.json: /data/result/0/values/0/0: ")
expect_error("Prometheus value as a bare number", ["validate", own, write("prom-num.json", prom([{"metric": ready, "values": [[1700000000, 1]]}]))],
             "prom-num.json: /data/result/0/values/0/1: expected a sample value as a string")
expect_error("Prometheus value beyond a double", ["validate", own, write("prom-huge.json", prom([{"metric": ready, "values": [[1700000000, "1e400"]]}]))],
             "prom-huge.json: /data/result/0/values/0/1: expected a number")
expect_error("Prometheus timestamp of 1e300", ["validate", own, write("prom-t.json", prom([{"metric": ready, "values": [[1e300, "1"]]}]))],
             "prom-t.json: /data/result/0/values/0/0: ")
expect_error("Prometheus instant vector", ["validate", own, write("prom-vec.json", json.dumps({"status": "success", "data": {"resultType": "vector", "result": []}}))],
             "prom-vec.json: /data/resultType: expected \"matrix\"")
expect_error("Prometheus export of an unnamed expression", ["validate", own, write("prom-expr.json", prom([{"metric": {}, "values": [[0, "1"]]}]))],
             "prom-expr.json: /: cannot tell which series", "COLUMN=")
expect_error("an event CSV given as a Prometheus export", ["validate", own, "ready=" + events_csv], "events.csv: ")
expect_error("a Prometheus export against a scenario without scrapes", ["validate", own, write("prom-ok.json", prom([{"metric": ready, "values": [[0, "1"]]}]))],
             "Prometheus exports need a scenario that Prometheus scrapes")
expect_error("11 million jobs in a per-job throughput log", ["validate", own, write("rates-many.txt", "1\n" * 10_000_001)],
             "rates-many.txt: line 10000001: more than 10000000 jobs", timeout=120)
expect_error("per-job throughput with a binary tail", ["validate", own, write("rates-bin.txt", b"4.1\n\x00\xff\x01\n")],
             "rates-bin.txt: line 2: expected one number per line")
expect_error("per-job throughput log beside a perf_analyzer CSV", ["validate", own, write("rates-ok.txt", "4.1\n"),
             write("pa.csv", "Concurrency,Inferences/Second,Client Send,Client Recv\n1,10,1,1\n")],
             "perf_analyzer logs and grid-job logs need different scenarios")
expect_error("per-job throughput of a run that leaves its jobs running", ["validate", scenario(
    "endless", lambda s: (s["workload"].pop("events_per_job"), s["workload"].update(duration="1s"))),
    write("rates-ok2.txt", "4.1\n")], "no job that ended having completed its events")
# validate --run DIR: a run's directory whose files are not what the run wrote.
def run_dir(name, summary_edit=None, events=None, link_events=None):
    """A copy of the logs run's directory: summary.json edited by `summary_edit` (a function of the
    dict, or text), events.csv replaced by `events` (text or bytes) or a symbolic link."""
    d = os.path.join(WORK, name)
    os.makedirs(d, exist_ok=True)
    summary = json.load(open(os.path.join(logs_dir, "summary.json")))
    if callable(summary_edit):
        summary_edit(summary)
    with open(os.path.join(d, "summary.json"), "w") as f:
        f.write(summary_edit if isinstance(summary_edit, str) else json.dumps(summary))
    target = os.path.join(d, "events.csv")
    if link_events:
        os.symlink(link_events, target)
    else:
        with open(target, "wb" if isinstance(events, bytes) else "w") as f:
            f.write(events if events is not None else open(events_csv).read())
    return d
expect_error("--run whose events.csv is /dev/zero", ["validate", own, events_csv, "--run", run_dir("run-zero", link_events="/dev/zero")],
             "run-zero/events.csv: /: expected the file the run wrote (events.csv)")
expect_error("--run whose events.csv is a directory", ["validate", own, events_csv, "--run", run_dir("run-dir", link_events=logs_dir)],
             "run-dir/events.csv: /: expected the file the run wrote (events.csv)")
expect_error("--run given a file", ["validate", own, events_csv, "--run", events_csv], "events.csv: /: not a directory")
expect_error("--run whose events.csv has a 20 MB line", ["validate", own, events_csv, "--run", run_dir("run-long", events="job,start_s,end_s\n" + "1" * 20_000_000 + "\n")],
             "run-long/events.csv: line 2")
expect_error("--run whose events.csv lacks end_s", ["validate", own, events_csv, "--run", run_dir("run-cols", events="job,event,start_s\n0,0,1\n")],
             "run-cols/events.csv: ", "end_s")
expect_error("--run whose events.csv has a word for a time", ["validate", own, events_csv, "--run", run_dir("run-word", events="job,event,start_s,end_s\n0,0,1,soon\n")],
             "run-word/events.csv: line 2, column \"end_s\": ")
expect_error("--run whose events.csv has a binary tail", ["validate", own, events_csv, "--run", run_dir("run-bin", events=b"job,event,start_s,end_s\n0,0,1,2\n\x00\xff,\x01\n")],
             "run-bin/events.csv: line 3")
expect_error("--run whose summary.json is deeply nested", ["validate", own, events_csv, "--run", run_dir("run-deep", "[" * 100000 + "]" * 100000)],
             "run-deep/summary.json: ", "nested more than 64 levels")
expect_error("--run whose summary.json has no scenario", ["validate", own, events_csv, "--run", run_dir("run-noname", lambda d: d.pop("scenario"))],
             "run-noname/summary.json: /scenario: ")
expect_error("--run whose summary.json seed is text", ["validate", own, events_csv, "--run", run_dir("run-seed", lambda d: d.update(seed="1"))],
             "run-seed/summary.json: /seed: ")
expect_error("--run whose summary.json has a negative utilisation", ["validate", own, events_csv, "--run", run_dir("run-util", lambda d: d["gpu"].update(utilization=-1))],
             "run-util/summary.json: /gpu/utilization: ")
# More rows than a run records (20 million events): refused at the first row beyond, every row
# before the warm-up cut so that none is held on the way.
expect_error("--run whose events.csv has more rows than a run records", ["validate", own, events_csv, "--run", run_dir(
    "run-many", lambda d: d.update(warmup_s=1e9), events="job,event,start_s,end_s\n" + "0,0,0,0\n" * 20_000_001)],
    "run-many/events.csv: line 20000002: more rows than a sonicsim run records (at most 20000000 events)", timeout=120)
prom = lambda n: "".join(f'{m}{{model="m",version="1"}} {n}\n' for m in
                         ["nv_inference_request_success", "nv_inference_count", "nv_inference_exec_count",
                          "nv_inference_queue_duration_us"])
expect_error("counters going backwards", ["validate", own, write("a.prom", prom(100)) + "@0", write("b.prom", prom(50)) + "@10"],
             "b.prom: counters: ", "went down")
expect_error("NaN sample value", ["validate", own, write("nan.prom", 'nv_inference_count{model="m"} NaN\n') + "@0"],
             "nan.prom: line 1: ", "finite")
expect_error("NaN scrape time", ["validate", own, write("t.prom", prom(1)) + "@nan"], "@nan", "SECONDS a finite time")
expect_error("infinite scrape time", ["validate", own, write("t2.prom", prom(1)) + "@inf"], "SECONDS a finite time")
expect_error("NaN tolerance", ["validate", own, events_csv, "--tolerance", "event_time_mean=nan"],
             "--tolerance event_time_mean: expected a fraction below 1 (0.05) or a percentage (5%)")
expect_error("a tolerance of 20 read as 2000%", ["validate", own, events_csv, "--tolerance", "event_time_mean=20"],
             "(write 20% for a percentage)")
expect_error("--precision 5 read as 500%", ["run", own, "--precision", "5"], "--precision: expected a fraction below 1", "(write 5% for a percentage)")
expect_error("negative tolerance file", ["validate", own, events_csv, "--tolerances", write("tol.json", '{"relative": -1}')],
             "tol.json: /relative: ")
expect_error("duplicate keys in tolerances", ["validate", own, events_csv, "--tolerances",
                                              write("tol2.json", '{"ks": 0.1, "ks": 0.2}')], "tol2.json: /ks: duplicate key")
expect_error("calibration CSV from /dev/zero", ["calibrate", "/dev/zero"], "/dev/zero: line 1: ", timeout=120)
expect_error("calibration CSV is a directory", ["calibrate", WORK], "is a directory")
cal = "# sonicsim calibration data v1\nbatch_size,mean_s,p50_s,p99_s,stddev_s,repeats\n1,0.001,0.001,0.002,0.0001,10\n2,0.0015,0.0015,0.003,0.0001,10\n"
expect_error("calibrate --seed -1", ["calibrate", write("cal.csv", cal), "--seed", "-1"], "--seed expects a whole number")
expect_error("calibrate NaN latency", ["calibrate", write("cal-nan.csv", cal.replace("0.0015,0.0015", "nan,0.0015"))],
             "cal-nan.csv: line 4, column \"mean_s\": ")
expect_error("calibrate --bootstrap 2e9", ["calibrate", write("cal2.csv", cal), "--bootstrap", "2000000000"], "--bootstrap expects")

# ---- Silent wrong results: each ended in exit 0 with an answer that was no measurement, or hung --
perf = os.path.join(ROOT, "scenarios", "perf-analyzer-small-requests.json")
slow_kernel = ["--set", '/models/emtrkmichelid/kernel_latency/intercept="20s"']
# A 20 s kernel: no request comes back inside the 3 x 5 s windows (2 s to 17 s) at any level. It
# printed 0 infer/s and 0 us at every level, exit 0; perf_analyzer itself stops at such a level.
expect_error("a perf load whose windows see no response", ["run", perf, "--quiet"] + slow_kernel,
             "perf-analyzer-small-requests.json: /perf_analyzer/measurement_interval: ",
             "no request came back inside the 3 x 5 s windows at any of the 7 concurrency levels")
# Requests at 0.05/s leave at 0 s and 20 s, neither inside the windows; 100/s measures.
pr_csv = os.path.join(WORK, "partial-levels.csv")
rc, out, err = run(["run", perf, "--perf-csv", pr_csv, "--set", "/perf_analyzer/concurrency=null",
                    "--set", "/perf_analyzer/request_rate=[0.05,100]"])
csv_levels = [r[0] for r in csv.reader(open(pr_csv))][1:] if rc == 0 else []
table_05 = [line for line in out.splitlines() if line.startswith("0.05 ")]
check("a perf level with no response is no row of numbers, and not in the CSV",
      rc == 0 and csv_levels == ["100"] and len(table_05) == 1 and "no request came back inside the windows" in table_05[0]
      and not any(c.isdigit() for c in table_05[0][5:]) and
      "sonicsim: warning: " + perf + ": /perf_analyzer/request_rate/0: no request came back inside the 3 x 5 s windows" in err,
      f"exit {rc}: {csv_levels} {table_05} {err[:300]!r}")
measured_perf = write("pa-measured.csv", "Concurrency,Inferences/Second,Client Send,Network+Server Send/Recv,Server Queue,"
                      "Server Compute Input,Server Compute Infer,Server Compute Output,Client Recv,p50 latency,p90 latency,"
                      "p95 latency,p99 latency\n1,400,15,100,10,5,2000,5,5,2400,2500,2500,2600\n")
expect_error("validate against a perf level that measured nothing", ["validate", perf, measured_perf] + slow_kernel +
             ["--set", "/perf_analyzer/concurrency=[1]"], "perf-analyzer-small-requests.json: /perf_analyzer/measurement_interval: ",
             "no request came back inside the 3 x 5 s windows at concurrency 1")
expect_error("perf windows past the longest run", ["run", perf, "--quiet", "--set", "/perf_analyzer/windows=2000000000",
             "--set", '/perf_analyzer/measurement_interval="1s"'], "perf-analyzer-small-requests.json: /perf_analyzer/windows: ",
             "at most 1e+08 s")
expect_error("validate --prometheus-start -1", ["validate", own, events_csv, "--prometheus-start", "-1"],
             "--prometheus-start: expected a Unix time in seconds (0 to 1e11), got -1")
# Times whose differences leave a double's range: "Wasserstein-1 1.1e+308 ... ok".
expect_error("event times of 1.7e308 s", ["validate", own, write("huge-times.csv", "job,event,start_s,end_s\n1,0,0,1.7e308\n"
             "2,0,0,1.7e308\n3,0,0,1\n")], "huge-times.csv: line 2, column \"end_s\": ", "expected a time of at most 1e+11 s")
expect_error("event times of -1e308 s", ["validate", own, write("negative-times.csv", "job,event,start_s,end_s\n1,0,-1e308,1\n")],
             "negative-times.csv: line 2, column \"start_s\": ", "expected a time of at least -1e+11 s")
expect_error("an event of 2e8 s", ["validate", own, write("long-event.csv", "job,event,start_s,end_s\n1,0,0,2e8\n")],
             "long-event.csv: line 2, column \"end_s\": ", "expected an event of at most 1e+08 s")


# Prometheus range-query exports against a farm that Prometheus scrapes: a saturation gate that
# never closes, one replica ready throughout, scrapes every 5 s from 0 to 60 s.
def scraped_farm(s):
    s["platform"]["load_balancing"] = "round_robin"
    s["platform"]["proxy"] = {"nic": {"bandwidth": "10Gbps", "latency": "10us"}, "saturation_gate": {"threshold": 100}}
    s["workload"]["modules"][1]["cpu_fallback"] = "1s"
    s["workload"].pop("events_per_job")
    s["workload"]["duration"] = "60s"
scraped = scenario("scraped", scraped_farm)
T0 = 1_700_000_000
def range_export(name, samples, series_name="kube_deployment_status_replicas_ready"):
    return write(name, json.dumps({"status": "success", "data": {"resultType": "matrix", "result": [
        {"metric": {"__name__": series_name}, "values": [[T0 + t, v] for t, v in samples]}]}}))
expect_error("a ready count of 1e308", ["validate", scraped, range_export("ready-huge.json", [(0, "1"), (5, "1e308")])],
             "ready-huge.json: /data/result/0/values/1/1: expected a whole number of ready replicas from 0 to 10000, got 1e+308")
expect_error("a ready count of 1.5", ["validate", scraped, range_export("ready-half.json", [(0, "1.5")])],
             "ready-half.json: /data/result/0/values/0/1: expected a whole number of ready replicas")
expect_error("a ready count of -1", ["validate", scraped, range_export("ready-neg.json", [(0, "-1")])],
             "ready-neg.json: /data/result/0/values/0/1: expected a whole number of ready replicas")
expect_error("a GPU utilisation of 150", ["validate", scraped, range_export("gpu-pct.json", [(0, "0.5"), (5, "150")], "nv_gpu_utilization")],
             "gpu-pct.json: /data/result/0/values/1/1: expected a GPU utilisation from 0 to 1 (a fraction), got 150")
expect_error("a queue time of -3 ms", ["validate", scraped, "queue_ms=" + range_export("queue-neg.json", [(0, "-3")], "")],
             "queue-neg.json: /data/result/0/values/0/1: expected a queue time per request from 0 to 1e+11 ms")
expect_error("a load metric of 1e300", ["validate", scraped, "metric=" + range_export("metric-huge.json", [(0, "1e300")], "")],
             "metric-huge.json: /data/result/0/values/0/1: expected a load metric from 0 to 1e+12")
expect_error("a success counter that jumps by 1e300", ["validate", scraped, range_export("rps-jump.json", [(0, "0"), (5, "1e300")],
             "nv_inference_request_success")],
             "rps-jump.json: /data/result/0/values/1/1: expected at most 1e+09 requests/s since the previous sample")
expect_error("a request rate of -5/s", ["validate", scraped, "requests_per_s=" + range_export("rps-neg.json", [(0, "-5")], "")],
             "rps-neg.json: /data/result/0/values/0/1: expected a request rate from 0 to 1e+09 requests/s")
# 2 replicas ready for the first 60 s (the simulation has 1), 1 at 60 s, and one more sample 1e8 s
# later. The sample at 60 s stood for the 1e8 s up to it and outweighed the 60 s of disagreement
# ("all within tolerance"). The run's span ends one scrape interval after its last scrape (65 s):
# the measured time-weighted mean is (2 x 60 s + 1 x 5 s) / 65 s.
rc, out, err = run(["validate", scraped, range_export("ready-past.json", [(t, "2") for t in range(0, 60, 5)] + [(60, "1"), (60 + 1e8, "1")])])
means = [line.split() for line in out.splitlines() if line.startswith("ready replicas, time-weighted mean")]
measured_mean = float(means[0][4]) if len(means) == 1 else None
check("a sample past the run weighs nothing, and a note says it was left out",
      rc == 1 and measured_mean is not None and abs(measured_mean - (2 * 60 + 5) / 65) < 1e-5 and
      "sonicsim: note: " + os.path.join(WORK, "ready-past.json") + ": 1 sample after the simulated run's end (65 s) left out" in err,
      f"exit {rc}: {means} {out[-600:]!r} {err[:300]!r}")

# Calibration: latencies below a nanosecond made 1/latency^2 overflow and wrote null fits, exit 0.
cal_denormal = cal.replace("0.001,0.001,0.002,0.0001", "1e-310,1e-310,2e-310,1e-311")
expect_error("calibrate denormal latencies", ["calibrate", write("cal-denormal.csv", cal_denormal)],
             "cal-denormal.csv: line 3, column \"mean_s\": expected a latency from 1e-09 s to 1e+08 s, got 1e-310")
expect_error("calibrate latencies of 1e300 s", ["calibrate", write("cal-huge.csv", cal.replace("0.0015,0.0015,0.003", "0.0015,0.0015,1e300"))],
             "cal-huge.csv: line 4, column \"p99_s\": expected a latency from 1e-09 s to 1e+08 s")
# Every batch size from 1 to 100,000, exactly a knee (2 ms flat to batch 64, then 48 us per item):
# the knee search evaluated a least-squares fit over every point at 64 knees per gap, O(n^2) per
# fit; with 20 resamples it did not finish. The fit gives the knee back. Under the sanitizers the
# same code runs on 5,000 batch sizes (100,000 take 200 s there, a third of this file's time); the
# release run keeps the size that guards the scaling.
batch_sizes = 5_000 if os.environ.get("SONICSIM_SANITIZED") else 100_000
knee_rows = "".join(f"{b},{t!r},{t!r},{1.2 * t!r},{0.05 * t!r},10\n" for b in range(1, batch_sizes + 1)
                    for t in [2e-3 + 48e-6 * max(0, b - 64)])
cal_model = os.path.join(WORK, "cal-many.json")
rc, _, err = run(["calibrate", write("cal-many.csv", cal.split("1,0.001")[0] + knee_rows), "--bootstrap", "20", "--quiet",
                  "--select", "knee", "--output", cal_model])
knee = json.load(open(cal_model))["forms"]["knee"] if rc == 0 else {}
check(f"calibrate {batch_sizes:,} batch sizes with 20 resamples, and the knee comes back",
      rc == 0 and abs(knee["knee_batch"] - 64) < 1e-3 and abs(knee["flat_s"] - 2e-3) < 1e-9 and abs(knee["per_item_s"] - 48e-6) < 1e-12,
      f"exit {rc}: {knee} {err[:300]!r}")
def model_file(edit):
    def apply(s):
        s["models"]["m"]["kernel_latency"] = {"type": "calibrated", "file": edit}
    return apply
write("deep-model.json", "{\"a\":" * 100000 + "1" + "}" * 100000)
bad_scenario("deeply_nested_model_file", model_file("deep-model.json"), "nested more than 64 levels", file="deep-model.json: /a/a")
bad_scenario("model_file_from_dev_zero", model_file("/dev/zero"), "16 MiB", file="/dev/zero: /: ")
def pbtxt(name, text):
    path = write(name, text)
    def apply(s):
        m = s["models"]["m"]
        for k in ("max_batch_size", "instances_per_gpu"):
            m.pop(k, None)
        m["triton_config"] = path
    return apply
bad_scenario("config_pbtxt_from_dev_zero", lambda s: pbtxt("x.pbtxt", "")(s) or s["models"]["m"].update({"triton_config": "/dev/zero"}),
             "/models/m/triton_config: cannot open the Triton model configuration")
bad_scenario("config_pbtxt_nested", pbtxt("deep.pbtxt", "dynamic_batching " + "{ default_queue_policy " * 50000),
             "has no field named", file="deep.pbtxt: line 1, column 64: ")
bad_scenario("config_pbtxt_priority_levels",
             pbtxt("levels.pbtxt", "max_batch_size: 8\ndynamic_batching { priority_levels: 2000000000 default_priority_level: 1 }\n"),
             "at most 1000 priority levels", file="levels.pbtxt: dynamic_batching.priority_levels: ")
bad_scenario("config_pbtxt_huge_delay",
             pbtxt("delay.pbtxt", "max_batch_size: 8\ndynamic_batching { max_queue_delay_microseconds: 18446744073709551615 }\n"),
             "at most", file="delay.pbtxt: dynamic_batching.max_queue_delay_microseconds: ")
bad_scenario("config_pbtxt_huge_batch", pbtxt("mbs.pbtxt", "max_batch_size: 2000000000\n"), "at most 16777216",
             file="mbs.pbtxt: max_batch_size: ")

# ---- FastTimerService reports (/workload/modules_from) -----------------------------------------------
def fasttimer_report(modules=None, events=4, text=None):
    """A report in writeSummaryJSON's schema (by default two modules and "idle"), or `text` as it is."""
    if text is not None:
        return text
    if modules is None:
        modules = [{"type": "PoolSource", "label": "source", "events": events, "time_thread": 40.0},
                   {"type": "TrackProducer", "label": "tracks", "events": events, "time_thread": 400.0},
                   {"type": "idle", "label": "idle", "events": events, "time_thread": 9.0}]
    return {"total": {"type": "Job", "label": "RECO", "events": events, "time_thread": 449.0}, "modules": modules}


def from_report(name, report, group="all", offload=None):
    """An edit taking the workload's modules from `report`, written as NAME (a path is used as it is)."""
    def apply(s):
        path = report if isinstance(report, str) and report.startswith("/") else write(name, report)
        s["workload"].pop("modules")
        s["workload"]["modules_from"] = {"fasttimer": path, "group": group}
        if offload:
            s["workload"]["modules_from"]["offload"] = offload
    return apply


rc, _, err = run(["run", scenario("report_ok", from_report("ok-report.json", fasttimer_report(), "module")), "--quiet"])
check("a workload from a FastTimerService report runs", rc == 0 and err == "", f"exit {rc}: {err[:300]!r}")
bad_scenario("report_dev_zero", from_report("", "/dev/zero"), "16 MiB", file="/dev/zero: ")
bad_scenario("report_directory", from_report("", WORK), "is a directory", file=WORK + ": ")
bad_scenario("report_nested", from_report("nested-report.json", fasttimer_report(text="[" * 200000 + "]" * 200000)),
             "nested more than 64 levels", file="nested-report.json: ")
bad_scenario("report_nan", from_report("nan-report.json", fasttimer_report(text=json.dumps(fasttimer_report()).replace("400.0", "NaN"))),
             "invalid JSON", file="nan-report.json: ")
bad_scenario("report_beyond_double", from_report("big-report.json", fasttimer_report(text=json.dumps(fasttimer_report()).replace("400.0", "1e400"))),
             file="big-report.json: ")
bad_scenario("report_events_beyond_int64", from_report("events-report.json", fasttimer_report(text=json.dumps(fasttimer_report()).replace(
    '"events": 4, "time_thread": 449.0', '"events": 18446744073709551615, "time_thread": 449.0'))),
    "expected an integer >= 0", file="events-report.json: /total/events: ")
bad_scenario("report_zero_events", from_report("zero-report.json", fasttimer_report(events=0)), "no events",
             file="zero-report.json: /total/events: ")
bad_scenario("report_negative_time", from_report("neg-report.json", fasttimer_report(
    [{"type": "T", "label": "a", "events": 4, "time_thread": -1.0}])), "expected a number >= 0", file="neg-report.json: /modules/0/time_thread: ")
bad_scenario("report_time_as_string", from_report("str-report.json", fasttimer_report(
    [{"type": "T", "label": "a", "events": 4, "time_thread": "1"}])), "expected a number", file="str-report.json: /modules/0/time_thread: ")
bad_scenario("report_absurd_time", from_report("absurd-report.json", fasttimer_report(
    [{"type": "T", "label": "a", "events": 4, "time_thread": 1e300}])), "s per event", file="absurd-report.json: /modules/0/time_thread: ")
bad_scenario("report_label_with_control_characters", from_report("ctl-report.json", fasttimer_report(
    [{"type": "T", "label": "a\u0007b", "events": 4, "time_thread": 1.0}])), file="ctl-report.json: /modules/0/label: ")
bad_scenario("report_modules_not_array", from_report("obj-report.json", {"total": {"label": "P", "events": 1}, "modules": {"a": 1}}),
             "expected an array", file="obj-report.json: /modules: ")
bad_scenario("report_unknown_offload", from_report("ok2-report.json", fasttimer_report(), offload={"nope": {"model": "m", "request": {}}}),
             "/workload/modules_from/offload/nope: ", "no module labelled \"nope\"")
# 100,000 modules, one CPU step each: read and run in bounded time, as a large HLT menu's report would be.
# One job of one event runs every module once (100,000 steps; the base workload's 12 events would be
# 1.2 million, past the time limit under the sanitizers).
many = [{"type": "T%d" % (i % 50), "label": "m%d" % i, "events": 4, "time_thread": 0.04} for i in range(100000)]
def many_modules(s):
    from_report("many-report.json", fasttimer_report(many), "module")(s)
    s["workload"].update({"jobs": 1, "events_per_job": 1})
rc, _, err = run(["run", scenario("report_many", many_modules), "--quiet"])
check("a report of 100,000 modules runs, one step per module", rc == 0 and err == "", f"exit {rc}: {err[:300]!r}")

# The same with its DependencyGraph file (the Graphviz file the service writes): each module consumes
# the one before it, a 100,000-module graph read and run (one event) in bounded time.
many_graph = "digraph RECO {\n" + "".join('%d[label=m%d, shape=box];\n' % (i, i) for i in range(100000)) + \
    "".join("%d -> %d;\n" % (i, i - 1) for i in range(1, 100000)) + "}\n"
def many_modules_graph(s):
    many_modules(s)
    s["workload"]["modules_from"]["graph"] = write("many.gv", many_graph)
rc, _, err = run(["run", scenario("report_many_graph", many_modules_graph), "--quiet"])
check("a report of 100,000 modules with its DependencyGraph file runs", rc == 0 and err == "", f"exit {rc}: {err[:300]!r}")
# A file that does not match its report: 10,000 nodes the report does not time, each passing on
# the modules of all those after it (50 million dependencies to hold): refused, not held.
def untimed_graph(s):
    timed = [{"type": "T", "label": "t%d" % i, "events": 4, "time_thread": 0.04} for i in range(10000)]
    from_report("untimed-report.json", fasttimer_report(timed), "module")(s)
    s["workload"].update({"jobs": 1, "events_per_job": 1})
    text = "digraph X {\n" + "".join("u%d -> t%d;\nu%d -> u%d;\n" % (i, i, i, i + 1) for i in range(9999)) + "u9999 -> t9999;\nt0 -> u0;\n}\n"
    s["workload"]["modules_from"]["graph"] = write("untimed.gv", text)
bad_scenario("report_graph_untimed_nodes", untimed_graph, "pass on more than 20000000 dependencies", file="untimed.gv: line ")
def graph_edit(name, text):
    def apply(s):
        from_report(name + "-report.json", fasttimer_report(), "module")(s)
        s["workload"]["modules_from"]["graph"] = write(name + ".gv", text)
    return apply
bad_scenario("report_graph_not_dot", graph_edit("bad", "digraph {\n source -> tracks\n ; subgraph x {}\n}\n"),
             "'subgraph' is not read", file="bad.gv: line 3, column 4: ")
bad_scenario("report_graph_cycle", graph_edit("cyc", "digraph { source -> tracks; tracks -> source }"),
             "/workload/modules_from/graph: ", "the modules \"source\" -> \"tracks\" -> \"source\" each wait for the next")
bad_scenario("report_graph_unterminated", graph_edit("open", "digraph { source [label=\"source"), "expected the closing",
             file="open.gv: line 1, column 25: ")
def graph_from_dev_zero(s):
    from_report("zero-graph-report.json", fasttimer_report(), "module")(s)
    s["workload"]["modules_from"]["graph"] = "/dev/zero"
expect_error("report_graph_dev_zero", ["run", scenario("report_graph_dev_zero", graph_from_dev_zero), "--quiet"],
             "/dev/zero: line 1: ", "512 MiB", timeout=120)

# ---- SuperSONIC values files (YAML, read as Helm reads them) -----------------------------------------
def values_file(name, content):
    """A scenario whose server group names the values file NAME.yaml holding `content`."""
    path = write(name + ".yaml", content)
    def apply(s):
        group = s["platform"]["servers"][0]
        group.pop("count")
        group["supersonic_values"] = path
        s["platform"]["proxy"] = {"nic": {"bandwidth": "10Gbps", "latency": "50us"}}
    return apply
GPU = "triton:\n  resources:\n    limits: {nvidia.com/gpu: 1}\n"
def bad_values(name, content, where, *expected):
    bad_scenario(name, values_file(name, content), *expected, file=f"{name}.yaml: {where}")
# Ten levels of ten aliases: ten billion values once expanded, 400 bytes in the file.
bomb = "a: &a [" + ",".join(["x"] * 10) + "]\n" + "".join(
    f"{c}: &{c} [" + ",".join([f"*{chr(ord(c) - 1)}"] * 10) + "]\n" for c in "bcdefghij")
bad_values("values_alias_bomb", bomb, "/e/", "more than 100000 values once the aliases are expanded")
bad_values("values_alias_to_itself", "a: &a [*a]\n", "/a/0/0/", "nested more than 64 levels deep")
bad_values("values_deep_flow", "a: " + "[" * 200000 + "]" * 200000 + "\n", "line 1, column ", "invalid YAML: nested more than 64 levels")
bad_values("values_deep_block", "".join(" " * i + "k:\n" for i in range(1000)), "line ", "invalid YAML: nested more than 64 levels")
bad_values("values_huge", "a: " + "x" * (2 << 20) + "\n", "/: ", "more than the 1 MiB")
bad_scenario("values_from_dev_zero", lambda s: values_file("z", "")(s) or s["platform"]["servers"][0].update(
    {"supersonic_values": "/dev/zero"}), "1 MiB", file="/dev/zero: /: ")
bad_values("values_a_list", "- a\n- b\n", "/: ", "expected a map of values")
bad_values("values_wrong_type_map", GPU + "envoy: 5\n", "/envoy: ", "expected a map, got number 5")
bad_values("values_wrong_type_integer", GPU + "keda: {enabled: true, maxReplicaCount: [11]}\n", "/keda/maxReplicaCount: ",
           "expected an integer")
bad_values("values_wrong_type_policy", GPU + "envoy: {loadBalancerPolicy: 3}\n", "/envoy/loadBalancerPolicy: ")
bad_values("values_nan", GPU + "serverLoadThreshold: .nan\n", "/serverLoadThreshold: ", "expected a finite number")
bad_values("values_infinite_replicas", GPU + "  replicas: .inf\n", "/triton/replicas: ", "expected a finite number")
bad_values("values_huge_replicas", GPU + "  replicas: 99999999999999999999\n", "/triton/replicas: ")
bad_values("values_bad_utf8", GPU.encode() + b"  image: \"\xff\xfe\"\n", "line 4, column 11: ", "expected UTF-8 text, got the byte \\xFF")
bad_values("values_nul_byte", GPU.encode() + b"  image: a\x00b\n", "line 4, column 11: ", "control character \\x00")
bad_values("values_tab_indent", "triton:\n\treplicas: 2\n", "line 2, column 1: ", "a tab in the indentation")
bad_values("values_syntax", GPU + "  replicas: [1, 2\n", "line 5, column 1: ", "invalid YAML")
bad_values("values_duplicate_key", GPU + "keda:\n  maxReplicaCount: 2\n  maxReplicaCount: 11\n", "/keda/maxReplicaCount: ",
           "duplicate key")
bad_values("values_two_documents", GPU + "---\nkeda: {}\n", "/: ", "expected one YAML document")
# A ',' where a document or its content should start: yaml-cpp 0.7's LoadAll returned an endless list
# of null documents (fixed upstream in yaml-cpp PR #1319), growing without bound.
bad_values("values_lone_comma", ",\n", "line 1, column 1: ", "invalid YAML: did not find expected node content")
bad_values("values_comma_after_document_start", "---\n,\n", "line 2, column 1: ", "did not find expected node content")
bad_values("values_comma_after_anchor", "&x ,\n", "line 1, column 4: ", "did not find expected node content")
bad_values("values_comma_after_block_scalar", "|\n  --model-repository=/models\n,\n", "line 3, column 1: ",
           "did not find expected node content")
fuzz_timeout = os.path.join(ROOT, "tests", "data", "fuzz", "values-timeout.yaml")
bad_scenario("values_fuzzer_timeout_input", lambda s: values_file("t", "")(s) or s["platform"]["servers"][0].update(
    {"supersonic_values": fuzz_timeout}), "did not find expected node content", file=fuzz_timeout + ": line 23, column 1: ")
bad_values("values_custom_tag", GPU + "keda: !vault {enabled: true}\n", "/keda: ", "unsupported YAML tag")
bad_values("values_unknown_metric", GPU + "keda: {enabled: true}\nserverLoadMetric: avg(up)\n", "/serverLoadMetric: ",
           "a PromQL query sonicsim cannot evaluate")
bad_scenario("values_path_not_text", lambda s: values_file("n", GPU)(s) or s["platform"]["servers"][0].update(
    {"supersonic_values": 5}), "/platform/servers/0/supersonic_values: ")
bad_scenario("values_file_missing", lambda s: values_file("m", GPU)(s) or s["platform"]["servers"][0].update(
    {"supersonic_values": "nowhere.yaml"}), file="nowhere.yaml: ")
rc, _, err = run(["run", scenario("values_ok", values_file("values_ok", GPU + "grafana: {enabled: true}\n")), "--quiet"])
check("a values file runs, and --quiet keeps its notes quiet", rc == 0 and err == "", f"exit {rc}: {err[:300]!r}")
rc, _, err = run(["run", scenario("values_notes", values_file("values_notes", GPU + "grafana: {enabled: true}\n"))])
check("each note on what a values file sets is one line naming the file",
      rc == 0 and "sonicsim: note: " + os.path.join(WORK, "values_notes.yaml") + ": ignored, not simulated: grafana\n" in err,
      f"exit {rc}: {err[:600]!r}")
# A value that the chart's `default` (or Kubernetes) replaces, or more CPUs than the proxy's threads,
# runs with a note saying what it became; each was replaced without a word.
def values_notes(name, content):
    rc, _, err = run(["run", scenario(name, values_file(name, content)), "--output", os.path.join(WORK, name)])
    prefix = "sonicsim: note: " + os.path.join(WORK, name + ".yaml") + ": "
    return rc, [line[len(prefix):] for line in err.splitlines() if line.startswith(prefix)], err
KEDA_ZEROS = (GPU + "  replicas: 0\n  readinessProbe: {periodSeconds: 0}\nkeda:\n  enabled: true\n  maxReplicaCount: 0\n"
              "  scaleUp: {periodSeconds: 0, stepsize: 0}\n  scaleDown: {periodSeconds: 0, stepsize: 0}\n"
              "envoy: {replicas: 0, resources: {limits: {cpu: 1e9}}}\n")
rc, notes, err = values_notes("values_zeros", KEDA_ZEROS)
for expected in ["triton.replicas 0 renders as 1", "keda.maxReplicaCount 0 renders as 14", "keda.scaleUp.periodSeconds 0 renders as 30",
                 "keda.scaleUp.stepsize 0 renders as 1", "keda.scaleDown.periodSeconds 0 renders as 30",
                 "keda.scaleDown.stepsize 0 renders as 1", "triton.readinessProbe.periodSeconds 0 is 10 to Kubernetes",
                 "envoy.replicas 0 renders as 1", "envoy.resources.limits.cpu 1000000000 is more than the 1024 threads"]:
    check(f"a values file's {expected.split(' ')[0]} replaced, with a note", rc == 0 and any(n.startswith(expected) for n in notes),
          f"exit {rc}: {notes!r} {err[-300:]!r}")
# 99,990 keys no template reads (with the five values of GPU, the most a values file may hold): read
# in linear time (a search of the list of keys made it quadratic, 18 s for 90,000), each named once,
# in the order of the merged values (sorted, as nlohmann::json keeps a map).
unknown = [f"k{i}" for i in range(99990)]
rc, notes, err = values_notes("values_many_unknown", GPU + "".join(f"{k}: 1\n" for k in unknown))
named = [n.split("): ", 1)[1].split(", ") for n in notes if n.startswith("not read by the chart's templates")]
check("99,990 keys no template reads, each named once", rc == 0 and named == [sorted(unknown)], f"exit {rc}: {err[-300:]!r}")

# ---- Flags ---------------------------------------------------------------------------------------
expect_error("plan --max-jobs 0", ["plan", own, "--max-jobs", "0"], "--max-jobs expects a whole number of at least 1")
expect_error("plan --tolerance inf", ["plan", own, "--tolerance", "inf"], "--tolerance: expected a fraction below 1")
expect_error("plan --tolerance 0", ["plan", own, "--tolerance", "0%"], "--tolerance expects a positive fraction")
expect_error("plan --link-threshold 150%", ["plan", own, "--link-threshold", "150%"], "--link-threshold expects a fraction in (0, 100%]")
expect_error("plan --vary on an array", ["plan", own, "--vary", "/workload/modules"],
             "--vary /workload/modules: expected a positive whole number or a duration there, got an array")
expect_error("plan --vary a duration of a day", ["plan", own, "--vary", "/platform/site_uplink/latency", "--set",
                                                 "/platform/site_uplink/latency=1d"], "/platform/site_uplink/latency")
expect_error("plan --vary and --max-jobs", ["plan", own, "--vary", "/workload/jobs", "--max-jobs", "3"],
             "with --vary, bound it with --max")
expect_error("plan --max-servers without --devices", ["plan", own, "--max-servers", "3"], "--group and --max-servers go with --devices")
expect_error("plan --devices --max-servers 0", ["plan", own, "--devices", "--max-servers", "0"],
             "--max-servers expects a whole number of at least 1")
expect_error("analytic for 0 jobs", ["analytic", own, "--jobs", "0"], "--jobs expects job counts of at least 1")
expect_error("analytic for -3 jobs", ["analytic", own, "--jobs", "-3"], "--jobs expects job counts of at least 1")
expect_error("run --seed -1", ["run", own, "--seed", "-1"], "--seed expects a whole number")
expect_error("run --latency-quantile nan", ["run", own, "--latency-quantile", "nan"], "--latency-quantile expects")
expect_error("sweep --jobs 1e9", ["sweep", own, "--output", os.path.join(WORK, "s2"), "--set", "/workload/jobs=1,2", "--jobs", "1000000000"],
             "--jobs expects")
sweep_flags = ["sweep", own, "--output", os.path.join(WORK, "s3"), "--set", "/workload/jobs=1,2"]
expect_error("sweep --executor ssh", sweep_flags + ["--executor", "ssh"], "--executor expects local or slurm")
expect_error("sweep --partition without slurm", sweep_flags + ["--partition", "cpu"], "--partition is for --executor slurm")
expect_error("sweep on slurm --time 2h", sweep_flags + ["--executor", "slurm", "--time", "2h"],
             "--time expects a Slurm time limit")
expect_error("sweep on slurm --points-per-task 0", sweep_flags + ["--executor", "slurm", "--points-per-task", "0"],
             "--points-per-task expects at least 1")
expect_error("sweep on slurm --partition empty", sweep_flags + ["--executor", "slurm", "--partition", ""],
             "--partition expects a partition name (one word, not starting with -), got \"\"")
expect_error("sweep on slurm --partition swallowing an option", sweep_flags + ["--executor", "slurm", "--partition", "--no-wait"],
             "--partition expects a partition name")
expect_error("sweep on slurm --account -x", sweep_flags + ["--executor", "slurm", "--account", "-x"], "--account expects")
expect_error("sweep on slurm --time empty", sweep_flags + ["--executor", "slurm", "--time", ""], "--time expects a Slurm time limit")
expect_error("sweep on slurm --array-parallelism 0", sweep_flags + ["--executor", "slurm", "--array-parallelism", "0"],
             "--array-parallelism expects at least 1")
os.makedirs(os.path.join(WORK, "bad-sweep"), exist_ok=True)
expect_error("sweep --collect of no sweep", ["sweep", "--collect", os.path.join(WORK, "bad-sweep")],
             "holds no sweep (no sweep.json)")
write(os.path.join("bad-sweep", "sweep.json"), {"scenario": own, "scenario_fnv1a": "0", "axes": [{"pointer": "/x", "values": 3}]})
expect_error("sweep --collect of a broken sweep.json", ["sweep", "--collect", os.path.join(WORK, "bad-sweep")],
             "sweep.json: /axes/0/values: ")
expect_error("sweep --slurm-task outside Slurm", ["sweep", "--slurm-task", os.path.join(WORK, "bad-sweep")],
             "SLURM_ARRAY_TASK_ID is not set")
expect_error("unknown command with an escape", ["\x1b[2J"], "unknown command \"\\x1B[2J\"")

# ---- Output integrity ----------------------------------------------------------------------------
expect_error("perf CSV on a full disk", ["run", perf, "--quiet", "--set", "/perf_analyzer/concurrency=[1]", "--perf-csv", "/dev/full"],
             "/dev/full: cannot write: No space left on device", code=1)
full_dir = os.path.join(WORK, "full")
os.makedirs(full_dir, exist_ok=True)
os.symlink("/dev/full", os.path.join(full_dir, "events.csv"))
expect_error("events.csv on a full disk", ["run", own, "--quiet", "--output", full_dir], "events.csv: cannot write: No space left",
             code=1)
def awkward_names(s):
    s["models"]['a,"b"'] = s["models"].pop("m")
    s["platform"]["servers"][0]["models"] = ['a,"b"']
    s["workload"]["modules"][1].update({"model": 'a,"b"', "name": 'ml, "quoted"'})
    s["simulation"]["outputs"] = ["requests", "batches"]
names_dir = os.path.join(WORK, "names")
rc, _, err = run(["run", scenario("names", awkward_names), "--quiet", "--output", names_dir])
rows = list(csv.reader(open(os.path.join(names_dir, "requests.csv")))) if rc == 0 else []
batches = list(csv.reader(open(os.path.join(names_dir, "batches.csv")))) if rc == 0 else []
check("names with commas and quotes are quoted in CSV", rc == 0 and len(rows) > 1 and
      all(len(r) == len(rows[0]) for r in rows) and rows[1][3] == 'ml, "quoted"' and rows[1][4] == 'a,"b"' and
      all(len(r) == len(batches[0]) for r in batches) and batches[1][2] == 'a,"b"', f"exit {rc}: {err[:200]!r} {rows[:2]}")

# A sweep resumes past a point file cut short, and its points die with it.
sweep_dir = os.path.join(WORK, "resume")
rc, _, err = run(["sweep", own, "--quiet", "--output", sweep_dir, "--set", "/workload/jobs=1,2,3"])
point = os.path.join(sweep_dir, "points", "000001.json")
open(point, "w").write(open(point).read()[:40])
rc, _, err = run(["sweep", own, "--quiet", "--output", sweep_dir, "--set", "/workload/jobs=1,2,3"])
table = list(csv.DictReader(open(os.path.join(sweep_dir, "sweep.csv")))) if rc == 0 else []
check("a truncated point file is run again", rc == 0 and [r["status"] for r in table] == ["ok"] * 3, f"exit {rc}: {err[:300]!r}")
slow = scenario("slow", lambda s: s["workload"].update({"jobs": 8, "events_per_job": 20000}))
proc = subprocess.Popen([SONICSIM, "sweep", slow, "--quiet", "--output", os.path.join(WORK, "killed"), "--jobs", "2",
                         "--set", "/simulation/seed=1:4:1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(2)
def stat_fields(pid):
    """/proc/PID/stat split, or None for a process that has gone meanwhile (listing and reading race)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()
    except OSError:
        return None
children = [p for p in os.listdir("/proc") if p.isdigit() and (stat_fields(p) or [None] * 4)[3] == str(proc.pid)]
proc.kill()
proc.wait()
time.sleep(1)
alive = [p for p in children if (stat_fields(p) or [None, None, "Z"])[2] != "Z"]
check("a sweep's points die with it", len(children) == 2 and not alive, f"children {children}, alive after the kill {alive}")

finish()
