#pragma once
// serverLoadMetric, the PromQL query SuperSONIC's Envoy gate and KEDA trigger both send to
// Prometheus (templates/_helpers/_scaling-metric.tpl, "supersonic.defaultMetric"), recognised as one
// of the metrics sonicsim evaluates. sonicsim does not evaluate PromQL: it knows the chart's default
// query (the value "", or that query written out) and the per-series form of Purdue Geddes's values
// file, each with its rate() window. Spaces and line breaks do not matter, nor the release the
// label matcher names (sonicsim's Prometheus scrapes one deployment).
#include <optional>
#include <string_view>

#include "models/scenario/scaling_metric.hpp"

namespace sonicsim::supersonic {

struct LoadMetricQuery {
  ScalingMetric metric = ScalingMetric::SupersonicLoad;
  double window_s = 30;
};

// The metric `query` computes, or nullopt when it is not a form sonicsim knows.
std::optional<LoadMetricQuery> recognise_load_metric(std::string_view query);

}  // namespace sonicsim::supersonic
