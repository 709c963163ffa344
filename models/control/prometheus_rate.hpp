#pragma once
// PromQL's rate() and increase() over a counter's scraped samples, as Prometheus computes them
// (promql/functions.go, extrapolatedRate, Prometheus 3): the samples in the left-open range
// (t - range, t], counter resets added back, and the difference between the first and last sample
// extrapolated towards the range's edges. Timestamps in milliseconds, as Prometheus keeps them.
#include <cstdint>
#include <optional>
#include <span>

namespace sonicsim {

struct PromSample {
  std::int64_t t_ms = 0;
  double value = 0;
};

// `samples` in time order. No value (Prometheus returns no series) with fewer than two samples in
// the range.
std::optional<double> prometheus_increase(std::span<const PromSample> samples, std::int64_t at_ms,
                                          std::int64_t range_ms);
std::optional<double> prometheus_rate(std::span<const PromSample> samples, std::int64_t at_ms, std::int64_t range_ms);

}  // namespace sonicsim
