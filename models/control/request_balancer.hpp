#pragma once
// Which server receives a request, among the servers that serve its model, under the scenario's
// policy. Pure bookkeeping: the simulation tells it when a request is sent and answered.
//   per_job      a job always talks to the same server (job index modulo the model's servers), like
//                a job configured with one server address (CMSSW SonicTriton without a proxy);
//   round_robin  successive requests of the model rotate over its servers (Envoy ROUND_ROBIN);
//   random       a server drawn uniformly from the job's balancing stream (Envoy RANDOM);
//   least_request Envoy LEAST_REQUEST with equal weights: two servers drawn with replacement, the
//                one with fewer active requests wins, a tie keeps the first draw.
// "Active" requests of a server are those sent to it and not yet answered, over all models and
// jobs: the per-host rq_active counter that every Envoy worker thread reads.
// Only servers marked ready are chosen (Envoy's host set: the servers its last DNS resolution
// returned), except under per_job: a job keeps its one address whether or not the server is up.
#include <cstdint>
#include <vector>

#include "models/workload/rng.hpp"

namespace sonicsim {

enum class LoadBalancing { PerJob, RoundRobin, Random, LeastRequest };

class RequestBalancer {
 public:
  // servers_for_model[m]: the servers (indices) that serve model m, in server order.
  RequestBalancer(LoadBalancing policy, std::vector<std::vector<int>> servers_for_model, int servers);

  bool serves(int model) const { return !servers_for_model_[static_cast<std::size_t>(model)].empty(); }

  // Whether the policy draws random numbers: then pick() needs the job's balancing stream.
  bool draws() const { return policy_ == LoadBalancing::Random || policy_ == LoadBalancing::LeastRequest; }

  // The server for a request of `model` sent by `job`; `rng` is the job's balancing stream (may be
  // null when the policy does not draw). The request counts as active there until answered().
  // -1 when no ready server serves the model (Envoy: "no healthy upstream").
  int pick(int model, int job, Rng* rng);
  // A server other than `excluded`, among the ready ones, by the same policy (per_job included): where a
  // client fails over to. -1 when there is none.
  int pick_other(int model, int job, Rng* rng, int excluded);

  void set_ready(int server, bool ready);
  int servers() const { return static_cast<int>(ready_.size()); }
  bool ready(int server) const { return ready_[static_cast<std::size_t>(server)]; }
  void answered(int server) { --active_[static_cast<std::size_t>(server)]; }
  // A request goes to `server` without a pick (a retry on the same server): it counts as active there.
  void sent_to(int server) { ++active_[static_cast<std::size_t>(server)]; }

  std::int64_t active(int server) const { return active_[static_cast<std::size_t>(server)]; }

 private:
  int choose(const std::vector<int>& servers, std::size_t model, int job, Rng* rng);

  LoadBalancing policy_;
  std::vector<std::vector<int>> servers_for_model_;
  std::vector<std::vector<int>> ready_for_model_;  // the ready ones, in server order
  std::vector<bool> ready_;
  std::vector<std::size_t> next_;  // round_robin: the model's next position
  std::vector<std::int64_t> active_;
};

// The stream a job (or perf_analyzer load) draws its server choices from: apart from its own draws
// of CPU times, so that changing the policy does not change the work the jobs do.
inline std::uint64_t balancing_seed(std::uint64_t seed, int job) {
  return mix_seed(seed, (std::uint64_t{1} << 61) + static_cast<std::uint64_t>(job));
}

}  // namespace sonicsim
