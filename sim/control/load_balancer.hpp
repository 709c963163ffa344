#pragma once
// The request balancer of a farm: models/control/request_balancer.hpp over the servers of its platform.
#include "models/control/request_balancer.hpp"
#include "models/scenario/scenario.hpp"
#include "sim/platform.hpp"

namespace sonicsim::sim {

RequestBalancer make_balancer(const Scenario& scenario, const FarmPlatform& platform);

}  // namespace sonicsim::sim
