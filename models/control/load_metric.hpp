#pragma once
// SuperSONIC's server load metric (helm/supersonic templates/_helpers/_scaling-metric.tpl, restated
// in docs/reference/supersonic.md §1.5), the one its Envoy gate and KEDA both read:
//
//   sum(rate(nv_inference_queue_duration_us[30s])) / sum(rate(nv_inference_exec_count[30s]) * 1000 + 0.001)
//
// over every series of the deployment: one per pod, model and GPU (Triton labels its counters with
// model, version and gpu_uuid), so the 0.001 is added once per denominator series. PromQL's sum
// leaves out series with no rate (fewer than two samples in the window); with none left it has no
// value. The result is in milliseconds: mean queue time per request times requests per execution.
#include <optional>
#include <span>
#include <vector>

#include "models/control/prometheus_rate.hpp"

namespace sonicsim {

using PromSeries = std::vector<PromSample>;

// sum(rate(series[range])) at `at_ms`: no value when no series has one.
std::optional<double> sum_of_rates(std::span<const PromSeries> series, std::int64_t at_ms, std::int64_t range_ms);

std::optional<double> supersonic_load_ms(std::span<const PromSeries> queue_duration_us,
                                         std::span<const PromSeries> exec_count, std::int64_t at_ms,
                                         std::int64_t range_ms = 30'000);

// The same ratio taken per series and then summed, as Purdue Geddes's serverLoadMetric writes it
// (SuperSONIC values/values-geddes-cms.yaml at e578801):
//
//   sum by (release) (rate(nv_inference_queue_duration_us[30s]) / (rate(nv_inference_exec_count[30s]) * 1000 + 0.001))
//
// PromQL's "/" pairs the two series of each pod, model and GPU (same labels once rate() drops the
// names), so with n equally loaded pods it reads n times supersonic_load_ms. A series without a
// rate on either side drops out; with none left, no value. `queue_duration_us[i]` and
// `exec_count[i]` are the two counters of one series.
std::optional<double> supersonic_load_summed_ms(std::span<const PromSeries> queue_duration_us,
                                                std::span<const PromSeries> exec_count, std::int64_t at_ms,
                                                std::int64_t range_ms = 30'000);

}  // namespace sonicsim
