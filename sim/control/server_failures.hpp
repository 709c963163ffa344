#pragma once
// Server failures and restarts (ServerFailures of a server group): an actor per failing server, on
// its host, fails it at the scenario's times or after up times drawn from its own stream, refuses
// what reaches it while it is down, and restarts it after the repair time. The balancer learns of
// each change at once, or through the proxy's DNS refresh when there is a proxy.
#include <memory>
#include <vector>

#include "models/control/request_balancer.hpp"
#include "models/scenario/scenario.hpp"
#include "sim/control/proxy.hpp"
#include "sim/platform.hpp"
#include "sim/recorder.hpp"
#include "sim/server/inference_server.hpp"

namespace sonicsim::sim {

void start_server_failures(const Scenario& scenario, const FarmPlatform& farm,
                           std::vector<std::unique_ptr<InferenceServer>>& servers, RequestBalancer& balancer,
                           Proxy* proxy, Recorder& recorder);

}  // namespace sonicsim::sim
