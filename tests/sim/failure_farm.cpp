#include "tests/sim/failure_farm.hpp"

#include <algorithm>

#include <doctest/doctest.h>

#include "tests/support/negligible_network_farm.hpp"

namespace sonicsim::test {

nlohmann::json failure_farm(int events_per_job, const std::string& policy) {
  nlohmann::json d = negligible_network_farm(4, policy);
  for (const char* name : {"s0", "s1"}) d["platform"]["servers"].push_back(one_gpu_servers(name, 1, "T4"));
  d["platform"]["servers"][0]["failures"] = {{"at", {"505.5ms"}}};
  d["models"]["m"] = one_instance_model();
  d["models"]["m"]["kernel_latency"] = constant_kernel("1ms");
  nlohmann::json ml = one_request_module();
  ml["cpu_fallback"] = "5ms";
  d["workload"] = {{"jobs", 4},
                   {"events_per_job", events_per_job},
                   {"start", {{"pattern", "all_at_once"}}},
                   {"modules", nlohmann::json::array({{{"type", "cpu"}, {"name", "reco"}, {"time", "10ms"}}, ml})}};
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
