#pragma once
#include <string>
#include <vector>

namespace sonicsim::cli {

// `sonicsim run`: returns the process exit code.
int run_command(const std::vector<std::string>& args);

}  // namespace sonicsim::cli
