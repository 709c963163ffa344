#include "analysis/calibration/knee_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace sonicsim::calibration {
namespace {

// Weighted moments of the points with batch sizes above a knee, kept as points are added from the
// largest batch down (West's weighted update, Comm. ACM 22(9), 1979: no sums of squares that cancel).
struct ActiveMoments {
  double weight = 0;  // A: sum of v = 1/y^2
  double mean_b = 0;  // m: weighted mean batch size
  double mean_y = 0;  // weighted mean latency
  double m2_b = 0;    // sum v (b - m)^2
  double co_by = 0;   // sum v (b - m)(y - mean_y)

  void add(double b, double y, double v) {
    weight += v;
    const double db = b - mean_b;
    mean_b += v * db / weight;
    mean_y += v * (y - mean_y) / weight;
    m2_b += v * db * (b - mean_b);
    co_by += v * db * (y - mean_y);
  }
};

}  // namespace

std::size_t knee_grid_size(const std::vector<double>& batches) {
  return batches.size() > 2 ? (batches.size() - 2) * kKneeStepsPerGap : 0;
}

double grid_knee(const std::vector<double>& batches, std::size_t i) {
  const std::size_t j = i / kKneeStepsPerGap, s = i % kKneeStepsPerGap;
  return batches[j] * std::pow(batches[j + 1] / batches[j], static_cast<double>(s) / kKneeStepsPerGap);
}

ApproximateKneeCosts approximate_knee_costs(const std::vector<LatencyPoint>& points,
                                            const std::vector<double>& batches) {
  // All points: the weighted mean latency and its spread, Syy (the best constant's cost).
  double total_weight = 0, mean_y = 0;
  for (const auto& p : points) {
    const double v = 1 / (p.latency_s * p.latency_s);
    total_weight += v;
    mean_y += v * (p.latency_s - mean_y) / total_weight;
  }
  double syy = 0;
  for (const auto& p : points) syy += std::pow((p.latency_s - mean_y) / p.latency_s, 2);

  std::vector<std::size_t> order(points.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return points[a].batch > points[b].batch; });

  ApproximateKneeCosts out;
  out.cost.assign(knee_grid_size(batches), 0);
  ActiveMoments active;
  std::size_t next = 0;  // into `order`: the largest batch not yet active
  // Gap j holds knees j * steps to (j + 1) * steps - 1, in [b_j, b_j+1): the points with batch >=
  // b_j+1 are active (those at b_j have x = 0 at the gap's first knee and are left out).
  for (std::size_t j = out.cost.size() / kKneeStepsPerGap; j-- > 0;) {
    while (next < order.size() && points[order[next]].batch >= batches[j + 1]) {
      const LatencyPoint& p = points[order[next++]];
      active.add(p.batch, p.latency_s, 1 / (p.latency_s * p.latency_s));
    }
    const double step = std::pow(batches[j + 1] / batches[j], 1.0 / kKneeStepsPerGap);
    double knee = batches[j];
    for (std::size_t i = j * kKneeStepsPerGap; i < (j + 1) * kKneeStepsPerGap; ++i, knee *= step) {
      const double d = active.mean_b - knee;  // mean x of the active points
      const double sxx = active.m2_b + active.weight * d * d * (total_weight - active.weight) / total_weight;
      const double sxy = active.co_by + d * active.weight * (active.mean_y - mean_y);
      out.cost[i] = sxy >= 0 && sxx > 0 ? std::max(0.0, syy - sxy * sxy / sxx) : syy;
    }
  }
  // Rounding in the moments (about n ulps of Syy) and in the exact QR cost: a bound far above both.
  out.error_bound =
      1e-9 * syy + 64 * std::numeric_limits<double>::epsilon() * static_cast<double>(points.size()) * (1 + syy);
  return out;
}

std::size_t best_grid_knee(const ApproximateKneeCosts& approximate,
                           const std::function<double(std::size_t)>& exact_cost, double& best_cost) {
  // Only knees within twice the bound of the least approximate cost can win: the best exact cost is
  // at most that knee's, which is within the bound of its approximation.
  const double least = *std::min_element(approximate.cost.begin(), approximate.cost.end());
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < approximate.cost.size(); ++i)
    if (approximate.cost[i] <= least + 2 * approximate.error_bound) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return approximate.cost[a] < approximate.cost[b]; });
  std::size_t best = order.front();
  best_cost = exact_cost(best);
  for (std::size_t n = 1; n < order.size() && n < kMaxExactKneeCosts; ++n) {
    const std::size_t i = order[n];
    // Every knee from here on has an exact cost above the best one: none can win or tie.
    if (approximate.cost[i] - approximate.error_bound > best_cost) break;
    const double cost = exact_cost(i);
    if (cost < best_cost || (cost == best_cost && i < best)) best = i, best_cost = cost;
  }
  return best;
}

}  // namespace sonicsim::calibration
