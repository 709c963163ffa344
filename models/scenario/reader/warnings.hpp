#pragma once
// What a scenario may say but likely does not mean, one line each, for the command line to print
// as warnings: requests larger than their model's max_batch_size (the server rejects them), a
// device type that selects no kernel latency of its own (it runs at another type's speed), and
// modules from a report of a multi-threaded CMSSW job (its threads and streams are not simulated).
#include <set>
#include <string>
#include <vector>

#include "models/scenario/scenario.hpp"

namespace sonicsim {

// `retyped_groups`: the server groups whose device type the user changed (run --set): where their
// models give one kernel latency for every device, the change changes nothing.
std::vector<std::string> scenario_warnings(const Scenario& scenario, const std::set<int>& retyped_groups = {});

// The server group whose device type a --set pointer names ("/platform/servers/2/gpu"), or -1.
int retyped_group(const std::string& pointer);

}  // namespace sonicsim
