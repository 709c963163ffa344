#pragma once
// The points of a sweep whose scenario the reader refuses, found before any point runs: loading a
// scenario costs little next to simulating it, and a refusal said once, with the points it covers,
// reads better than the same failure once per point after the others have run.
#include <functional>
#include <string>
#include <vector>

#include "cli/sweep/sweep_grid.hpp"

namespace sonicsim::cli {

struct RefusedGroup {
  std::string reason;       // the reader's one-line error
  std::vector<int> points;  // in increasing order
};

// Calls `check(point)` for points 0 to count - 1; a point whose check throws is refused with what
// it threw. Groups by reason, in the order of each reason's first point. Out of memory is not a
// refusal: it propagates.
std::vector<RefusedGroup> refused_points(int count, const std::function<void(int point)>& check);

// Which points of `grid` (sweep_points(axes)) `points` are, as a reader would say it:
// "/workload/jobs=401..1000 at every /platform/wan/latency"; points that are not a sub-grid are
// listed, the first few of them.
std::string describe_points(const std::vector<SweepAxis>& axes, const std::vector<std::vector<std::string>>& grid,
                            const std::vector<int>& points);

}  // namespace sonicsim::cli
