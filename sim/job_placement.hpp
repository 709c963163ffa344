#pragma once
// Where and when each grid job runs: its worker node and its start time, per the scenario.
#include <vector>

#include "models/scenario.hpp"
#include "sim/platform.hpp"

namespace sonicsim::sim {

// The index in farm.workers of each job's node: "fill" packs nodes one after the other; "spread"
// gives every node one job before any node gets a second.
std::vector<int> place_jobs(const Scenario& scenario, const FarmPlatform& farm);

// When job `job` of `jobs` starts.
double start_time(const StartPattern& pattern, int job, int jobs);

}  // namespace sonicsim::sim
