#pragma once
#include <string>
#include <vector>

namespace sonicsim::cli {

// `sonicsim analytic`: the closed-form t_SONIC model next to the simulation; exit code.
int analytic_command(const std::vector<std::string>& args);

}  // namespace sonicsim::cli
