#include "models/request_balancer.hpp"

namespace sonicsim {

RequestBalancer::RequestBalancer(LoadBalancing policy, std::vector<std::vector<int>> servers_for_model, int servers)
    : policy_(policy),
      servers_for_model_(std::move(servers_for_model)),
      next_(servers_for_model_.size(), 0),
      active_(static_cast<std::size_t>(servers), 0) {}

int RequestBalancer::pick(int model, int job, Rng* rng) {
  const auto m = static_cast<std::size_t>(model);
  const std::vector<int>& servers = servers_for_model_[m];
  const std::size_t n = servers.size();
  int chosen = servers.front();
  switch (policy_) {
    case LoadBalancing::PerJob: chosen = servers[static_cast<std::size_t>(job) % n]; break;
    case LoadBalancing::RoundRobin: chosen = servers[next_[m]++ % n]; break;
    case LoadBalancing::Random: chosen = servers[rng->below(n)]; break;
    case LoadBalancing::LeastRequest: {
      // Envoy, source/extensions/load_balancing_policies/least_request/least_request_lb.cc,
      // LeastRequestLoadBalancer::unweightedHostPick: choice_count (2) draws of random() % n, with
      // replacement; a later draw replaces the candidate only with strictly fewer rq_active.
      chosen = servers[rng->below(n)];
      const int second = servers[rng->below(n)];
      if (active(second) < active(chosen)) chosen = second;
      break;
    }
  }
  ++active_[static_cast<std::size_t>(chosen)];
  return chosen;
}

}  // namespace sonicsim
