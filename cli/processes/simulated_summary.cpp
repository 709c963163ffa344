#include "cli/processes/simulated_summary.hpp"

#include "analysis/summary/summary_json.hpp"
#include "cli/processes/isolated_run.hpp"
#include "models/scenario/reader/scenario_reader.hpp"
#include "sim/simulation.hpp"

namespace sonicsim::cli {

Summary simulated_summary(const std::string& scenario_path, std::vector<std::pair<std::string, std::string>> overrides) {
  overrides.emplace_back("/simulation/outputs", "[]");
  const Scenario scenario = load_scenario(scenario_path, overrides);
  const std::string document = run_isolated([&] { return summary_to_json(summarize(simulate(scenario))).dump(); });
  return summary_from_json(nlohmann::json::parse(document), "the summary of a run of " + scenario_path);
}

}  // namespace sonicsim::cli
