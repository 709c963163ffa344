#include "analysis/knee_interval.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/stats/steady_state.hpp"

namespace sonicsim {

std::optional<EndEstimate> replicated(const std::vector<double>& event_s) {
  const auto interval = stats::mean_interval(event_s);
  if (!interval) return std::nullopt;
  return EndEstimate{interval->mean, interval->half_width, static_cast<int>(event_s.size())};
}

std::optional<KneeBand> knee_band(int lo, const EndEstimate& at_lo, int hi, const EndEstimate& at_hi,
                                  const std::vector<ProbeTime>& probes, double threshold_s) {
  if (hi <= lo) return std::nullopt;
  std::map<int, double> curve;  // load -> per-event time, the bracket's ends at their estimates
  for (const ProbeTime& p : probes) curve[p.x] = p.event_s;
  curve[lo] = at_lo.mean_s;
  curve[hi] = at_hi.mean_s;
  KneeBand b;
  b.half_width_s = std::max(at_lo.half_width_s, at_hi.half_width_s);
  double highest_so_far = -INFINITY;
  for (const auto& [x, t] : curve) {
    b.scatter_s = std::max(b.scatter_s, highest_so_far - t);
    highest_so_far = std::max(highest_so_far, t);
  }
  const double u = b.uncertainty_s = std::max(b.half_width_s, b.scatter_s);
  // The nearest probes surely within (below lo) and surely past (above hi).
  std::optional<std::pair<int, double>> below, above;
  for (const auto& [x, t] : curve) {
    if (x < lo && t + u < threshold_s) below = {x, t};
    if (x > hi && t - u > threshold_s && !above) above = {x, t};
  }
  b.slope_from_bracket = !below || !above;
  b.slope_s = b.slope_from_bracket ? (at_hi.mean_s - at_lo.mean_s) / (hi - lo)
                                   : (above->second - below->second) / (above->first - below->first);
  if (!(b.slope_s > 0)) return std::nullopt;
  const auto crossing = [&](double shift) { return lo + (threshold_s - (at_lo.mean_s + shift)) / b.slope_s; };
  b.at = crossing(0);
  // The largest whole load within: the floor of where each shifted line crosses the threshold.
  double low = std::floor(crossing(u)), high = std::floor(crossing(-u));
  if (below) low = std::max(low, static_cast<double>(below->first));
  if (above) high = std::min(high, static_cast<double>(above->first - 1));
  // A probe that contradicts the range takes it in: within above it, or past it below it.
  for (const ProbeTime& p : probes) {
    if (p.within && p.x > high) high = p.x;
    if (!p.within && p.x <= low) low = p.x - 1;
  }
  b.low = static_cast<int>(std::max(1.0, std::min(low, 2e9)));
  b.high = static_cast<int>(std::max(static_cast<double>(b.low), std::min(high, 2e9)));
  return b;
}

}  // namespace sonicsim
