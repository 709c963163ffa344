#pragma once
// plan on a batch-system workload: the answer at the workload as the user gave it (its per-event
// time with its interval, queue wait, device utilisation, peak running jobs) against one job alone.
// A batch system's load is what its submissions make of it, so the load search varies what the
// workload varies, named with --vary (job_cap.hpp), never the cores as jobs.
#include "cli/plan/plan_probes.hpp"

namespace sonicsim::cli {

// Prints the answer; exit code 0.
int plan_workload_as_given(const PlanContext& plan);

}  // namespace sonicsim::cli
