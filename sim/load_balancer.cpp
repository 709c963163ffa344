#include "sim/load_balancer.hpp"

namespace sonicsim::sim {

LoadBalancer::LoadBalancer(const Scenario& scenario, const FarmPlatform& platform)
    : policy_(scenario.platform.load_balancing),
      servers_for_model_(scenario.models.size()),
      next_(scenario.models.size(), 0) {
  for (std::size_t s = 0; s < platform.servers.size(); ++s) {
    const ServerGroup& group = scenario.platform.servers[platform.servers[s].group];
    for (const std::string& model : group.models)
      servers_for_model_[scenario.model_index(model)].push_back(static_cast<int>(s));
  }
}

int LoadBalancer::pick(int model, int job) {
  const auto& servers = servers_for_model_[model];
  if (policy_ == LoadBalancing::PerJob) return servers[static_cast<std::size_t>(job) % servers.size()];
  return servers[next_[model]++ % servers.size()];
}

}  // namespace sonicsim::sim
