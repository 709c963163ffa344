#pragma once
// `sonicsim run` on a scenario with a "perf_analyzer" load: one simulation process per load level,
// then perf_analyzer's table on the terminal and its CSV in a file.
#include <string>

#include "models/scenario/scenario.hpp"

namespace sonicsim::cli {

// Returns the process exit code. `csv_path` may be empty (no file).
int run_perf_levels(const Scenario& scenario, const std::string& csv_path, bool quiet);

}  // namespace sonicsim::cli
