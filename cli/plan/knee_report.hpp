#pragma once
// What plan says of its knee's uncertainty (analysis/knee_interval.hpp): the 95% range in the
// search's load units and what it rests on. A bracket end without an interval of its own is
// replicated: the same load again with other seeds, in parallel.
#include <functional>
#include <string>

#include "analysis/knee_search.hpp"
#include "cli/plan/plan_probes.hpp"

namespace sonicsim::cli {

// Runs of the same load with other seeds besides the probe's own: with it, five per end (a t-interval
// with four degrees of freedom).
inline constexpr int kReplications = 4;

// `settings(x)`: the overrides that give load x; `describe(x)`: "559 jobs", "jobs_per_wave 9".
void print_knee_interval(const PlanContext& plan, const KneeSearch& knee, const KneeCriteria& criteria,
                         const std::function<Overrides(int)>& settings,
                         const std::function<std::string(int)>& describe);

}  // namespace sonicsim::cli
