#include "tests/sim/failure_farm.hpp"

#include <algorithm>

#include <doctest/doctest.h>

#include "tests/support/scenario_support.hpp"

namespace sonicsim::test {

nlohmann::json failure_farm(int events_per_job, const std::string& policy) {
  nlohmann::json d = base_scenario();
  const nlohmann::json link = {{"bandwidth", "100Gbps"}, {"latency", "1ns"}};
  d["platform"]["worker_pools"][0].update({{"nodes", 4}, {"cores_per_node", 1}, {"nic", link}});
  d["platform"]["site_uplink"] = link;
  d["platform"]["wan"] = link;
  d["platform"]["load_balancing"] = policy;
  d["platform"]["servers"] = nlohmann::json::array();
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
                     {{"type", "inference"},
                      {"name", "ml"},
                      {"model", "m"},
                      {"items_per_event", 1},
                      {"items_per_request", 1},
                      {"preprocess", "0s"},
                      {"in_flight", 1},
                      {"cpu_fallback", "5ms"}}}}};
  d["simulation"]["outputs"] = {"requests", "events"};
  return d;
}

nlohmann::json& ml_module(nlohmann::json& d) { return d["workload"]["modules"][1]; }

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

}  // namespace sonicsim::test
