#include "models/control/request_balancer.hpp"

#include <algorithm>

namespace sonicsim {

RequestBalancer::RequestBalancer(LoadBalancing policy, std::vector<std::vector<int>> servers_for_model, int servers)
    : policy_(policy),
      servers_for_model_(std::move(servers_for_model)),
      ready_for_model_(servers_for_model_),
      ready_(static_cast<std::size_t>(servers), true),
      next_(servers_for_model_.size(), 0),
      active_(static_cast<std::size_t>(servers), 0) {}

void RequestBalancer::set_ready(int server, bool ready) {
  if (ready_[static_cast<std::size_t>(server)] == ready) return;
  ready_[static_cast<std::size_t>(server)] = ready;
  for (std::size_t m = 0; m < servers_for_model_.size(); ++m) {
    ready_for_model_[m].clear();
    for (int s : servers_for_model_[m])
      if (ready_[static_cast<std::size_t>(s)]) ready_for_model_[m].push_back(s);
  }
}

int RequestBalancer::pick(int model, int job, Rng* rng) {
  const auto m = static_cast<std::size_t>(model);
  return choose(policy_ == LoadBalancing::PerJob ? servers_for_model_[m] : ready_for_model_[m], m, job, rng);
}

int RequestBalancer::pick_other(int model, int job, Rng* rng, int excluded) {
  const auto m = static_cast<std::size_t>(model);
  std::vector<int> others;
  for (int s : ready_for_model_[m])
    if (s != excluded) others.push_back(s);
  return choose(others, m, job, rng);
}

int RequestBalancer::choose(const std::vector<int>& servers, std::size_t m, int job, Rng* rng) {
  const std::size_t n = servers.size();
  if (n == 0) return -1;
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
