#pragma once
// plan's load search: the largest load whose mean per-event time stays within the tolerance of one
// job alone and whose shared links stay under the threshold. The load is the concurrent jobs of a
// static farm, or whatever --vary names (the jobs per wave, the submissions per hour, the jobs of a
// batch-system workload). The search starts at the closed form's knee (analysis/knee_search).
#include "cli/plan/load_axis.hpp"
#include "cli/plan/plan_probes.hpp"

namespace sonicsim::cli {

// Searches `axis` up to `max_value` (0: as far as the worker cores go) and prints the answer; exit code.
int plan_job_cap(const PlanContext& plan, const LoadAxis& axis, int max_value);

// The jobs a run kept running on average: a static farm's jobs, or a batch system's held cores.
double mean_running_jobs(const Summary& s, const Scenario& scenario, int static_jobs);

}  // namespace sonicsim::cli
