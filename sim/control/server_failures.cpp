#include "sim/control/server_failures.hpp"

#include <cmath>
#include <limits>
#include <optional>

#include "models/workload/rng.hpp"

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;
namespace {

// The stream a server draws its up and repair times from, apart from every job's.
std::uint64_t failure_seed(std::uint64_t seed, int server) {
  return mix_seed(seed, (std::uint64_t{1} << 60) + static_cast<std::uint64_t>(server));
}

class FailingServer {
 public:
  FailingServer(const ServerFailures& failures, int index, InferenceServer& server, RequestBalancer& balancer,
                Proxy* proxy, Recorder& recorder, std::uint64_t seed)
      : failures_(failures),
        index_(index),
        server_(server),
        balancer_(balancer),
        proxy_(proxy),
        recorder_(recorder),
        rng_(std::make_shared<Rng>(failure_seed(seed, index))) {}

  void operator()() {
    std::size_t next_listed = 0;
    for (;;) {
      const double now = sg4::Engine::get_clock();
      std::optional<double> failure_at;
      if (failures_.time_between) {
        failure_at = now + sample(*failures_.time_between, *rng_);
      } else {
        while (next_listed < failures_.at_s.size() && failures_.at_s[next_listed] < now)
          ++next_listed;  // missed while down
        if (next_listed < failures_.at_s.size()) failure_at = failures_.at_s[next_listed++];
      }
      if (!failure_at) return;
      sg4::this_actor::sleep_until(*failure_at);
      recorder_.server_failed();
      server_.fail();
      tell_balancer(false);
      const double repaired_at = failures_.repair ? sg4::Engine::get_clock() + sample(*failures_.repair, *rng_)
                                                  : std::numeric_limits<double>::infinity();
      refuse_until(repaired_at);
      server_.restart();
      recorder_.server_restarted();
      tell_balancer(true);
    }
  }

 private:
  void tell_balancer(bool up) {
    if (proxy_)
      proxy_->membership_changed(index_, up);
    else
      balancer_.set_ready(index_, up);
  }

  // While the server is down, a request that reaches it is refused at once, from its host.
  void refuse_until(double repaired_at) {
    for (;;) {
      for (InFlightRequest* request : server_.take_refused()) InferenceServer::send_unavailable(request);
      const double wait = repaired_at - sg4::Engine::get_clock();
      if (wait <= 0) break;
      if (std::isinf(wait))
        server_.refused_ready()->acquire();
      else if (server_.refused_ready()->acquire_timeout(wait))
        break;
    }
    for (InFlightRequest* request : server_.take_refused()) InferenceServer::send_unavailable(request);
  }

  const ServerFailures& failures_;
  int index_;
  InferenceServer& server_;
  RequestBalancer& balancer_;
  Proxy* proxy_;
  Recorder& recorder_;
  std::shared_ptr<Rng> rng_;  // shared: Actor::create copies the functor
};

}  // namespace

void start_server_failures(const Scenario& scenario, const FarmPlatform& farm,
                           std::vector<std::unique_ptr<InferenceServer>>& servers, RequestBalancer& balancer,
                           Proxy* proxy, Recorder& recorder) {
  for (std::size_t s = 0; s < farm.servers.size(); ++s) {
    const auto& failures = scenario.platform.servers[farm.servers[s].group].failures;
    if (!failures) continue;
    sg4::Actor::create(
        farm.servers[s].name + "/failures", farm.servers[s].host,
        FailingServer(*failures, static_cast<int>(s), *servers[s], balancer, proxy, recorder, scenario.simulation.seed))
        ->daemonize();
  }
}

}  // namespace sonicsim::sim
