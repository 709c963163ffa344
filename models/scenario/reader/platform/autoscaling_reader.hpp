#pragma once
// A server group's "autoscaling": KEDA's trigger and the HPA's behaviour.
#include "models/io/json/json_reader.hpp"
#include "models/scenario/autoscaling.hpp"

namespace sonicsim {

// One of the metrics Prometheus answers (scaling_metric.hpp), by its name in a scenario; the
// saturation gate reads its own with it.
ScalingMetric read_scaling_metric(const JsonNode& node);

// `pool`: the group's count of servers, the most replicas that can be ready at the start.
AutoscalingSpec read_autoscaling(const JsonNode& node, int pool);

}  // namespace sonicsim
