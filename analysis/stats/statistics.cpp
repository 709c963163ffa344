#include "analysis/stats/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace sonicsim::stats {

double quantile_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double h = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

Description describe(std::vector<double> values) {
  Description d;
  d.count = values.size();
  if (values.empty()) return d;
  std::sort(values.begin(), values.end());
  d.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(d.count);
  double ss = 0;
  for (double v : values) ss += (v - d.mean) * (v - d.mean);
  d.stddev = d.count > 1 ? std::sqrt(ss / static_cast<double>(d.count - 1)) : 0;
  d.min = values.front();
  d.max = values.back();
  d.p50 = quantile_sorted(values, 0.50);
  d.p90 = quantile_sorted(values, 0.90);
  d.p99 = quantile_sorted(values, 0.99);
  return d;
}

}  // namespace sonicsim::stats
