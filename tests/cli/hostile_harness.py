"""What the hostile-input catalogues share: running sonicsim within time and memory bounds, checking
that it ends in the promised one-line error, and the small scenario their cases edit. Imported by
hostile_input.py (scenarios) and hostile_files.py (other inputs, flags and outputs), which take
    SONICSIM REPOSITORY_ROOT
as their arguments.
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
# A guard against hangs, not a speed check: sanitized builds run some ten times slower (a report of
# 100,000 modules takes ~10 s in a release build).
TIME_LIMIT_S = 300 if os.environ.get("SONICSIM_SANITIZED") else 60
# Address space for one sonicsim process. Sanitizer builds reserve terabytes of shadow memory, so
# the bound applies to ordinary builds only.
MEMORY_LIMIT = None if os.environ.get("SONICSIM_SANITIZED") else 8 << 30

failures = []
passed = 0


def limit_memory():
    if MEMORY_LIMIT:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    os.setsid()


# ASan warns once per process when C++ unwinds across a SimGrid actor's stack, which it cannot see
# SimGrid switch to; the warning is not a finding and not sonicsim's output.
ASAN_STACK_WARNING = ("WARNING: ASan is ignoring requested __asan_handle_no_return", "False positive error reports may follow",
                      "For details see https://github.com/google/sanitizers/issues/189")


def without_sanitizer_notes(text):
    return "".join(line for line in text.splitlines(keepends=True) if not any(w in line for w in ASAN_STACK_WARNING))


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
    return proc.returncode, out.decode("utf-8", "replace"), without_sanitizer_notes(err.decode("utf-8", "replace"))


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


def bad_scenario(name, edit, *expected, code=2, extra=(), file=None):
    """`file`: the file the error names, when it is not the scenario (a model file, a config.pbtxt)."""
    path = scenario(name, edit)
    expect_error(name, ["run", path, "--quiet"] + list(extra), file or f"{name}.json: ", *expected, code=code)


def setter(pointer, value):
    """An edit setting the value at a JSON pointer (list indices as ints)."""
    def edit(s):
        keys = [int(k) if k.isdigit() else k for k in pointer.strip("/").split("/")]
        target = s
        for k in keys[:-1]:
            target = target[k]
        target[keys[-1]] = value
    return edit


def finish():
    """The catalogue's verdict: a line of counts, and exit code 1 if any case failed."""
    print(f"{passed} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)
