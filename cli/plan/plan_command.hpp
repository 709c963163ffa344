#pragma once
#include <string>
#include <vector>

namespace sonicsim::cli {

// `sonicsim plan`: the CPU:GPU ratio, the job cap, what saturates first, the speed-up; exit code.
int plan_command(const std::vector<std::string>& args);

}  // namespace sonicsim::cli
