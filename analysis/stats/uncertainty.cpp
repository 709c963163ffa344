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
  if (!(total > 1e-24 * std::max(1.0, mean * mean) * static_cast<double>(n)))
    return std::numeric_limits<double>::quiet_NaN();
  // E[Y | X]: each alternative's mean; for a range, a straight line in each of k equal bins of its
  // probability (k = floor(sqrt(n) / 2), at least 1), so that a smooth trend is not cut into steps.
  const bool range = alternatives == 0;
  const std::size_t bins =
      range ? std::max<std::size_t>(1, static_cast<std::size_t>(std::floor(std::sqrt(static_cast<double>(n)) / 2)))
            : alternatives;
  std::vector<std::vector<std::size_t>> members(bins);
  for (std::size_t i = 0; i < n; ++i)
    members[std::min(bins - 1, static_cast<std::size_t>(std::max(0.0, u[i]) * static_cast<double>(bins)))].push_back(i);
  double explained = 0;
  std::size_t parameters = 0;
  for (const auto& m : members) {
    if (m.empty()) continue;
    double ym = 0, um = 0;
    for (std::size_t i : m) ym += y[i], um += u[i];
    ym /= static_cast<double>(m.size());
    um /= static_cast<double>(m.size());
    double suu = 0, suy = 0;
    for (std::size_t i : m) suu += (u[i] - um) * (u[i] - um), suy += (u[i] - um) * (y[i] - ym);
    const double slope = range && m.size() >= 3 && suu > 0 ? suy / suu : 0;
    parameters += range && m.size() >= 3 ? 2 : 1;
    for (std::size_t i : m) {
      const double fitted = ym + slope * (u[i] - um);
      explained += (fitted - mean) * (fitted - mean);
    }
  }
  const double raw = explained / total;
  if (parameters < 2 || n <= parameters) return std::clamp(raw, 0.0, 1.0);
  // Adjusted like R^2 for its parameters beyond the mean: an unknown that does nothing reads about 0.
  const double adjusted = 1 - (1 - raw) * static_cast<double>(n - 1) / static_cast<double>(n - parameters);
  return std::clamp(adjusted, 0.0, 1.0);
}

}  // namespace sonicsim::stats
