#pragma once
#include <string>
#include <vector>

namespace sonicsim::cli {

// `sonicsim validate`: a scenario against site logs, measured vs simulated; exit code.
int validate_command(const std::vector<std::string>& args);

}  // namespace sonicsim::cli
