// Server failures and what clients do about them, against timelines worked out by hand.
//
// The farm of most tests: 4 jobs, one per node, each event 10 ms of CPU then one request of one
// item; two servers s0 and s1 with one GPU, one instance and Triton's default scheduler, so each
// serves one request at a time, in 1 ms. The network is negligible (1 ns latencies, 100 Gbps,
// 100-byte messages: nanoseconds against milliseconds). Under per_job, jobs 0 and 2 talk to s0 and
// jobs 1 and 3 to s1. Jobs 0 and 2 send together at 10 ms; s0 serves job 0 over [10, 11] ms and job
// 2 over [11, 12] ms; from then on each of the two repeats every 11 ms: job 0's event k runs its
// request over [11k + 10, 11k + 11] ms, job 2's over [11k + 11, 11k + 12] ms.
//
// s0 dies at T = 505.5 ms: job 0's event 45 is on the GPU (its request fails there), job 2 is in the
// CPU step of its event 45 and sends it at 506 ms, to a dead s0. Both jobs completed 45 events.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "tests/support/records_json.hpp"
#include "tests/support/support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

constexpr double kFailAt = 0.5055;
constexpr int kEventsBefore = 45;  // events jobs 0 and 2 complete before s0 dies

json failure_farm(int events_per_job, const std::string& policy) {
  json d = test::base_scenario();
  const json link = {{"bandwidth", "100Gbps"}, {"latency", "1ns"}};
  d["platform"]["worker_pools"][0].update({{"nodes", 4}, {"cores_per_node", 1}, {"nic", link}});
  d["platform"]["site_uplink"] = link;
  d["platform"]["wan"] = link;
  d["platform"]["load_balancing"] = policy;
  d["platform"]["servers"] = json::array();
  for (const char* name : {"s0", "s1"})
    d["platform"]["servers"].push_back(
        {{"name", name}, {"count", 1}, {"gpus_per_server", 1}, {"gpu", "T4"}, {"nic", link}, {"models", {"m"}}});
  d["platform"]["servers"][0]["failures"] = {{"at", {"505.5ms"}}};
  d["models"]["m"] = {{"input_bytes_per_item", "100B"},
                      {"output_bytes_per_item", "100B"},
                      {"max_batch_size", 8},
                      {"instances_per_gpu", 1},
                      {"kernel_latency", {{"type", "affine"}, {"intercept", "1ms"}, {"per_item", "0s"}}}};
  d["workload"] = {{"jobs", 4},
                   {"events_per_job", events_per_job},
                   {"start", {{"pattern", "all_at_once"}}},
                   {"modules",
                    {{{"type", "cpu"}, {"name", "reco"}, {"time", "10ms"}},
                     {{"type", "inference"}, {"name", "ml"}, {"model", "m"}, {"items_per_event", 1},
                      {"items_per_request", 1}, {"preprocess", "0s"}, {"in_flight", 1}, {"cpu_fallback", "5ms"}}}}};
  d["simulation"]["outputs"] = {"requests", "events"};
  return d;
}

json& ml_module(json& d) { return d["workload"]["modules"][1]; }

std::int64_t count_requests(const SimulationResults& r, RequestStatus status, int server) {
  return std::count_if(r.requests.begin(), r.requests.end(),
                       [&](const RequestRecord& q) { return q.status == status && q.server == server; });
}

double last_event_end(const SimulationResults& r, int job) {
  double end = 0;
  for (const EventRecord& e : r.events)
    if (e.job == job) end = std::max(end, e.end_s);
  return end;
}

void check_conservation(const SimulationResults& r) {
  CHECK(r.requests_sent == r.requests_completed + r.requests_failed() + r.requests_rejected);
  CHECK(r.requests_in_flight_at_end == 0);
}

// s0 fails at T and is repaired `repair` later; the modules fall back while it is down.
SimulationResults simulate_repaired(int events_per_job, const std::string& repair) {
  json d = failure_farm(events_per_job, "per_job");
  d["platform"]["servers"][0]["failures"]["repair"] = repair;
  ml_module(d)["on_failure"] = "fallback";
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  check_conservation(r);
  CHECK(r.server_restarts == 1);
  return r;
}

}  // namespace

TEST_CASE("a failing server fails each request it holds once; fail_job ends those jobs") {
  const SimulationResults r = test::simulate_isolated(test::parse(failure_farm(100, "per_job")));
  check_conservation(r);
  // Job 0's request on the GPU at T, and job 2's sent to the dead server: one each, UNAVAILABLE.
  CHECK(r.requests_failed_unavailable == 2);
  CHECK(r.requests_failed() == 2);
  CHECK(r.jobs_failed == 2);
  CHECK(r.events_lost == 2 * kEventsBefore);
  // Job 0 fails at T, job 2 at 506 ms (its send; the refusal comes back in nanoseconds).
  CHECK(r.cpu_lost_s == doctest::Approx(kFailAt + 0.506).epsilon(1e-6));
  std::int64_t failed_on_s0 = 0;
  for (const RequestRecord& q : r.requests)
    if (q.status == RequestStatus::Failed) {
      CHECK(q.server == 0);
      CHECK(q.failure == FailureCause::Unavailable);
      CHECK((q.job == 0 || q.job == 2));
      CHECK(q.event == kEventsBefore);
      ++failed_on_s0;
    }
  CHECK(failed_on_s0 == 2);
  CHECK(r.events.size() == 2 * 100 + 2 * kEventsBefore);
  // s0's GPU: 2 ms in every 11 ms for 45 periods, then job 0's kernel from 505 ms until it is
  // killed at T. A kernel left running would count until 506 ms. (The network's nanoseconds shift
  // the kernels by about 2 us over the 46 periods.)
  CHECK(r.gpus[0].busy_s == doctest::Approx(2 * kEventsBefore * 0.001 + 0.0005).epsilon(1e-4));
  CHECK(r.server_failures == 1);
  CHECK(r.server_restarts == 0);
}

TEST_CASE("a failing server fails the requests its frontend threads hold, parsing or waiting, once each") {
  // s0's one handler thread parses a request in 4 ms and then serialises its (costless) response,
  // so s0 serves jobs 0 and 2 in 18 ms cycles; in the one from 496 ms, job 0's request is parsed
  // over [496, 500] ms and job 2's, sent at 497 ms, waits for the thread. s0 dies at 498.5 ms:
  // both fail then, once, UNAVAILABLE, without reaching the scheduler; s1 (no frontend) never fails.
  constexpr double kFrontendFailAt = 0.4985;
  json d = failure_farm(100, "per_job");
  d["platform"]["servers"][0]["frontend"] = {{"threads", 1}, {"per_request", "4ms"}};
  d["platform"]["servers"][0]["failures"] = {{"at", {"498.5ms"}}};
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  check_conservation(r);
  std::set<int> failed_jobs;
  for (const RequestRecord& q : r.requests) {
    if (q.status != RequestStatus::Failed) continue;
    CHECK(q.server == 0);
    CHECK(q.failure == FailureCause::Unavailable);
    CHECK(q.enqueued_s == 0);
    CHECK(q.arrived_s == doctest::Approx(q.job == 0 ? 0.496 : 0.497).epsilon(1e-4));
    CHECK(q.responded_s == doctest::Approx(kFrontendFailAt).epsilon(1e-9));
    failed_jobs.insert(q.job);
  }
  CHECK(failed_jobs == std::set<int>{0, 2});
  CHECK(r.requests_failed() == 2);
  CHECK(r.requests_failed_unavailable == 2);
  CHECK(r.jobs_failed == 2);
}

TEST_CASE("fallback completes every event on the CPU; allowed_tries retries on the same server") {
  json d = failure_farm(100, "per_job");
  ml_module(d)["on_failure"] = "fallback";
  SUBCASE("one try") {
    const SimulationResults r = test::simulate_isolated(test::parse(d));
    check_conservation(r);
    CHECK(r.events.size() == 400);
    CHECK(r.jobs_failed == 0);
    // Every event of jobs 0 and 2 from their event 45 on fails once and falls back.
    const std::int64_t failing_events = 2 * (100 - kEventsBefore);
    CHECK(r.requests_failed_unavailable == failing_events);
    CHECK(r.events_fallen_back == failing_events);
    CHECK(r.requests_completed == 400 - failing_events);
    // Job 0: its event 45 fails at T and falls back for 5 ms; each of its 54 later events takes
    // 10 ms of CPU, an instant refusal and 5 ms of fallback.
    CHECK(last_event_end(r, 0) == doctest::Approx(kFailAt + 0.005 + 54 * 0.015).epsilon(1e-6));
  }
  SUBCASE("three tries") {
    ml_module(d)["allowed_tries"] = 3;
    const SimulationResults r = test::simulate_isolated(test::parse(d));
    check_conservation(r);
    const std::int64_t failing_events = 2 * (100 - kEventsBefore);
    CHECK(r.requests_failed_unavailable == 3 * failing_events);
    CHECK(r.requests_retried == 2 * failing_events);
    CHECK(r.events_fallen_back == failing_events);
    for (const RequestRecord& q : r.requests)
      if (q.status == RequestStatus::Failed) CHECK(q.retried == (q.attempt < 3));
  }
}

TEST_CASE("fallback for the rest of the job stops sending after the first failure") {
  json d = failure_farm(100, "per_job");
  ml_module(d)["on_failure"] = "fallback";
  ml_module(d)["fallback_scope"] = "job";
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  check_conservation(r);
  CHECK(r.events.size() == 400);
  CHECK(r.requests_failed_unavailable == 2);  // event 45 of jobs 0 and 2; then the CPU only
  CHECK(r.events_fallen_back == 2);
  CHECK(r.requests_sent == 2 * 100 + 2 * (kEventsBefore + 1));
  // Same timeline as falling back event by event: the refusals took no time.
  CHECK(last_event_end(r, 0) == doctest::Approx(kFailAt + 0.005 + 54 * 0.015).epsilon(1e-6));
}

TEST_CASE("a failing job cancels the requests it still waits for") {
  // One job, two requests per event in flight together, round_robin: request 2e goes to s0 and
  // 2e + 1 to s1, both on their GPUs over [11e + 10, 11e + 11] ms. At T, event 45's request on
  // s0 fails; the job fails and cancels the one on s1.
  json d = failure_farm(100, "round_robin");
  d["platform"]["worker_pools"][0]["nodes"] = 1;
  d["workload"]["jobs"] = 1;
  ml_module(d)["items_per_event"] = 2;
  ml_module(d)["in_flight"] = 2;
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  check_conservation(r);
  CHECK(r.requests_failed_unavailable == 1);
  CHECK(r.requests_failed_cancelled == 1);
  CHECK(r.jobs_failed == 1);
  CHECK(r.events_lost == kEventsBefore);
  for (const RequestRecord& q : r.requests)
    if (q.failure == FailureCause::Cancelled) {
      CHECK(q.server == 1);
      CHECK(q.received_s == doctest::Approx(kFailAt).epsilon(1e-6));
    }
}

TEST_CASE("failover moves the load of the dead server to the survivor") {
  json d = failure_farm(100, "per_job");
  ml_module(d)["on_failure"] = "failover";
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  check_conservation(r);
  const std::int64_t failing_events = 2 * (100 - kEventsBefore);
  CHECK(r.events.size() == 400);
  CHECK(r.jobs_failed == 0);
  CHECK(r.requests_failed_unavailable == failing_events);  // the first try of each, on s0
  CHECK(r.requests_failed_over == failing_events);
  CHECK(count_requests(r, RequestStatus::Completed, 0) == 2 * kEventsBefore);
  CHECK(count_requests(r, RequestStatus::Completed, 1) == 200 + failing_events);
}

TEST_CASE("a repaired server takes requests again") {
  // s0 is down over [T, T + 200 ms): jobs 0 and 2 fall back while it is, then use it again.
  const SimulationResults r = simulate_repaired(100, "200ms");
  CHECK(r.events.size() == 400);
  double last_failure = 0, first_success_after = 1e9;
  for (const RequestRecord& q : r.requests) {
    if (q.server != 0) continue;
    if (q.status == RequestStatus::Failed) last_failure = std::max(last_failure, q.sent_s);
    if (q.status == RequestStatus::Completed && q.sent_s > kFailAt)
      first_success_after = std::min(first_success_after, q.sent_s);
  }
  CHECK(last_failure < kFailAt + 0.2);
  CHECK(first_success_after >= kFailAt + 0.2);
  CHECK(count_requests(r, RequestStatus::Completed, 0) > 2 * kEventsBefore);
}

TEST_CASE("a kernel cut short by a failure ends nothing of the restarted server's") {
  // s0 is repaired 0.1 ms after T, before job 0's killed kernel would have ended (at 506 ms). Job 2
  // sends to the new process at 506 ms, exactly then: its kernel must last its full 1 ms, not end
  // on the dead kernel's date.
  const SimulationResults r = simulate_repaired(60, "0.1ms");
  std::int64_t after_restart = 0;
  for (const RequestRecord& q : r.requests) {
    if (q.status != RequestStatus::Completed) continue;
    CHECK(q.exec_end_s - q.exec_start_s == doctest::Approx(0.001).epsilon(1e-9));
    if (q.server == 0 && q.exec_start_s > kFailAt) ++after_restart;
  }
  CHECK(after_restart > 0);
}

TEST_CASE("per-request balancing stops choosing a server once it is known dead") {
  // Without a proxy the balancer learns of the failure at once: only what s0 held at T fails (job
  // 0's request on its GPU; at T the others are in their CPU step or on s1).
  json d = failure_farm(100, "round_robin");
  ml_module(d)["on_failure"] = "fallback";
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  check_conservation(r);
  CHECK(r.requests_failed() <= 2);
  CHECK(r.requests_failed() >= 1);
  for (const RequestRecord& q : r.requests)
    if (q.server == 0) CHECK(q.sent_s < kFailAt);
}

TEST_CASE("with no ready server left, requests fail at once without leaving the job") {
  // round_robin over s0 alone, which dies at T for good: from then on each request fails in the
  // job (no server to send it to) and the event falls back to the CPU.
  json d = failure_farm(100, "round_robin");
  d["platform"]["servers"] = json::array({d["platform"]["servers"][0]});
  ml_module(d)["on_failure"] = "fallback";
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  check_conservation(r);
  CHECK(r.events.size() == 400);
  CHECK(r.requests_failed_unavailable == r.events_fallen_back);
  std::int64_t unsent = 0;
  for (const RequestRecord& q : r.requests)
    if (q.status == RequestStatus::Failed && q.server < 0) {
      ++unsent;
      CHECK(q.received_s == q.sent_s);
    }
  CHECK(unsent > 0);
  CHECK(unsent <= r.requests_failed_unavailable - 1);  // at least the request s0 held at T reached it
}

TEST_CASE("a client deadline fails a request that is not answered in time") {
  // One job, one server whose kernel takes 1 s; the client waits 0.3 s, twice, then the job fails.
  json d = failure_farm(3, "per_job");
  d["platform"]["worker_pools"][0]["nodes"] = 1;
  d["workload"]["jobs"] = 1;
  d["platform"]["servers"][0].erase("failures");
  d["models"]["m"]["kernel_latency"]["intercept"] = "1s";
  ml_module(d)["client_timeout"] = "300ms";
  ml_module(d)["allowed_tries"] = 2;
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  CHECK(r.requests_failed_deadline == 2);
  CHECK(r.requests_retried == 1);
  CHECK(r.jobs_failed == 1);
  CHECK(r.events.empty());
  CHECK(r.requests_sent == 2);
  // The job ends at 10 ms + 2 x 300 ms; its two requests were abandoned, not answered.
  CHECK(r.cpu_lost_s == doctest::Approx(0.010 + 0.6).epsilon(1e-6));
  CHECK(r.requests_in_flight_at_end == 0);
}

TEST_CASE("the batch system resubmits a failed job up to `resubmit` times") {
  json d = failure_farm(3, "per_job");
  d["platform"]["worker_pools"][0]["nodes"] = 1;
  d["platform"]["servers"] = json::array({d["platform"]["servers"][0]});
  d["platform"]["servers"][0]["failures"] = {{"at", {"0s"}}};  // never up
  d["workload"].erase("start");
  d["workload"]["jobs"] = 1;
  d["workload"]["submit"] = {{"pattern", "all_at_once"}};
  d["workload"]["resubmit"] = 2;
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  REQUIRE(r.jobs.size() == 3);
  CHECK(r.jobs[0].outcome == JobOutcome::Resubmitted);
  CHECK(r.jobs[1].outcome == JobOutcome::Resubmitted);
  CHECK(r.jobs[2].outcome == JobOutcome::Failed);
  for (int run = 0; run < 3; ++run) {
    const JobRecord& j = r.jobs[static_cast<std::size_t>(run)];
    CHECK(j.attempt == run + 1);
    // Each run: 10 ms of CPU, then its request is refused at once.
    CHECK(j.start_s == doctest::Approx(0.010 * run).epsilon(1e-6));
    CHECK(j.end_s - j.start_s == doctest::Approx(0.010).epsilon(1e-4));
  }
  CHECK(r.jobs_failed == 3);
}

TEST_CASE("through a proxy, a dead server is chosen until the next DNS refresh; each try waits the connect timeout") {
  // One job: 100 ms of CPU, one request, round_robin over s0 and s1 through a proxy; its request k
  // goes to server k mod 2 while both are listed. s0 dies at 1.05 s; the proxy lists it until its
  // DNS refresh at 5 s. Events 0-9 end by 1.01 s. Then pairs of events: one to dead s0 (100 ms CPU,
  // 250 ms connect timeout, 5 ms fallback), one to s1 (100 ms + 1 ms): 456 ms a pair. Requests to
  // s0 leave at 1.110 + 0.456 j s; those before 5 s are j = 0..8: 9 failures, none after.
  json d = failure_farm(40, "round_robin");
  d["platform"]["worker_pools"][0]["nodes"] = 1;
  d["workload"]["jobs"] = 1;
  d["platform"]["servers"][0]["failures"] = {{"at", {"1.05s"}}};
  d["platform"]["proxy"] = {{"nic", {{"bandwidth", "100Gbps"}, {"latency", "1ns"}}}, {"connect_timeout", "250ms"}};
  d["workload"]["modules"][0]["time"] = "100ms";
  ml_module(d)["on_failure"] = "fallback";
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  check_conservation(r);
  CHECK(r.requests_failed_unavailable == 9);
  int j = 0;
  for (const RequestRecord& q : r.requests) {
    if (q.status != RequestStatus::Failed) continue;
    CHECK(q.server == 0);
    CHECK(q.sent_s == doctest::Approx(1.110 + 0.456 * j).epsilon(1e-5));
    CHECK(q.received_s - q.sent_s == doctest::Approx(0.250).epsilon(1e-5));
    ++j;
  }
  for (const RequestRecord& q : r.requests)
    if (q.sent_s > 5.0) CHECK(q.server == 1);
}

TEST_CASE("every request crosses the proxy's NIC twice") {
  // One request of 1 MB through a proxy whose NIC carries 80 Mbit/s (10 MB/s), every other link
  // 100 Gbit/s: the upload takes 0.1 s into the proxy and 0.1 s out of it (the two directions of
  // a full-duplex NIC), so the request's network time is 0.2 s plus nanoseconds.
  json d = failure_farm(1, "round_robin");
  d["platform"]["worker_pools"][0]["nodes"] = 1;
  d["workload"]["jobs"] = 1;
  d["platform"]["servers"][0].erase("failures");
  d["models"]["m"]["input_bytes_per_item"] = "1MB";
  d["simulation"]["network"]["tcp_gamma"] = "0B";
  d["platform"]["proxy"] = {{"nic", {{"bandwidth", "80Mbps"}, {"latency", "1ns"}}}};
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  REQUIRE(r.requests.size() == 1);
  const RequestRecord& q = r.requests[0];
  CHECK(q.arrived_s - q.sent_s == doctest::Approx(0.2).epsilon(1e-4));
}

TEST_CASE("the proxy's CPU is shared by the requests it holds") {
  // 4 jobs send at 10 ms; one proxy thread spends 2 ms on each. Processor sharing finishes the four
  // together, 8 ms later: every request reaches its server at 18 ms.
  json d = failure_farm(1, "round_robin");
  d["platform"]["servers"][0].erase("failures");
  d["platform"]["proxy"] = {{"nic", {{"bandwidth", "100Gbps"}, {"latency", "1ns"}}}, {"per_request", "2ms"}};
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  REQUIRE(r.requests.size() == 4);
  for (const RequestRecord& q : r.requests) CHECK(q.arrived_s == doctest::Approx(0.018).epsilon(1e-5));
}

TEST_CASE("the saturation gate refuses jobs that start while the load metric is above the threshold") {
  // Two jobs from t = 0 keep one 100 ms instance busy: they alternate, each request waiting ~100 ms
  // behind the other's. Prometheus scrapes at 0 and 5 s; by 5 s, 49 executions have ended, 48 of
  // them after ~100 ms in the queue: 4.8e6 us. At 5.1 s, rate() over (-24.9 s, 5.1 s] extrapolates
  // both counters by the same factor (not below zero at the start; 0.1 s at the end), so the metric
  // is 4.8e6 / (49 x 1000 + 0.001 x 30 / 5.1) ~ 97.96 ms. Before 5 s it has no value: jobs pass.
  auto gated_farm = [](const std::string& wave_period, double threshold) {
    json d = failure_farm(100, "round_robin");
    d["platform"]["servers"] = json::array({d["platform"]["servers"][0]});
    d["platform"]["servers"][0].erase("failures");
    d["models"]["m"]["kernel_latency"]["intercept"] = "100ms";
    d["workload"]["modules"][0]["time"] = "0s";
    d["workload"]["start"] = {{"pattern", "waves"}, {"jobs_per_wave", 2}, {"period", wave_period}};
    d["platform"]["proxy"] = {{"nic", {{"bandwidth", "100Gbps"}, {"latency", "1ns"}}},
                              {"saturation_gate", {{"threshold", threshold}}}};
    return test::simulate_isolated(test::parse(d));
  };
  auto requests_of_late_jobs = [](const SimulationResults& r) {
    return std::count_if(r.requests.begin(), r.requests.end(), [](const RequestRecord& q) { return q.job >= 2; });
  };
  {
    const SimulationResults r = gated_farm("5.1s", 50);
    CHECK(r.gate_checks == 4);
    CHECK(r.gate_checks_without_metric == 2);
    CHECK(r.jobs_gated == 2);
    CHECK(requests_of_late_jobs(r) == 0);
    CHECK(r.events.size() == 400);  // the refused jobs run every event on their CPU
  }
  CHECK(gated_farm("5.1s", 97).jobs_gated == 2);
  CHECK(gated_farm("5.1s", 99).jobs_gated == 0);
  const SimulationResults early = gated_farm("4.9s", 50);  // no value yet at 4.9 s
  CHECK(early.jobs_gated == 0);
  CHECK(early.gate_checks_without_metric == 4);
  CHECK(requests_of_late_jobs(early) > 0);
}

TEST_CASE("the proxy's token bucket refuses connections beyond its tokens: those jobs run on their CPU") {
  // Waves of 2 jobs at 0, 5 and 10 s against a bucket of 2 tokens refilled by 1 every 8 s: the wave
  // at 0 s takes both tokens, the one at 5 s finds none (the first tick is at 8 s), the one at 10 s
  // gets the token of 8 s for one of its jobs only.
  json d = failure_farm(100, "round_robin");
  d["platform"]["worker_pools"][0]["nodes"] = 6;
  d["platform"]["servers"][0].erase("failures");
  d["workload"]["jobs"] = 6;
  d["workload"]["start"] = {{"pattern", "waves"}, {"jobs_per_wave", 2}, {"period", "5s"}};
  d["platform"]["proxy"] = {{"nic", {{"bandwidth", "100Gbps"}, {"latency", "1ns"}}},
                            {"connection_limit", {{"max_tokens", 2}, {"tokens_per_fill", 1}, {"fill_interval", "8s"}}}};
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  CHECK(r.connections == 6);
  CHECK(r.connections_refused == 3);
  CHECK(r.events_on_gate_fallback == 300);
  // Jobs 4 and 5 start at the same instant; which of them takes the token is SimGrid's order.
  std::set<int> connected;
  for (const RequestRecord& q : r.requests) connected.insert(q.job);
  CHECK(connected.size() == 3);
  CHECK(connected.count(0) == 1);
  CHECK(connected.count(1) == 1);
  CHECK(connected.count(4) + connected.count(5) == 1);
  CHECK(r.events.size() == 600);
}
