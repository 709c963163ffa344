#pragma once
// One run of a scenario in a child process (SimGrid allows one engine per process), for commands
// that simulate many variants: its summary (summary.json across the process boundary), without the
// per-event or per-request files.
#include <string>
#include <utility>
#include <vector>

#include "analysis/summary/summary.hpp"

namespace sonicsim::cli {

Summary simulated_summary(const std::string& scenario_path, std::vector<std::pair<std::string, std::string>> overrides);

}  // namespace sonicsim::cli
