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

}  // namespace sonicsim::test
