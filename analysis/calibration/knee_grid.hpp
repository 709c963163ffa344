#pragma once
// The grid search of the knee fit (latency_fit.hpp). Its cost at a knee k is the least-squares cost
// of latency ~ flat + slope * max(0, batch - k) with relative residuals; an exact evaluation is a QR
// over every point, and the grid has 64 knees per gap between measured batch sizes, so evaluating
// it everywhere is quadratic in the points (100,000 batch sizes: hours). Here each grid knee gets an
// approximate cost in O(1) from running weighted moments, and only the knees whose approximate cost
// could, within its error bound, beat the best exact cost found are evaluated exactly, at most
// kMaxExactKneeCosts of them. The choice is the exhaustive search's (the first grid knee of least
// exact cost) unless more knees than that come within the bound of the best: then they fit equally
// well to within rounding (a constant latency fits every knee), and the search takes the best of the
// first of them in order of approximate cost, then of knee.
#include <cstddef>
#include <functional>
#include <vector>

#include "analysis/calibration/latency_points.hpp"

namespace sonicsim::calibration {

inline constexpr int kKneeStepsPerGap = 64;
inline constexpr std::size_t kMaxExactKneeCosts = 64;

// The grid: kKneeStepsPerGap geometric steps from each distinct batch size to the next, but for
// the last gap (the knee stays below the second-largest batch, so that two batch sizes determine the
// slope). Knee i lies in gap i / kKneeStepsPerGap.
std::size_t knee_grid_size(const std::vector<double>& distinct_batches);
double grid_knee(const std::vector<double>& distinct_batches, std::size_t i);

// The cost at every grid knee from weighted moments: a weighted linear regression of the latency y
// on x = max(0, batch - knee) with weights 1/y^2 (the relative residuals), whose least cost is
// Syy - Sxy^2 / Sxx, or Syy (the best constant) where the slope would be negative. The knees are
// stepped by multiplication rather than each raised to its power, a few ulps off grid_knee.
// `error_bound`: how far an approximate cost may be from the exact one at grid_knee.
struct ApproximateKneeCosts {
  std::vector<double> cost;
  double error_bound = 0;
};
ApproximateKneeCosts approximate_knee_costs(const std::vector<LatencyPoint>& points,
                                            const std::vector<double>& distinct_batches);

// The index of the first grid knee of least `exact_cost`, evaluating it only where the approximate
// cost allows (and at most kMaxExactKneeCosts times); `best_cost` receives its exact cost.
std::size_t best_grid_knee(const ApproximateKneeCosts& approximate,
                           const std::function<double(std::size_t)>& exact_cost, double& best_cost);

}  // namespace sonicsim::calibration
