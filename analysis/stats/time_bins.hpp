#pragma once
// A total over simulated time (device busy seconds) kept in consecutive bins from t = 0. The bins
// widen by doubling as the run grows, so memory stays bounded whatever the run's length.
#include <cstddef>
#include <vector>

namespace sonicsim {

class TimeBins {
 public:
  explicit TimeBins(double initial_width_s = 1e-3, std::size_t max_bins = 4096);

  // Adds the length of [from_s, to_s) to the bins it covers (several, when it spans them).
  void add(double from_s, double to_s);

  double width_s() const { return width_s_; }
  const std::vector<double>& totals() const { return totals_; }

 private:
  void widen();

  double width_s_;
  std::size_t max_bins_;
  std::vector<double> totals_;
};

// The total in [from_s, to_s), each bin's total taken as spread evenly over it.
double total_between(double width_s, const std::vector<double>& totals, double from_s, double to_s);

}  // namespace sonicsim
