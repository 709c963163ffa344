#include "models/control/load_metric.hpp"

namespace sonicsim {

std::optional<double> sum_of_rates(std::span<const PromSeries> series, std::int64_t at_ms, std::int64_t range_ms) {
  std::optional<double> sum;
  for (const PromSeries& s : series)
    if (const auto r = prometheus_rate(s, at_ms, range_ms)) sum = sum.value_or(0) + *r;
  return sum;
}

std::optional<double> supersonic_load_ms(std::span<const PromSeries> queue_duration_us,
                                         std::span<const PromSeries> exec_count, std::int64_t at_ms,
                                         std::int64_t range_ms) {
  const auto queue = sum_of_rates(queue_duration_us, at_ms, range_ms);
  std::optional<double> executions;  // sum over series of (rate x 1000 + 0.001)
  for (const PromSeries& s : exec_count)
    if (const auto r = prometheus_rate(s, at_ms, range_ms)) executions = executions.value_or(0) + *r * 1000 + 0.001;
  if (!queue || !executions) return std::nullopt;
  return *queue / *executions;
}

std::optional<double> supersonic_load_summed_ms(std::span<const PromSeries> queue_duration_us,
                                                std::span<const PromSeries> exec_count, std::int64_t at_ms,
                                                std::int64_t range_ms) {
  std::optional<double> sum;
  for (std::size_t i = 0; i < queue_duration_us.size() && i < exec_count.size(); ++i) {
    const auto queue = prometheus_rate(queue_duration_us[i], at_ms, range_ms);
    const auto executions = prometheus_rate(exec_count[i], at_ms, range_ms);
    if (queue && executions) sum = sum.value_or(0) + *queue / (*executions * 1000 + 0.001);
  }
  return sum;
}

}  // namespace sonicsim
