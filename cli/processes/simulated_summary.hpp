#pragma once
// One run of a scenario in a child process (SimGrid allows one engine per process), for commands
// that simulate many variants: its summary.json, without the per-event or per-request files.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace sonicsim::cli {

nlohmann::json simulated_summary(const std::string& scenario_path,
                                 std::vector<std::pair<std::string, std::string>> overrides);

}  // namespace sonicsim::cli
