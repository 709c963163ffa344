#include "sim/control/load_balancer.hpp"

namespace sonicsim::sim {

RequestBalancer make_balancer(const Scenario& scenario, const FarmPlatform& platform) {
  std::vector<std::vector<int>> servers_for_model(scenario.models.size());
  for (std::size_t s = 0; s < platform.servers.size(); ++s) {
    const ServerGroup& group = scenario.platform.servers[platform.servers[s].group];
    for (const std::string& model : group.models)
      servers_for_model[static_cast<std::size_t>(scenario.model_index(model))].push_back(static_cast<int>(s));
  }
  return RequestBalancer(scenario.platform.load_balancing, std::move(servers_for_model),
                         static_cast<int>(platform.servers.size()));
}

}  // namespace sonicsim::sim
