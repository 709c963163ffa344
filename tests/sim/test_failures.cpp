// Server failures and what clients do about them, against timelines worked out by hand on the farm
// of tests/sim/failure_farm.hpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "tests/sim/failure_farm.hpp"
#include "tests/support/records_json.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using namespace sonicsim::test;
using nlohmann::json;

namespace {

// s0 fails at T and is repaired `repair` later; the modules fall back while it is down.
SimulationResults simulate_repaired(int events_per_job, const std::string& repair) {
  json d = failure_farm(events_per_job, "per_job");
  d["platform"]["servers"][0]["failures"]["repair"] = repair;
  ml_module(d)["on_failure"] = "fallback";
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  check_conservation(r);
  CHECK(r.failures.value().server_restarts == 1);
  return r;
}

}  // namespace

TEST_CASE("a failing server fails each request it holds once; fail_job ends those jobs") {
  const SimulationResults r = test::simulate_isolated(test::parse(failure_farm(100, "per_job")));
  check_conservation(r);
  // Job 0's request on the GPU at T, and job 2's sent to the dead server: one each, UNAVAILABLE.
  CHECK(r.failures.value().unavailable == 2);
  CHECK(r.requests_failed() == 2);
  CHECK(r.failures.value().jobs_failed == 2);
  CHECK(r.failures.value().events_lost == 2 * kEventsBefore);
  // Job 0 fails at T, job 2 at 506 ms (its send; the refusal comes back in nanoseconds).
  CHECK(r.failures.value().cpu_lost_s == doctest::Approx(kFailAt + 0.506).epsilon(1e-6));
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
  CHECK(r.failures.value().server_failures == 1);
  CHECK(r.failures.value().server_restarts == 0);
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
  CHECK(r.failures.value().unavailable == 2);
  CHECK(r.failures.value().jobs_failed == 2);
}

TEST_CASE("fallback completes every event on the CPU; allowed_tries retries on the same server") {
  json d = failure_farm(100, "per_job");
  ml_module(d)["on_failure"] = "fallback";
  SUBCASE("one try") {
    const SimulationResults r = test::simulate_isolated(test::parse(d));
    check_conservation(r);
    CHECK(r.events.size() == 400);
    CHECK(r.failures.value().jobs_failed == 0);
    // Every event of jobs 0 and 2 from their event 45 on fails once and falls back.
    const std::int64_t failing_events = 2 * (100 - kEventsBefore);
    CHECK(r.failures.value().unavailable == failing_events);
    CHECK(r.failures.value().events_fallen_back == failing_events);
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
    CHECK(r.failures.value().unavailable == 3 * failing_events);
    CHECK(r.failures.value().retried == 2 * failing_events);
    CHECK(r.failures.value().events_fallen_back == failing_events);
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
  CHECK(r.failures.value().unavailable == 2);  // event 45 of jobs 0 and 2; then the CPU only
  CHECK(r.failures.value().events_fallen_back == 2);
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
  CHECK(r.failures.value().unavailable == 1);
  CHECK(r.failures.value().cancelled == 1);
  CHECK(r.failures.value().jobs_failed == 1);
  CHECK(r.failures.value().events_lost == kEventsBefore);
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
  CHECK(r.failures.value().jobs_failed == 0);
  CHECK(r.failures.value().unavailable == failing_events);  // the first try of each, on s0
  CHECK(r.failures.value().failed_over == failing_events);
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
  CHECK(r.failures.value().unavailable == r.failures.value().events_fallen_back);
  std::int64_t unsent = 0;
  for (const RequestRecord& q : r.requests)
    if (q.status == RequestStatus::Failed && q.server < 0) {
      ++unsent;
      CHECK(q.received_s == q.sent_s);
    }
  CHECK(unsent > 0);
  CHECK(unsent <= r.failures.value().unavailable - 1);  // at least the request s0 held at T reached it
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
  CHECK(r.failures.value().deadline_exceeded == 2);
  CHECK(r.failures.value().retried == 1);
  CHECK(r.failures.value().jobs_failed == 1);
  CHECK(r.events.empty());
  CHECK(r.requests_sent == 2);
  // The job ends at 10 ms + 2 x 300 ms; its two requests were abandoned, not answered.
  CHECK(r.failures.value().cpu_lost_s == doctest::Approx(0.010 + 0.6).epsilon(1e-6));
  CHECK(r.requests_in_flight_at_end == 0);
}
