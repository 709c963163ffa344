#pragma once
// One CSV row per sweep point: its parameters, whether it ran, and the summary metrics a planner
// compares across points.
#include <optional>
#include <string>
#include <vector>

#include "analysis/summary/summary.hpp"

namespace sonicsim {

struct SweepPointResult {
  std::vector<std::string> values;  // one per axis
  std::optional<Summary> summary;   // the run's; absent when it failed or did not run
  std::string error;                // why it failed
};

// Header: point, the axis pointers, status (ok, failed, missing), the metrics, error.
std::string sweep_csv(const std::vector<std::string>& pointers, const std::vector<SweepPointResult>& points);

}  // namespace sonicsim
