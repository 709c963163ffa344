// Jobs refused at their start, which run their inference on their own CPU: by SuperSONIC's
// saturation gate, or by the proxy's token bucket on new connections.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "tests/sim/failure_farm.hpp"
#include "tests/support/records_json.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using namespace sonicsim::test;
using nlohmann::json;

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
    CHECK(r.gate.value().checks == 4);
    CHECK(r.gate.value().without_metric == 2);
    CHECK(r.gate.value().refused == 2);
    CHECK(requests_of_late_jobs(r) == 0);
    CHECK(r.events.size() == 400);  // the refused jobs run every event on their CPU
  }
  CHECK(gated_farm("5.1s", 97).gate.value().refused == 2);
  CHECK(gated_farm("5.1s", 99).gate.value().refused == 0);
  const SimulationResults early = gated_farm("4.9s", 50);  // no value yet at 4.9 s
  CHECK(early.gate.value().refused == 0);
  CHECK(early.gate.value().without_metric == 4);
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
  CHECK(r.connection_limit.value().opened == 6);
  CHECK(r.connection_limit.value().refused == 3);
  CHECK(r.connection_limit.value().events_on_cpu == 300);
  // Jobs 4 and 5 start at the same instant; which of them takes the token is SimGrid's order.
  std::set<int> connected;
  for (const RequestRecord& q : r.requests) connected.insert(q.job);
  CHECK(connected.size() == 3);
  CHECK(connected.count(0) == 1);
  CHECK(connected.count(1) == 1);
  CHECK(connected.count(4) + connected.count(5) == 1);
  CHECK(r.events.size() == 600);
}
