#pragma once
// Where grid jobs run: the order in which jobs take the worker cores.
#include <vector>

#include "models/scenario/scenario.hpp"
#include "sim/platform.hpp"

namespace sonicsim::sim {

// Every job slot of the workers, as the index in farm.workers of its node, in the order jobs take
// them: "fill" packs nodes one after the other; "spread" gives every node one job before any node
// gets a second. A slot is a core, or with threads as many cores of one node as a job has threads
// (the node's cores beyond a multiple of that hold no job).
std::vector<int> core_slots(const Scenario& scenario, const FarmPlatform& farm);

// The node of each job of a static farm (job j takes the j-th slot).
std::vector<int> place_jobs(const Scenario& scenario, const FarmPlatform& farm);

}  // namespace sonicsim::sim
