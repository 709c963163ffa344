#pragma once
// Where grid jobs run: the order in which jobs take the worker cores.
#include <vector>

#include "models/scenario/scenario.hpp"
#include "sim/platform.hpp"

namespace sonicsim::sim {

// Every worker core, as the index in farm.workers of its node, in the order jobs take them: "fill"
// packs nodes one after the other; "spread" gives every node one job before any node gets a second.
std::vector<int> core_slots(const Scenario& scenario, const FarmPlatform& farm);

// The node of each job of a static farm (job j takes the j-th core).
std::vector<int> place_jobs(const Scenario& scenario, const FarmPlatform& farm);

}  // namespace sonicsim::sim
