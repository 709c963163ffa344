#pragma once
#include <string>
#include <vector>

namespace sonicsim::cli {

// `sonicsim sweep`: runs a scenario over a parameter grid, one process per point; exit code.
int sweep_command(const std::vector<std::string>& args);

}  // namespace sonicsim::cli
