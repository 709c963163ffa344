#pragma once
// One CSV row per sweep point: its parameters, whether it ran, and the summary metrics a planner
// compares across points.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sonicsim {

struct SweepPointResult {
  std::vector<std::string> values;         // one per axis
  std::optional<nlohmann::json> summary;   // summary.json of the run; absent when it failed or did not run
  std::string error;                       // why it failed
};

// Header: point, the axis pointers, status (ok, failed, missing), the metrics, error.
std::string sweep_csv(const std::vector<std::string>& pointers, const std::vector<SweepPointResult>& points);

}  // namespace sonicsim
