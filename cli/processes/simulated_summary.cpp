#include "cli/processes/simulated_summary.hpp"

#include <functional>
#include <set>

#include "analysis/summary/summary_json.hpp"
#include "cli/processes/isolated_run.hpp"
#include "models/scenario/reader/scenario_reader.hpp"
#include "models/scenario/reader/warnings.hpp"
#include "sim/simulation.hpp"

namespace sonicsim::cli {

namespace {

using Overrides = std::vector<std::pair<std::string, std::string>>;

// The scenario of one variant (loaded here, so that a bad one is an InputError before any child
// starts), the body a child runs, and the notes and warnings the command line prints.
struct Prepared {
  Scenario scenario;
  std::vector<std::string> warnings;
};

Prepared prepare(const std::string& scenario_path, Overrides overrides) {
  overrides.emplace_back("/simulation/outputs", "[]");
  Prepared p{load_scenario(scenario_path, overrides), {}};
  std::set<int> retyped;  // server groups whose device type an override changed
  for (const auto& [pointer, value] : overrides)
    if (const int g = retyped_group(pointer); g >= 0) retyped.insert(g);
  p.warnings = scenario_warnings(p.scenario, retyped);
  return p;
}

SimulatedRun finished(const std::string& scenario_path, const Prepared& p, const std::string& document) {
  return {summary_from_json(nlohmann::json::parse(document), "the summary of a run of " + scenario_path),
          p.scenario.notes, p.warnings};
}

}  // namespace

SimulatedRun simulated_run(const std::string& scenario_path,
                           std::vector<std::pair<std::string, std::string>> overrides) {
  const Prepared p = prepare(scenario_path, std::move(overrides));
  const Scenario& scenario = p.scenario;
  return finished(scenario_path, p,
                  run_isolated([&] { return summary_to_json(summarize(simulate(scenario))).dump(); }));
}

std::vector<SimulatedRun> simulated_runs(const std::string& scenario_path, const std::vector<Overrides>& variants,
                                         int parallel) {
  std::vector<Prepared> prepared;
  for (const Overrides& o : variants) prepared.push_back(prepare(scenario_path, o));
  std::vector<std::function<std::string()>> bodies;
  for (const Prepared& p : prepared)
    bodies.emplace_back([&p] { return summary_to_json(summarize(simulate(p.scenario))).dump(); });
  const std::vector<std::string> documents = run_isolated_all(bodies, parallel);
  std::vector<SimulatedRun> runs;
  for (std::size_t i = 0; i < prepared.size(); ++i) runs.push_back(finished(scenario_path, prepared[i], documents[i]));
  return runs;
}

Summary simulated_summary(const std::string& scenario_path,
                          std::vector<std::pair<std::string, std::string>> overrides) {
  return simulated_run(scenario_path, std::move(overrides)).summary;
}

}  // namespace sonicsim::cli
