#include "tests/support/simulation_support.hpp"

#include <string>

#include "cli/processes/isolated_run.hpp"
#include "sim/simulation.hpp"
#include "tests/support/records_json.hpp"

namespace sonicsim::test {

SimulationResults simulate_isolated(const Scenario& scenario) {
  const std::string text = run_isolated([&]() { return nlohmann::json(simulate(scenario)).dump(); });
  return nlohmann::json::parse(text).get<SimulationResults>();
}

nlohmann::json three_requests_at_once(nlohmann::json d) {
  d["platform"]["worker_pools"][0]["nodes"] = 3;
  d["platform"]["placement"] = "spread";
  d["workload"]["jobs"] = 3;
  d["workload"]["modules"][0]["time"] = "0s";
  d["workload"]["modules"][1]["preprocess"] = "0s";
  d["workload"]["modules"][1]["items_per_event"] = 100;
  d["workload"]["modules"][1]["items_per_request"] = 100;
  return d;
}

}  // namespace sonicsim::test
