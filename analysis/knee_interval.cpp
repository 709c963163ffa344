#include "analysis/knee_interval.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/stats/steady_state.hpp"

namespace sonicsim {
namespace {

using Curve = std::vector<std::pair<double, double>>;  // (load, per-event time), load ascending

// The smallest load at which the curve passes `level`, between the points that straddle it; the
// last point's load if it never does.
double first_above(const Curve& c, double level) {
  if (c.front().second > level) return c.front().first;
  for (std::size_t i = 1; i < c.size(); ++i)
    if (c[i].second > level) {
      const auto [x0, y0] = c[i - 1];
      const auto [x1, y1] = c[i];
      return x0 + (x1 - x0) * (level - y0) / (y1 - y0);
    }
  return c.back().first;
}

// The largest load at which the curve is at most `level`, from the right; the first point's load if
// it never is.
double last_at_most(const Curve& c, double level) {
  if (c.back().second <= level) return c.back().first;
  for (std::size_t i = c.size() - 1; i-- > 0;)
    if (c[i].second <= level) {
      const auto [x0, y0] = c[i];
      const auto [x1, y1] = c[i + 1];
      return x0 + (x1 - x0) * (level - y0) / (y1 - y0);
    }
  return c.front().first;
}

}  // namespace

std::optional<EndEstimate> replicated(const std::vector<double>& event_s) {
  const auto interval = stats::mean_interval(event_s);
  if (!interval) return std::nullopt;
  return EndEstimate{interval->mean, interval->half_width, static_cast<int>(event_s.size())};
}

std::optional<KneeBand> knee_band(int lo, const EndEstimate& at_lo, int hi, const EndEstimate& at_hi,
                                  const std::vector<ProbeTime>& probes, double baseline_s, double threshold_s) {
  if (hi <= lo) return std::nullopt;
  std::map<int, double> points{{1, baseline_s}};
  for (const ProbeTime& p : probes) points[p.x] = p.event_s;
  points[lo] = at_lo.mean_s;
  points[hi] = at_hi.mean_s;
  const Curve curve(points.begin(), points.end());
  KneeBand b;
  b.half_width_s = std::max(at_lo.half_width_s, at_hi.half_width_s);
  double highest_so_far = -INFINITY;
  for (const auto& [x, t] : curve) {
    b.scatter_s = std::max(b.scatter_s, highest_so_far - t);
    highest_so_far = std::max(highest_so_far, t);
  }
  b.uncertainty_s = std::max(b.half_width_s, b.scatter_s);
  b.at = first_above(curve, threshold_s);
  // The largest whole load within: the floor of where each shifted curve crosses the threshold.
  b.low = std::max(1, static_cast<int>(std::floor(first_above(curve, threshold_s - b.uncertainty_s))));
  b.high = std::max(b.low, static_cast<int>(std::floor(last_at_most(curve, threshold_s + b.uncertainty_s))));
  return b;
}

}  // namespace sonicsim
