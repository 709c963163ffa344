#pragma once
#include <string>
#include <vector>

namespace sonicsim::cli {

// `sonicsim calibrate`: fits kernel-latency models to measurements; returns the exit code.
int calibrate_command(const std::vector<std::string>& args);

}  // namespace sonicsim::cli
