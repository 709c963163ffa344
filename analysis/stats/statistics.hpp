#pragma once
#include <vector>

namespace sonicsim::stats {

struct Description {
  std::size_t count = 0;
  double mean = 0, stddev = 0, min = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
  bool operator==(const Description&) const = default;
};

// Quantile of sorted data with linear interpolation between order statistics (Hyndman & Fan
// type 7, the default of R and NumPy). q in [0, 1].
double quantile_sorted(const std::vector<double>& sorted, double q);

// Sample mean, (n-1) standard deviation, extremes and the usual percentiles; all zero when empty.
Description describe(std::vector<double> values);

}  // namespace sonicsim::stats
