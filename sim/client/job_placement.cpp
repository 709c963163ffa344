#include "sim/client/job_placement.hpp"

#include <algorithm>

namespace sonicsim::sim {

std::vector<int> core_slots(const Scenario& scenario, const FarmPlatform& farm) {
  const int threads = scenario.workload.threads;
  std::vector<int> slots;
  if (scenario.platform.placement == JobPlacement::Fill) {
    for (std::size_t n = 0; n < farm.workers.size(); ++n)
      for (int c = 0; c < farm.workers[n].cores / threads; ++c) slots.push_back(static_cast<int>(n));
  } else {
    int max_slots = 0;
    for (const auto& w : farm.workers) max_slots = std::max(max_slots, w.cores / threads);
    for (int c = 0; c < max_slots; ++c)
      for (std::size_t n = 0; n < farm.workers.size(); ++n)
        if (c < farm.workers[n].cores / threads) slots.push_back(static_cast<int>(n));
  }
  return slots;
}

std::vector<int> place_jobs(const Scenario& scenario, const FarmPlatform& farm) {
  std::vector<int> slots = core_slots(scenario, farm);
  slots.resize(static_cast<std::size_t>(scenario.workload.jobs));
  return slots;
}

}  // namespace sonicsim::sim
