#include "analysis/stats/time_bins.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim {

TimeBins::TimeBins(double initial_width_s, std::size_t max_bins)
    : width_s_(initial_width_s), max_bins_(std::max<std::size_t>(max_bins, 2)) {}

void TimeBins::widen() {
  std::vector<double> merged((totals_.size() + 1) / 2, 0.0);
  for (std::size_t i = 0; i < totals_.size(); ++i) merged[i / 2] += totals_[i];
  totals_ = std::move(merged);
  width_s_ *= 2;
}

void TimeBins::add(double from_s, double to_s) {
  if (!(to_s > from_s)) return;
  while (to_s > width_s_ * static_cast<double>(max_bins_)) widen();
  const auto last = static_cast<std::size_t>(std::min(std::floor(to_s / width_s_), double(max_bins_ - 1)));
  if (totals_.size() <= last) totals_.resize(last + 1, 0.0);
  for (auto bin = static_cast<std::size_t>(std::floor(from_s / width_s_)); bin <= last; ++bin) {
    const double start = static_cast<double>(bin) * width_s_;
    const double overlap = std::min(to_s, start + width_s_) - std::max(from_s, start);
    if (overlap > 0) totals_[bin] += overlap;
  }
}

double total_between(double width_s, const std::vector<double>& totals, double from_s, double to_s) {
  if (!(width_s > 0) || !(to_s > from_s)) return 0;
  double total = 0;
  const auto first = static_cast<std::size_t>(std::max(0.0, std::floor(from_s / width_s)));
  for (std::size_t bin = first; bin < totals.size(); ++bin) {
    const double start = static_cast<double>(bin) * width_s;
    if (start >= to_s) break;
    const double overlap = std::min(to_s, start + width_s) - std::max(from_s, start);
    if (overlap > 0) total += totals[bin] * overlap / width_s;
  }
  return total;
}

}  // namespace sonicsim
