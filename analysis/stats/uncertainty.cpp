#include "analysis/stats/uncertainty.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/stats/statistics.hpp"

namespace sonicsim::stats {

Band band_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return {quantile_sorted(values, 0.5), quantile_sorted(values, 0.05), quantile_sorted(values, 0.95)};
}

double first_order_index(const std::vector<double>& u, const std::vector<double>& y, std::size_t alternatives) {
  const std::size_t n = y.size();
  if (n < 3 || u.size() != n) return std::numeric_limits<double>::quiet_NaN();
  double mean = 0;
  for (double v : y) mean += v;
  mean /= static_cast<double>(n);
  double total = 0;
  for (double v : y) total += (v - mean) * (v - mean);
  if (!(total > 1e-24 * std::max(1.0, mean * mean) * static_cast<double>(n))) return std::numeric_limits<double>::quiet_NaN();
  const std::size_t bins = alternatives > 0 ? alternatives
                                            : std::max<std::size_t>(2, static_cast<std::size_t>(std::floor(std::sqrt(n))));
  std::vector<double> sums(bins, 0.0), counts(bins, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto b = std::min(bins - 1, static_cast<std::size_t>(std::max(0.0, u[i]) * static_cast<double>(bins)));
    sums[b] += y[i];
    counts[b] += 1;
  }
  double between = 0;
  std::size_t used = 0;
  for (std::size_t b = 0; b < bins; ++b)
    if (counts[b] > 0) {
      const double m = sums[b] / counts[b];
      between += counts[b] * (m - mean) * (m - mean);
      ++used;
    }
  const double raw = between / total;
  if (used < 2 || n <= used) return raw;
  // Adjusted like R^2 for used - 1 parameters: an unknown that does nothing reads about 0.
  const double adjusted = 1 - (1 - raw) * static_cast<double>(n - 1) / static_cast<double>(n - used);
  return std::clamp(adjusted, 0.0, 1.0);
}

}  // namespace sonicsim::stats
