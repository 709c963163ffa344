#pragma once
// When each job of a workload is submitted (on a static farm: starts) and how many events it runs.
// Patterns give the times; Poisson gaps and per-job event counts are drawn from the seed's
// batch-system stream, so a scenario and seed always give the same jobs.
#include <cstdint>
#include <optional>
#include <vector>

#include "models/scenario/scenario.hpp"
#include "models/workload/rng.hpp"

namespace sonicsim {

struct PlannedJob {
  double submit_s = 0;
  std::optional<int> events;  // unset in a duration-limited run: the job runs until the end
};

std::vector<PlannedJob> plan_jobs(const Workload& workload, std::uint64_t seed);

// When job `job` of `jobs` starts (static farm) or is submitted (batch system).
double start_time(const StartPattern& pattern, int job, int jobs);

int draw_events(const EventCount& count, Rng& rng);
int most_events(const EventCount& count);
double mean_events(const EventCount& count);

}  // namespace sonicsim
