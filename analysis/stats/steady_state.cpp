#include "analysis/stats/steady_state.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <boost/math/distributions/students_t.hpp>

namespace sonicsim::stats {

Truncation mser5(const std::vector<double>& series) { return mser(series, 5); }

Truncation mser(const std::vector<double>& series, std::size_t batch) {
  if (batch == 0) return {};
  const std::size_t m = series.size() / batch;
  if (m < kMinMserBatches) return {};
  // Batch means, centred on their overall mean so that the sums of squares below do not cancel.
  std::vector<double> z(m);
  for (std::size_t j = 0; j < m; ++j)
    z[j] = std::accumulate(series.begin() + static_cast<std::ptrdiff_t>(j * batch),
                           series.begin() + static_cast<std::ptrdiff_t>((j + 1) * batch), 0.0) /
           static_cast<double>(batch);
  const double centre = std::accumulate(z.begin(), z.end(), 0.0) / static_cast<double>(m);
  for (double& x : z) x -= centre;
  // Suffix sums give every MSER(d) in one pass from the end.
  std::vector<double> sum(m + 1, 0.0), squares(m + 1, 0.0);
  for (std::size_t j = m; j-- > 0;) {
    sum[j] = sum[j + 1] + z[j];
    squares[j] = squares[j + 1] + z[j] * z[j];
  }
  const std::size_t limit = m / 2;
  std::vector<double> statistic(limit + 1);
  for (std::size_t d = 0; d <= limit; ++d) {
    const double kept = static_cast<double>(m - d);
    statistic[d] = std::max(0.0, squares[d] - sum[d] * sum[d] / kept) / (kept * kept);
  }
  // Values within rounding of the smallest are ties (a constant series gives rounding noise only).
  const double smallest = *std::min_element(statistic.begin(), statistic.end());
  const double tie = 1e-9 * smallest + 1e-24 * centre * centre;
  std::size_t best = 0;
  while (statistic[best] > smallest + tie) ++best;
  return {best * batch, best == limit};
}

double Interval::relative_half_width() const {
  return mean != 0 ? half_width / std::fabs(mean) : std::numeric_limits<double>::infinity();
}

double student_t_quantile(double probability, double degrees_of_freedom) {
  return boost::math::quantile(boost::math::students_t(degrees_of_freedom), probability);
}

std::optional<Interval> mean_interval(const std::vector<double>& values, double confidence) {
  const std::size_t n = values.size();
  if (n < 2) return std::nullopt;
  const double mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(n);
  double ss = 0;
  for (double v : values) ss += (v - mean) * (v - mean);
  const double s = std::sqrt(ss / static_cast<double>(n - 1));
  const double t = student_t_quantile(1 - (1 - confidence) / 2, static_cast<double>(n - 1));
  return Interval{mean, t * s / std::sqrt(static_cast<double>(n)), n, 1};
}

std::optional<Interval> batch_means_interval(const std::vector<double>& series, std::size_t batches, double confidence,
                                             std::size_t min_batch_size) {
  if (batches < 2) return std::nullopt;
  const std::size_t size = series.size() / batches;
  if (size < std::max<std::size_t>(min_batch_size, 1)) return std::nullopt;
  std::vector<double> means(batches);
  for (std::size_t b = 0; b < batches; ++b)
    means[b] = std::accumulate(series.begin() + static_cast<std::ptrdiff_t>(b * size),
                               series.begin() + static_cast<std::ptrdiff_t>((b + 1) * size), 0.0) /
               static_cast<double>(size);
  std::optional<Interval> interval = mean_interval(means, confidence);
  interval->batch_size = size;
  return interval;
}

}  // namespace sonicsim::stats
