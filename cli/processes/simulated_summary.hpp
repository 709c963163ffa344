#pragma once
// One run of a scenario in a child process (SimGrid allows one engine per process), for commands
// that simulate many variants: its summary (summary.json across the process boundary), without the
// per-event or per-request files, and what the command line prints before a run: the scenario's
// notes (what a values file sets that the simulation leaves out) and warnings.
#include <string>
#include <utility>
#include <vector>

#include "analysis/summary/summary.hpp"

namespace sonicsim::cli {

struct SimulatedRun {
  Summary summary;
  std::vector<std::string> notes, warnings;
};

SimulatedRun simulated_run(const std::string& scenario_path,
                           std::vector<std::pair<std::string, std::string>> overrides);

// Several variants at once, `parallel` processes at a time, in order.
std::vector<SimulatedRun> simulated_runs(const std::string& scenario_path,
                                         const std::vector<std::vector<std::pair<std::string, std::string>>>& variants,
                                         int parallel);

// The summary alone.
Summary simulated_summary(const std::string& scenario_path, std::vector<std::pair<std::string, std::string>> overrides);

}  // namespace sonicsim::cli
