#include "models/workload/occupancy.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace sonicsim {
namespace {

constexpr double kUnbounded = std::numeric_limits<double>::infinity();

// B / tau(B); an execution that takes no time has no finite rate.
double rate_at(const KernelLatency& latency, double units) {
  const double tau = kernel_latency_s(latency, units);
  return tau > 0 ? units / tau : kUnbounded;
}

// The rate that ever larger batches tend to: one over the curve's last slope (+inf where tau stops
// growing, so that batches get cheaper per unit without end).
double limit_rate(const KernelLatency& latency) {
  double slope = 0;
  if (const auto* affine = std::get_if<AffineLatency>(&latency)) {
    slope = affine->per_item_s;
  } else if (const auto* knee = std::get_if<KneeLatency>(&latency)) {
    slope = knee->per_item_s;
  } else {
    const auto& points = std::get<TableLatency>(latency).points;
    if (points.size() >= 2) {
      const auto& [b0, t0] = points[points.size() - 2];
      const auto& [b1, t1] = points.back();
      slope = (t1 - t0) / (b1 - b0);
    }
  }
  return slope > 0 ? 1 / slope : kUnbounded;
}

}  // namespace

double OccupancyCurve::at(double units, double tau_s) const {
  if (units >= full_units) return 1;
  if (!(tau_s > 0) || std::isinf(peak_rate)) return 0;
  return std::min(1.0, units / (tau_s * peak_rate));
}

// tau is linear between its breakpoints (affine: none; knee: the knee; table: its points), and on
// a linear piece c + s B the rate B / (c + s B) is monotone: its largest value over [1, B_max] is
// at 1, at a breakpoint, at B_max, or (unbounded) the limit of the last piece.
OccupancyCurve occupancy_curve(const KernelLatency& latency, double max_units) {
  std::vector<double> candidates{1};
  if (const auto* knee = std::get_if<KneeLatency>(&latency)) candidates.push_back(knee->knee_batch);
  if (const auto* table = std::get_if<TableLatency>(&latency))
    for (const auto& point : table->points) candidates.push_back(point.first);
  if (!std::isinf(max_units)) candidates.push_back(max_units);
  std::sort(candidates.begin(), candidates.end());
  OccupancyCurve curve;
  for (const double units : candidates) {
    if (units < 1 || units > max_units) continue;
    if (const double rate = rate_at(latency, units); rate > curve.peak_rate) {
      curve.peak_rate = rate;
      curve.full_units = units;
    }
  }
  if (std::isinf(max_units))
    if (const double limit = limit_rate(latency); limit > curve.peak_rate) {
      curve.peak_rate = limit;
      curve.full_units = kUnbounded;
    }
  return curve;
}

}  // namespace sonicsim
