#pragma once
// `sonicsim plan` on an autoscaled scenario: the cheapest threshold and max-replica setting in a grid
// that meets a target mean per-event time.
#include <vector>

#include "cli/plan/plan_probes.hpp"

namespace sonicsim::cli {

struct AutoscalingGrid {
  std::vector<double> thresholds;  // the autoscaler's (and the gate's) threshold
  std::vector<int> max_replicas;
  double target_event_s = 0;
};

// Simulates every point of the grid, as plan's other searches probe (the same stopping rule, the same
// per-event time, unsound runs never meeting the target), and prints a table and the cheapest point
// that meets the target; exit code 0, or 1 when no point meets it.
int plan_autoscaling(const PlanContext& plan, const AutoscalingGrid& grid);

}  // namespace sonicsim::cli
