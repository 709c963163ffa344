#include "cli/plan/plan_probes.hpp"

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/processes/simulated_summary.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim::cli {

PlanProbes::PlanProbes(std::string scenario_path, Overrides overrides, double tolerance, bool quiet)
    : path_(std::move(scenario_path)),
      overrides_(std::move(overrides)),
      tolerance_(tolerance),
      quiet_(quiet),
      status_(!quiet && isatty(STDERR_FILENO)) {}

Summary PlanProbes::run(const Overrides& extra, const std::string& what) {
  return std::move(run_all({extra}, what).front());
}

std::vector<Summary> PlanProbes::run_all(const std::vector<Overrides>& extras, const std::string& what) {
  std::vector<Overrides> variants;
  for (const Overrides& extra : extras) {
    Overrides o = overrides_;
    o.insert(o.end(), extra.begin(), extra.end());
    o.emplace_back("/simulation/stop_at_precision", nlohmann::json{{"relative_half_width", tolerance_ / 4}}.dump());
    variants.push_back(std::move(o));
  }
  status_.show(printf_string(
      "  run %d%s: %s; %d runs done, %.0f s simulated, %.0f s elapsed", runs_ + 1,
      extras.size() > 1 ? printf_string(" to %d", runs_ + static_cast<int>(extras.size())).c_str() : "", what.c_str(),
      runs_, simulated_s_, std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count()));
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<SimulatedRun> runs = variants.size() == 1
                                       ? std::vector<SimulatedRun>{simulated_run(path_, variants.front())}
                                       : simulated_runs(path_, variants, cores);
  status_.clear();
  std::vector<Summary> summaries;
  for (SimulatedRun& run : runs) {
    for (const auto& [kind, lines] : {std::pair{"note", &run.notes}, std::pair{"warning", &run.warnings}})
      for (const std::string& line : *lines)
        if (!quiet_ && said_.insert(line).second) {
          std::cout.flush();
          std::cerr << "sonicsim: " << kind << ": " << line << '\n';
        }
    ++runs_;
    simulated_s_ += run.summary.simulated_s;
    summaries.push_back(std::move(run.summary));
  }
  return summaries;
}

}  // namespace sonicsim::cli
