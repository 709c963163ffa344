#pragma once
// `sonicsim run` on a scenario with a "perf_analyzer" load: one simulation process per load level,
// then perf_analyzer's table on the terminal, its CSV in a file, and the levels' requests and batches
// in an output directory.
#include <string>

#include "models/scenario/scenario.hpp"

namespace sonicsim::cli {

// Returns the process exit code. `csv_path` may be empty (no file); so may `output_dir` (no
// requests.csv or batches.csv; /simulation/outputs chooses which of the two).
int run_perf_levels(const Scenario& scenario, const std::string& csv_path, bool quiet,
                    const std::string& output_dir = {});

}  // namespace sonicsim::cli
