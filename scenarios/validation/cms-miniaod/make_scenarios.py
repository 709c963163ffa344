#!/usr/bin/env python3
"""Writes the CMS Mini-AOD validation scenarios (this folder) from the imported data, so no number is typed.

    python3 scenarios/validation/cms-miniaod/make_scenarios.py [--check]

Every scenario is one NVIDIA T4 server serving one model (or, for the cross-site scans, all of them) to
4-threaded CMSSW jobs; docs/validation-sources.md §1 states the setup numbers and the numbered assumptions
each value below follows. Read from the data:

- the CPU-only per-job rate (cpu_only_references.csv: 3.88 events/s on GCP, 4.17 at Purdue) sets a stream's
  CPU time per event, 4 threads / rate (assumption 8);
- that time is split between modules in the draft's proportions (paper_setup.csv: 993.3 ms in all, ParticleNet
  62.1 ms, DeepMET 13.2, DeepTau 21.1); ParticleNet's 62.1 ms is shared between AK4 and the three AK8 models in
  the ratio of their stated input rates, 140 kB/s to 3 x 10 kB/s (the only per-version number the draft gives);
- items per event: Poisson of the stated mean jets (17.5 AK4, 0.5 AK8, assumption 5); DeepMET one per event;
  DeepTau the stated 1.18 MB per event over one tau's bytes (Poisson, assumption 12);
- request bytes from the production tensor shapes (assumption 7);
- the kernel time per execution and the server frontend from the scans
  (calibration/models/cms-miniaod-t4/fit_executions.py: the knee form, frontend.json).

A job is a CMSSW process of 4 threads and 4 streams (the workload's `threads`), its SONIC modules ExternalWork
(`external_work`), one job per 4-core node (assumption 13). In the cross-site scenarios, which serve all six models,
the event is a module graph: each SONIC module waits for the CPU work (`after`), not for the others, as the
producers' consumes in CMSSW say (assumption 16, SONIC_AFTER below); so does the ParticleNet AK8 scenario, whose three
SONIC modules read one tag-info collection. The scenarios of one SONIC module keep the chain, which for one module
after the CPU work is the same order. THREADED = False writes the form used before the
simulator had threaded jobs: 4 single-core jobs ("streams") per node, which run_suite.py sums per node.

What the sources leave open is declared, not chosen (declared unknowns, each with its source in "why";
`sonicsim run` propagates them): the frontend's threads, whether the DeepMET and DeepTau servers batched, the
AK4 kernel per scanned jet or per padded element, the AK4 jets per event, the kernel fits' own bootstrap band,
and the round trip to GCP Iowa of the cross-site scan (docs/validation-sources.md §1, "declared unknowns").
--check regenerates into memory and exits 1 where a committed file differs.
"""
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "cms-miniaod")
CALIBRATION = "../../../calibration/models/cms-miniaod-t4"
FRONTEND = os.path.join(HERE, "..", "..", "..", "calibration", "models", "cms-miniaod-t4", "frontend.json")
THREADS = 4
EVENTS_PER_JOB = 1000  # assumption 6
# CMSSW jobs as the simulator's threaded jobs (workload threads, modules external_work), or each stream a
# single-core job of its own (assumption 13).
THREADED = True
CPU_SPREAD = 0.5  # assumption 11: standard deviation / mean of a stream's CPU time per event


def rows(name):
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


SETUP = {r["quantity"]: r["value"] for r in rows("paper_setup.csv")}
CPU_ONLY = {r["figure"].split(" ")[0]: float(r["events_per_s"]) for r in rows("cpu_only_references.csv")}


def setup(quantity):
    return float(SETUP[quantity])


def fp32(name, *dims):
    return {"name": name, "data_type": "TYPE_FP32", "dims": list(dims)}


def particlenet_inputs(particles, vertices):
    return [fp32("pf_points", 2, particles), fp32("pf_features", 20, particles), fp32("pf_mask", 1, particles),
            fp32("sv_points", 2, vertices), fp32("sv_features", 11, vertices), fp32("sv_mask", 1, vertices)]


DEEPTAU_INPUTS = [fp32("input_tau", 43), fp32("input_inner_egamma", 11, 11, 86), fp32("input_inner_muon", 11, 11, 64),
                  fp32("input_inner_hadrons", 11, 11, 38), fp32("input_outer_egamma", 21, 21, 86),
                  fp32("input_outer_muon", 21, 21, 64), fp32("input_outer_hadrons", 21, 21, 38)]
DEEPTAU_TAU_BYTES = 4 * sum(d["dims"][0] if len(d["dims"]) == 1 else d["dims"][0] * d["dims"][1] * d["dims"][2]
                            for d in DEEPTAU_INPUTS)


def model(inputs, outputs, max_batch, latency_file):
    return {"input": inputs, "output": outputs, "max_batch_size": max_batch, "dynamic_batching": {},
            "instances_per_device": 1,
            "kernel_latency_by_device": {"T4": {"type": "calibrated", "file": f"{CALIBRATION}/{latency_file}",
                                                "form": "knee"}}}


MODELS = {  # assumption 1 (max batch), 7 (fp32 production shapes)
    "particlenet_ak4": model(particlenet_inputs(int(setup("ak4_padding_particles")), int(setup("ak4_padding_vertices"))),
                             [fp32("softmax", 8)], 256, "nvidia-t4_particlenet-ak4_pytorch_executions.json"),
    **{f"particlenet_ak8_{v}": model(particlenet_inputs(int(setup("ak8_padding_particles")),
                                                        int(setup("ak8_padding_vertices"))),
                                     [fp32("softmax", 8)], 128, "nvidia-t4_particlenet-ak8_pytorch_executions.json")
       for v in ("tagger", "massdecorrelated", "massregression")},
    "deepmet": model([fp32("input", int(setup("deepmet_padding_candidates")), 8)] +
                     [fp32(f"input_cat{i}", int(setup("deepmet_padding_candidates")), 1) for i in range(3)],
                     [fp32("output", 2)], 512, "nvidia-t4_deepmet_tensorflow_executions.json"),
    "deeptau": model(DEEPTAU_INPUTS, [fp32("main_output", 4)], 512, "nvidia-t4_deeptau_tensorflow-trt_executions.json"),
}


def module_shares():
    """CPU time of each offloaded module as a fraction of the CPU-only event."""
    total, pn = setup("cpu_only_event_time"), setup("particlenet_cpu_time")
    ak4_rate, ak8_rate = setup("ak4_input_rate_per_job"), setup("ak8_input_rate_per_job_per_model")
    ak4 = pn * ak4_rate / (ak4_rate + 3 * ak8_rate)
    shares = {"particlenet_ak4": ak4 / total}
    for v in ("tagger", "massdecorrelated", "massregression"):
        shares[f"particlenet_ak8_{v}"] = (pn - ak4) / 3 / total
    shares["deepmet"] = setup("deepmet_cpu_time") / total
    shares["deeptau"] = setup("deeptau_cpu_time") / total
    return shares


def items(name):
    if name == "particlenet_ak4":  # the draft's two figures: "about 16" typical (04:54), 17.5 on average (04:40)
        return {"distribution": "poisson",
                "mean": {"between": [int(setup("ak4_jets_per_event_typical")), setup("ak4_jets_per_event_mean")],
                         "why": "AK4 jets per event: the draft's 'about 16' typical (04_dataAndalgo.tex line 54) to "
                                "its average 17.5 (line 40)"}}
    if name.startswith("particlenet_ak8"):
        return {"distribution": "poisson", "mean": setup("ak8_jets_per_event_mean")}
    if name == "deepmet":
        return 1
    return {"distribution": "poisson", "mean": round(setup("deeptau_input") * 1e6 / DEEPTAU_TAU_BYTES, 4)}


def seconds(s):
    return f"{s * 1e3:.4f}ms"


# The declared unknowns every scenario has, and those of some models (assumptions 1, 3 and 10).
FRONTEND_THREADS = {"one_of": [2, 4], "why": "threads parsing requests: Triton's gRPC handler threads "
                    "(--grpc-infer-thread-count, default 2), or more where gRPC's own threads share the work; the "
                    "server VM's cores are not stated (04_dataAndalgo.tex line 93, 05_performances.tex line 46)"}
LATENCY_QUANTILE = {"between": [0.005, 0.995], "why": "the kernel fits' own uncertainty: a quantile of each fit's "
                    "bootstrap band (calibration/models/cms-miniaod-t4), drawn uniformly: a draw from the bootstrap's spread"}
BATCHING = {"one_of": [{}, None], "why": "whether the per-N test server batched requests: no Triton configuration is "
            "in either repository, and the draft asks 'What is our batching window?' (05_performances.tex line 25); "
            "ParticleNet's jets are padded so that requests batch (04_dataAndalgo.tex lines 36-38), DeepMET's and "
            "DeepTau's inputs say nothing"}
AK4_KERNEL = {"one_of": [MODELS["particlenet_ak4"]["kernel_latency_by_device"]["T4"],
                         {"type": "calibrated", "file": f"{CALIBRATION}/nvidia-t4_particlenet-ak4_pytorch_per_element.json",
                          "form": "knee"}],
              "why": "the AK4 scans pad each jet to 100 particles + 10 vertices (runner.py), production to 50 + 5 "
                     "(04_dataAndalgo.tex line 36): the kernel time per scanned jet, or per padded element "
                     "(calibration/models/cms-miniaod-t4/README.md)"}


def declare_unknowns(content, served):
    """The scenario with what its sources leave open declared (see the module's docstring)."""
    content["platform"]["servers"][0]["frontend"]["threads"] = FRONTEND_THREADS
    content["simulation"]["latency_quantile"] = LATENCY_QUANTILE
    for m in served:
        model = content["models"][m] = dict(content["models"][m])
        if m in ("deepmet", "deeptau"):
            model["dynamic_batching"] = BATCHING
        if m == "particlenet_ak4":
            model["kernel_latency_by_device"] = {"T4": AK4_KERNEL}
    return content


# What each SONIC producer of the cross-site job consumes (assumption 16), in cms-sw/cmssw: every one reads only
# products of CPU producers of the same Mini-AOD process, none another SONIC module's output, so within one event
# the six calls wait for CPU work and never for each other.
# - ParticleNet AK4 and the three AK8 models: ParticleNetSonicJetTagsProducer (RecoBTag/ONNXRuntime/plugins/
#   ParticleNetSonicJetTagsProducer.cc @ 26aee513968f776a59a836d207afba86e4c9e5cc, the constructor's
#   consumes<TagInfoCollection>(src) and acquire()) reads one tag-info collection, made on the CPU from jets, PF
#   candidates and vertices: AK4 pfParticleNetAK4TagInfos (RecoBTag/ONNXRuntime/python/pfParticleNetAK4_cff.py), the
#   three AK8 models one shared pfParticleNetTagInfos (RecoBTag/ONNXRuntime/python/pfParticleNet_cff.py
#   @ 14a5e2946b3af8876f14bfc189106d193a02e03b, the three particleNetSonicTriton.toReplaceWith: src);
# - DeepMET: DeepMETSonicProducer (RecoMET/METPUSubtraction/plugins/DeepMETSonicProducer.cc
#   @ 2144c405a40eefeab1b149f0a7b810cee52b8e8c, constructor: consumes(pf_src), default packedPFCandidates);
# - DeepTau: DeepTauIdSonicProducer (RecoTauTag/RecoTau/plugins/DeepTauIdSONIC.cc
#   @ 225b1b2841bf638b061efed4bffb1161b48a36f2, acquire(): taus, electrons, muons, PF candidates, vertices, rho).
# The CPU modules are one step here (no per-module timing of the job exists), so every SONIC module waits for all
# of it: the CPU work that could run beside the calls is not separated, which keeps the calls on the critical path.
SONIC_AFTER = ["not-offloaded"]


def scenario(name, description, served, cpu_only_rate, rtt_s):
    """Several SONIC modules form a module graph (assumption 16); one module after the CPU work is a chain."""
    graph = len(served) > 1
    event_s = THREADS / cpu_only_rate
    shares = module_shares()
    rest = event_s * (1 - sum(shares[m] for m in served))
    modules = [{"type": "cpu", "name": "not-offloaded",
                "time": {"distribution": "lognormal", "mean": seconds(rest), "stddev": seconds(CPU_SPREAD * rest)}}]
    for m in served:
        modules.append({"type": "inference", "name": m, "model": m, "items_per_event": items(m),
                        "items_per_request": MODELS[m]["max_batch_size"], "preprocess": "0s", "in_flight": 1,
                        **({"external_work": True} if THREADED else {}),
                        **({"after": SONIC_AFTER} if graph else {}),
                        "cpu_fallback": seconds(event_s * shares[m])})
    with open(FRONTEND, encoding="utf-8") as f:
        frontend = json.load(f)
    one_way = rtt_s / 2
    return {
        "name": name,
        "description": description + " Generated by scenarios/validation/cms-miniaod/make_scenarios.py from "
                       "scenarios/validation/data/cms-miniaod/ and calibration/models/cms-miniaod-t4/; the setup and "
                       "the numbered assumptions are in docs/validation-sources.md §1. "
                       + ("One CMSSW job of 4 threads and 4 streams with ExternalWork SONIC modules per 4-core node: "
                          "run with --set /platform/worker_pools/0/nodes=N --set /workload/jobs=N for N jobs."
                          if THREADED else "One CMSSW job of 4 threads and 4 streams is 4 single-core jobs on one "
                          "4-core node (assumption 13): run with --set /platform/worker_pools/0/nodes=N "
                          "--set /workload/jobs=4N for N jobs."),
        "platform": {
            "worker_pools": [{"name": "clients", "nodes": 1, "cores_per_node": THREADS, "cpu_speed": 1.0,
                              "nic": {"bandwidth": "8Gbps", "latency": seconds(one_way / 5)}}],
            "placement": "fill",
            "site_uplink": {"bandwidth": "100Gbps", "latency": seconds(one_way * 3 / 5)},
            "servers": [{"name": "t4", "count": 1, "devices_per_server": 1, "device": "T4",
                         "nic": {"bandwidth": "32Gbps", "latency": seconds(one_way / 5)},
                         "models": served,
                         "frontend": {"threads": 2, "per_request": frontend["per_request"],
                                      "input_bandwidth": frontend["input_bandwidth"]}}],
            "load_balancing": "per_job"},
        "models": {m: MODELS[m] for m in served},
        "workload": ({"jobs": 1, "threads": THREADS, "streams": THREADS, "events_per_job": EVENTS_PER_JOB}
                     if THREADED else {"jobs": THREADS, "events_per_job": EVENTS_PER_JOB // THREADS}) |
                    {"submit": {"pattern": "all_at_once"}, "modules": modules},
        "simulation": {"seed": 2024, "stack_size": "32KiB", "outputs": ["jobs"]},
    }


def cross_site_gcp(content):
    """The round trip Purdue - GCP Iowa declared around assumption 9's 10 ms, on the site uplink's share."""
    nominal_one_way = 10e-3 / 2
    edges = 2 * nominal_one_way / 5  # the two NICs' shares, kept
    content["platform"]["site_uplink"]["latency"] = {
        "between": [seconds(6e-3 / 2 - edges), seconds(14e-3 / 2 - edges)],
        "why": "round trip Purdue (Indiana) - GCP Iowa, not measured: from 6 ms (light in fibre over some 600 km each "
               "way) to 14 ms (routing detours), around assumption 9's 10 ms"}
    return content


AK8 = [f"particlenet_ak8_{v}" for v in ("tagger", "massdecorrelated", "massregression")]
ALL = ["particlenet_ak4"] + AK8 + ["deepmet", "deeptau"]
SCENARIOS = {
    "particlenet-ak4.json": scenario("cms-miniaod-particlenet-ak4", "ParticleNet AK4 (PyTorch) on one T4, GCP.",
                                     ["particlenet_ak4"], CPU_ONLY["gpu_saturation_scan"], 0.5e-3),
    "particlenet-ak8.json": scenario("cms-miniaod-particlenet-ak8", "The three ParticleNet AK8 models (PyTorch) on one "
                                     "T4, GCP; their SONIC modules wait for the event's CPU work, not for each other "
                                     "(assumption 16).", AK8, CPU_ONLY["gpu_saturation_scan"], 0.5e-3),
    "deepmet.json": scenario("cms-miniaod-deepmet", "DeepMET (TensorFlow) on one T4, GCP.", ["deepmet"],
                             CPU_ONLY["gpu_saturation_scan"], 0.5e-3),
    "deeptau.json": scenario("cms-miniaod-deeptau", "DeepTau (TensorFlow-TensorRT) on one T4, GCP.", ["deeptau"],
                             CPU_ONLY["gpu_saturation_scan"], 0.5e-3),
    "cross-site-purdue.json": scenario("cms-miniaod-cross-site-purdue", "All models on one T4 at Purdue, clients at "
                                       "Purdue; the SONIC modules of an event wait for its CPU work, not for each "
                                       "other (assumption 16).", ALL, CPU_ONLY["cross_site"], 0.5e-3),
    "cross-site-gcp.json": cross_site_gcp(scenario("cms-miniaod-cross-site-gcp", "All models on one T4 at GCP Iowa, "
                                                   "clients at Purdue (10 ms RTT, assumption 9; declared from 6 to 14 "
                                                   "ms); the SONIC modules of an event wait for its CPU work, not for "
                                                   "each other (assumption 16).", ALL, CPU_ONLY["cross_site"], 10e-3)),
}
SERVED = {"particlenet-ak4.json": ["particlenet_ak4"], "particlenet-ak8.json": AK8, "deepmet.json": ["deepmet"],
          "deeptau.json": ["deeptau"], "cross-site-purdue.json": ALL, "cross-site-gcp.json": ALL}
SCENARIOS = {name: declare_unknowns(content, SERVED[name]) for name, content in SCENARIOS.items()}


def main():
    check = "--check" in sys.argv[1:]
    differ = []
    for name, content in SCENARIOS.items():
        text = json.dumps(content, indent=1) + "\n"
        path = os.path.join(HERE, name)
        if check:
            try:
                with open(path, encoding="utf-8") as f:
                    if f.read() != text:
                        differ.append(name)
            except OSError:
                differ.append(name)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    for name in differ:
        print(f"make_scenarios.py: {name} differs from what the data give", file=sys.stderr)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
