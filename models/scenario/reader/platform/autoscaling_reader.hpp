#pragma once
// A server group's "autoscaling": KEDA's trigger and the HPA's behaviour.
#include "models/io/json/json_reader.hpp"
#include "models/scenario/autoscaling.hpp"

namespace sonicsim {

// `pool`: the group's count of servers, the most replicas that can be ready at the start.
AutoscalingSpec read_autoscaling(const JsonNode& node, int pool);

}  // namespace sonicsim
