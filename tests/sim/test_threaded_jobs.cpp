// Jobs with threads and streams (a CMSSW process: numberOfThreads, numberOfStreams) against closed
// forms. One job on a node with spare cores; per event t_cpu of CPU, then one request whose round
// trip is L with no contention: the server's GPU is shared with kernel_overlap 1 by more instances
// than there are streams, so every kernel takes its own latency whatever else runs. With CM02, no
// TCP window and factors 1 (test_simulation.cpp), L = kernel + 2 x route latency + bytes / bottleneck.
//
// With S streams on T threads and an ExternalWork call, a thread is busy t_cpu per event and a
// stream needs t_cpu + L per event, so the job completes events at
//   rate = min(T / t_cpu, S / (t_cpu + L))
// (threads saturated, or every stream in its own cycle), and its CPU efficiency is the busy share of
// its threads: rate x t_cpu / T. A blocking call holds the thread through L: rate = min(S, T) / (t_cpu + L).
// Rates are measured in the steady state, from two runs of N and 2N events: the start-up (streams
// queueing for threads at t = 0) and the last events' tail are the same in both and cancel out.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "analysis/invariants.hpp"
#include "analysis/summary/summary.hpp"
#include "tests/sim/failure_farm.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

constexpr double kCpu = 0.1;  // t_cpu, s
// The base scenario's route (worker NIC, site uplink, WAN, server NIC) both ways, and 4 bytes each
// way over the 1 Gbps site uplink.
constexpr double kRoundTrip = 2 * (10e-6 + 100e-6 + 1e-3 + 10e-6) + 8 / (1e9 / 8);
// Relative tolerance: streams that send at the same instant share the uplink, so their 4-byte
// messages take up to S x 32 ns instead of 32 ns each way; under 1e-6 of the 0.1 to 1 s cycles.
constexpr double kEpsilon = 1e-6;

double call_latency(double kernel_s) { return kernel_s + kRoundTrip; }

// One job of `threads` threads and `streams` streams on a 16-core node; per event kCpu of CPU and
// one call whose kernel takes `kernel_s`. `external_work`: the call frees the stream's thread.
json threaded_job(int threads, int streams, double kernel_s, bool external_work, int events) {
  json d = test::base_scenario();
  d["platform"]["worker_pools"][0]["cores_per_node"] = 16;
  d["platform"]["servers"][0]["kernel_overlap"] = 1;
  auto& m = d["models"]["m"];
  m["input_bytes_per_item"] = "4B";
  m["output_bytes_per_item"] = "4B";
  m["max_batch_size"] = 1;
  m["instances_per_gpu"] = 64;
  m["kernel_latency"] = {{"type", "affine"}, {"intercept", std::to_string(kernel_s) + "s"}, {"per_item", "0s"}};
  auto& w = d["workload"];
  w["events_per_job"] = events;
  if (threads > 0) w["threads"] = threads;
  if (streams > 0) w["streams"] = streams;
  w["modules"][0]["time"] = std::to_string(kCpu) + "s";
  auto& ml = w["modules"][1];
  ml["preprocess"] = "0s";
  ml["items_per_event"] = 1;
  ml["items_per_request"] = 1;
  ml["external_work"] = external_work;
  return d;
}

struct SteadyState {
  double events_per_s = 0, cpu_efficiency = 0;
};

// The job's steady-state rate and CPU efficiency from runs of N and 2N events, N a multiple of the
// streams so that both end on the same phase of the streams' cycle.
SteadyState steady_state(int threads, int streams, double kernel_s, bool external_work) {
  const int n = 24 * streams;
  const auto run = [&](int events) {
    const SimulationResults r =
        test::simulate_isolated(test::parse(threaded_job(threads, streams, kernel_s, external_work, events)));
    REQUIRE(r.jobs.size() == 1);
    REQUIRE(r.jobs[0].events == events);
    // Every event's CPU, and nothing else, kept a thread busy.
    CHECK(r.jobs[0].busy_thread_s == doctest::Approx(events * kCpu).epsilon(1e-9));
    return r.jobs[0];
  };
  const JobRecord once = run(n), twice = run(2 * n);
  const double wall = (twice.end_s - twice.start_s) - (once.end_s - once.start_s);
  return {n / wall, (twice.busy_thread_s - once.busy_thread_s) / (threads * wall)};
}

double external_work_rate(int threads, int streams, double latency_s) {
  return std::min(threads / kCpu, streams / (kCpu + latency_s));
}

}  // namespace

TEST_CASE("a job with one thread and one stream runs exactly as a single-threaded job") {
  // Drawn times and items, several jobs sharing the server: every record must be the same, draw for
  // draw (stream 0 draws from the job's own random streams).
  json d = test::base_scenario();
  d["platform"]["worker_pools"][0]["nodes"] = 3;
  d["workload"]["jobs"] = 3;
  d["workload"]["events_per_job"] = 6;
  d["workload"]["modules"][0]["time"] = {{"distribution", "exponential"}, {"mean", "50ms"}};
  d["workload"]["modules"][1]["items_per_event"] = {{"distribution", "poisson"}, {"mean", 400}};
  d["simulation"]["outputs"] = {"requests", "batches"};
  const SimulationResults single = test::simulate_isolated(test::parse(d));
  d["workload"]["threads"] = 1;
  const SimulationResults threaded = test::simulate_isolated(test::parse(d));
  CHECK_FALSE(single.header.threaded);
  CHECK(threaded.header.threaded);
  REQUIRE(single.events.size() == 18);
  REQUIRE(threaded.events.size() == single.events.size());
  for (std::size_t i = 0; i < single.events.size(); ++i) {
    const EventRecord &a = single.events[i], &b = threaded.events[i];
    INFO("event " << i);
    CHECK(a.job == b.job);
    CHECK(a.event == b.event);
    CHECK(a.start_s == b.start_s);
    CHECK(a.end_s == b.end_s);
    CHECK(a.cpu_s == b.cpu_s);
    CHECK(a.inference_s == b.inference_s);
    CHECK(a.queue_s == b.queue_s);
    CHECK(a.requests == b.requests);
    CHECK(b.thread_wait_s == 0);
  }
  REQUIRE(threaded.requests.size() == single.requests.size());
  for (std::size_t i = 0; i < single.requests.size(); ++i) {
    CHECK(threaded.requests[i].items == single.requests[i].items);
    CHECK(threaded.requests[i].received_s == single.requests[i].received_s);
    CHECK(threaded.requests[i].batch == single.requests[i].batch);
  }
}

TEST_CASE("T threads, T streams and blocking calls: each stream runs as one single-threaded job does") {
  // 4 single-threaded jobs on 4 cores, against one job of 4 threads and 4 streams; each stream's
  // events start and end when the corresponding job's do (times are constant here, so the draws'
  // streams do not matter).
  constexpr int kThreads = 4, kEvents = 5;
  json singles = threaded_job(0, 0, 0.3, false, kEvents);
  singles["workload"]["jobs"] = kThreads;
  singles["workload"]["modules"][1].erase("external_work");
  const SimulationResults jobs = test::simulate_isolated(test::parse(singles));
  const SimulationResults streams =
      test::simulate_isolated(test::parse(threaded_job(kThreads, kThreads, 0.3, false, kThreads * kEvents)));
  REQUIRE(jobs.events.size() == streams.events.size());
  for (int s = 0; s < kThreads; ++s) {
    std::vector<const EventRecord*> of_job, of_stream;
    for (const EventRecord& e : jobs.events)
      if (e.job == s) of_job.push_back(&e);
    for (const EventRecord& e : streams.events)
      if (e.stream == s) of_stream.push_back(&e);
    REQUIRE(of_stream.size() == of_job.size());
    for (std::size_t k = 0; k < of_job.size(); ++k) {
      CHECK(of_stream[k]->start_s == doctest::Approx(of_job[k]->start_s));
      CHECK(of_stream[k]->end_s == doctest::Approx(of_job[k]->end_s));
      // Closed form: event k of every stream ends at (k + 1)(t_cpu + L).
      CHECK(of_stream[k]->end_s == doctest::Approx((k + 1) * (kCpu + call_latency(0.3))).epsilon(kEpsilon));
    }
  }
  // Blocked threads are not busy: the efficiency is t_cpu / (t_cpu + L).
  const Summary summary = summarize(streams);
  REQUIRE(summary.job_threads.has_value());
  CHECK(summary.job_threads->cpu_efficiency == doctest::Approx(kCpu / (kCpu + call_latency(0.3))).epsilon(kEpsilon));
  CHECK(summary.job_threads->events_per_s_mean ==
        doctest::Approx(kThreads / (kCpu + call_latency(0.3))).epsilon(kEpsilon));
}

TEST_CASE("S streams on T threads with ExternalWork: rate = min(T / t_cpu, S / (t_cpu + L))") {
  struct Point {
    int threads, streams;
    double kernel_s;
  };
  // Latency-bound (S / (t_cpu + L) below T / t_cpu), CPU-bound, one thread, and both close to the
  // boundary; streams below, at and above the threads.
  for (const Point& p : {Point{4, 4, 0.3}, Point{4, 8, 0.3}, Point{4, 2, 0.3}, Point{2, 3, 0.3}, Point{1, 8, 0.3},
                         Point{2, 8, 0.3}, Point{3, 5, 0.05}, Point{2, 7, 0.13}, Point{4, 16, 0.9}}) {
    const double latency = call_latency(p.kernel_s);
    const double expected = external_work_rate(p.threads, p.streams, latency);
    INFO(p.threads << " threads, " << p.streams << " streams, L = " << latency << " s: expected " << expected
                   << " events/s");
    const SteadyState measured = steady_state(p.threads, p.streams, p.kernel_s, true);
    CHECK(measured.events_per_s == doctest::Approx(expected).epsilon(kEpsilon));
    CHECK(measured.cpu_efficiency == doctest::Approx(expected * kCpu / p.threads).epsilon(kEpsilon));
  }
}

TEST_CASE("a blocking call holds its thread: more streams than threads do not help") {
  // 8 streams on 4 threads: 4 events in flight at a time, rate 4 / (t_cpu + L), where ExternalWork
  // would reach min(40, 8 / (t_cpu + L)).
  const double latency = call_latency(0.3);
  const SteadyState blocking = steady_state(4, 8, 0.3, false);
  CHECK(blocking.events_per_s == doctest::Approx(4 / (kCpu + latency)).epsilon(kEpsilon));
  CHECK(external_work_rate(4, 8, latency) > 1.9 * blocking.events_per_s);
}

TEST_CASE("CPU efficiency falls as L grows while streams <= threads, and stays at 1 with enough streams") {
  // S = T = 4: efficiency t_cpu / (t_cpu + L). Streams enough to cover the call, S >= T (t_cpu + L) / t_cpu:
  // the threads never idle, efficiency 1.
  double previous = 1.0;
  for (double kernel_s : {0.0, 0.1, 0.3, 0.9}) {
    const double latency = call_latency(kernel_s);
    INFO("L = " << latency << " s");
    const SteadyState few = steady_state(4, 4, kernel_s, true);
    const double expected = kCpu / (kCpu + latency);
    CHECK(few.cpu_efficiency == doctest::Approx(expected).epsilon(kEpsilon));
    CHECK(few.cpu_efficiency < previous);
    previous = few.cpu_efficiency;
    const int enough = static_cast<int>(std::ceil(4 * (kCpu + latency) / kCpu));
    const SteadyState many = steady_state(4, enough, kernel_s, true);
    CHECK(many.cpu_efficiency == doctest::Approx(1.0).epsilon(kEpsilon));
    CHECK(many.events_per_s == doctest::Approx(4 / kCpu).epsilon(kEpsilon));
  }
}

TEST_CASE("a batch system gives a job of T threads T cores of one node") {
  // A 5-core node holds two jobs of 2 threads (its fifth core holds none). CPU only: each job runs 4
  // events of 1 s on 2 streams, 2 s in all, so jobs 0 and 1 run over [0, 2] s and jobs 2 and 3 over
  // [2, 4] s, each at 2 events/s with its threads always busy.
  json d = test::base_scenario();
  d["platform"]["worker_pools"][0]["cores_per_node"] = 5;
  d["platform"]["servers"] = json::array();
  d["workload"] = {{"jobs", 4},
                   {"events_per_job", 4},
                   {"threads", 2},
                   {"submit", {{"pattern", "all_at_once"}}},
                   {"modules", json::array({{{"type", "cpu"}, {"name", "reco"}, {"time", "1s"}}})}};
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  REQUIRE(r.jobs.size() == 4);
  for (int j = 0; j < 4; ++j) {
    const JobRecord& job = r.jobs[static_cast<std::size_t>(j)];
    INFO("job " << j);
    CHECK(job.threads == 2);
    CHECK(job.start_s == doctest::Approx(j < 2 ? 0.0 : 2.0));
    CHECK(job.end_s == doctest::Approx(j < 2 ? 2.0 : 4.0));
    CHECK(job.busy_thread_s == doctest::Approx(4.0));
  }
  const Summary summary = summarize(r);
  REQUIRE(summary.jobs.has_value());
  CHECK(summary.jobs->slot_occupancy == doctest::Approx(4 * 2 * 2.0 / (5 * 4.0)));  // 16 core-seconds held
  REQUIRE(summary.job_threads.has_value());
  CHECK(summary.job_threads->events_per_s_mean == doctest::Approx(2.0));
  CHECK(summary.job_threads->cpu_efficiency == doctest::Approx(1.0));
}

TEST_CASE("a stream that fails the job stops the job's other streams") {
  // The failure farm's s0 dies at T = 505.5 ms; one job of 2 threads and 4 streams on one node talks
  // to it alone (per_job, job 0). Its first request that fails ends the job: the other streams stop
  // where they are, their requests are cancelled and their events are lost with the job's.
  json d = test::failure_farm(1000, "per_job");
  d["platform"]["worker_pools"][0]["nodes"] = 1;
  d["platform"]["worker_pools"][0]["cores_per_node"] = 2;
  d["workload"]["jobs"] = 1;
  d["workload"]["threads"] = 2;
  d["workload"]["streams"] = 4;
  test::ml_module(d)["external_work"] = true;
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  REQUIRE(r.jobs.size() == 1);
  const JobRecord& job = r.jobs[0];
  CHECK(job.outcome == JobOutcome::Failed);
  CHECK(r.failures.value().jobs_failed == 1);
  // Two threads, 10 ms of CPU per event: two streams send every 10 ms and s0 serves their requests
  // in [10k, 10k + 2] ms, then idles. At T = 505.5 ms it holds none; the two requests sent at 510 ms
  // find it down and the first fails the job there.
  CHECK(job.end_s == doctest::Approx(0.510).epsilon(1e-6));
  CHECK(r.failures.value().events_lost == job.events);
  CHECK(r.failures.value().cpu_lost_s == doctest::Approx(2 * job.end_s));  // both cores, for the job's whole run
  CHECK(job.busy_thread_s <= 2 * job.end_s);
  // 10 ms of CPU per completed event, and part of one more per stream (the events under way).
  CHECK(job.busy_thread_s >= doctest::Approx(job.events * 0.010));
  CHECK(job.busy_thread_s <= doctest::Approx((job.events + 4) * 0.010));
  test::check_conservation(r);
  CHECK(r.events_incomplete == 0);
  CHECK(first_invariant_violation(r, false).empty());
}
