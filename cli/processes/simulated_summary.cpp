#include "cli/processes/simulated_summary.hpp"

#include "analysis/summary/summary.hpp"
#include "cli/processes/isolated_run.hpp"
#include "models/scenario/reader/scenario_reader.hpp"
#include "sim/simulation.hpp"

namespace sonicsim::cli {

nlohmann::json simulated_summary(const std::string& scenario_path,
                                 std::vector<std::pair<std::string, std::string>> overrides) {
  overrides.emplace_back("/simulation/outputs", "[]");
  const Scenario scenario = load_scenario(scenario_path, overrides);
  return nlohmann::json::parse(run_isolated([&] { return summary_to_json(summarize(simulate(scenario))).dump(); }));
}

}  // namespace sonicsim::cli
