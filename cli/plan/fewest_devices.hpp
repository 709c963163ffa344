#pragma once
// plan --devices: the fewest servers of a group (or replicas of an autoscaled one) that keep the
// mean per-event time of the workload as given within the tolerance of one job alone, and its
// shared links under the threshold. The search starts at the closed form's count, N t_GPU / t_ideal
// devices for N concurrent jobs, and closes its bracket as the job-cap search does.
#include "cli/plan/plan_probes.hpp"

namespace sonicsim::cli {

// `group`: the index of the server group to size; `max_servers`: the most servers (or replicas) to
// try (0: the closed form's count twice over, at least 4 more). Prints the answer; exit code 0, or 1
// when even the most servers leave the workload past the tolerance.
int plan_fewest_devices(const PlanContext& plan, int group, int max_servers);

}  // namespace sonicsim::cli
