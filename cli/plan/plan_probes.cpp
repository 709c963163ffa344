#include "cli/plan/plan_probes.hpp"

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cli/processes/simulated_summary.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim::cli {

PlanProbes::PlanProbes(std::string scenario_path, Overrides overrides, double tolerance)
    : path_(std::move(scenario_path)), overrides_(std::move(overrides)), tolerance_(tolerance),
      status_(isatty(STDERR_FILENO)) {}

Summary PlanProbes::run(const Overrides& extra, const std::string& what) {
  Overrides o = overrides_;
  o.insert(o.end(), extra.begin(), extra.end());
  o.emplace_back("/simulation/stop_at_precision", nlohmann::json{{"relative_half_width", tolerance_ / 4}}.dump());
  status_.show(printf_string("  run %d: %s; %d runs done, %.0f s simulated, %.0f s elapsed", runs_ + 1, what.c_str(),
                             runs_, simulated_s_,
                             std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count()));
  Summary s = simulated_summary(path_, o);
  status_.clear();
  ++runs_;
  simulated_s_ += s.simulated_s;
  return s;
}

}  // namespace sonicsim::cli
