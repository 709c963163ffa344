#include "models/control/prometheus_rate.hpp"

#include <algorithm>

namespace sonicsim {
namespace {

// extrapolatedRate(..., isCounter = true, isRate).
std::optional<double> extrapolated(std::span<const PromSample> all, std::int64_t at_ms, std::int64_t range_ms,
                                   bool is_rate) {
  const std::int64_t range_start = at_ms - range_ms;
  const auto first = std::upper_bound(all.begin(), all.end(), range_start,
                                      [](std::int64_t t, const PromSample& s) { return t < s.t_ms; });
  const auto end =
      std::upper_bound(all.begin(), all.end(), at_ms, [](std::int64_t t, const PromSample& s) { return t < s.t_ms; });
  if (end - first < 2) return std::nullopt;
  const std::span<const PromSample> samples(first, end);
  const PromSample& head = samples.front();
  const PromSample& tail = samples.back();

  double result = tail.value - head.value;
  double previous = head.value;
  for (const PromSample& s : samples) {  // a drop is a counter reset: the counter restarted from 0
    if (s.value < previous) result += previous;
    previous = s.value;
  }

  double to_start = static_cast<double>(head.t_ms - range_start) / 1000;
  double to_end = static_cast<double>(at_ms - tail.t_ms) / 1000;
  const double sampled = static_cast<double>(tail.t_ms - head.t_ms) / 1000;
  const double average_gap = sampled / static_cast<double>(samples.size() - 1);
  // Extrapolate to an edge only if the samples reach near it (within 1.1 average gaps); otherwise
  // assume the series starts or ends half a gap beyond its first or last sample.
  const double threshold = average_gap * 1.1;
  if (to_start >= threshold) to_start = average_gap / 2;
  if (result > 0 && head.value >= 0) {  // a counter is not extrapolated below zero
    const double to_zero = sampled * (head.value / result);
    to_start = std::min(to_start, to_zero);
  }
  if (to_end >= threshold) to_end = average_gap / 2;
  double factor = (sampled + to_start + to_end) / sampled;
  if (is_rate) factor /= static_cast<double>(range_ms) / 1000;
  return result * factor;
}

}  // namespace

std::optional<double> prometheus_increase(std::span<const PromSample> samples, std::int64_t at_ms,
                                          std::int64_t range_ms) {
  return extrapolated(samples, at_ms, range_ms, false);
}

std::optional<double> prometheus_rate(std::span<const PromSample> samples, std::int64_t at_ms, std::int64_t range_ms) {
  return extrapolated(samples, at_ms, range_ms, true);
}

}  // namespace sonicsim
