#pragma once
// Chooses the server that receives a request, among the servers that serve its model.
#include <vector>

#include "models/scenario.hpp"
#include "sim/platform.hpp"

namespace sonicsim::sim {

class LoadBalancer {
 public:
  LoadBalancer(const Scenario& scenario, const FarmPlatform& platform);

  bool serves(int model) const { return !servers_for_model_[model].empty(); }

  // per_job: a job always talks to the same server (job index modulo the model's servers), like a
  // job configured with one server address. round_robin: successive requests of the model rotate
  // over its servers, like a per-request proxy.
  int pick(int model, int job);

 private:
  LoadBalancing policy_;
  std::vector<std::vector<int>> servers_for_model_;
  std::vector<std::size_t> next_;
};

}  // namespace sonicsim::sim
