#include "sim/control/autoscaler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;
namespace {

// The stream pod start-up times are drawn from, apart from the jobs' and the failures'.
std::uint64_t autoscaler_seed(std::uint64_t seed) { return mix_seed(seed, std::uint64_t{1} << 59); }

int autoscaled_group_index(const Scenario& scenario) {
  for (std::size_t g = 0; g < scenario.platform.servers.size(); ++g)
    if (scenario.platform.servers[g].autoscaling) return static_cast<int>(g);
  return -1;
}

// The first readiness probe at or after `serving_s` for a container started at `started_s`:
// probes run at started + initial_delay + k x period.
double first_ready_probe(double started_s, double serving_s, const AutoscalingSpec& spec) {
  const double first = started_s + spec.readiness_delay_s;
  if (serving_s <= first) return first;
  return first + std::ceil((serving_s - first) / spec.readiness_period_s) * spec.readiness_period_s;
}

}  // namespace

Autoscaler::Autoscaler(const Scenario& scenario, const FarmPlatform& farm,
                       std::vector<std::unique_ptr<InferenceServer>>& servers, Proxy& proxy, Prometheus& prometheus)
    : scenario_(scenario),
      farm_(farm),
      servers_(servers),
      proxy_(proxy),
      prometheus_(prometheus),
      spec_(*scenario.autoscaled_group()->autoscaling),
      hpa_(spec_.hpa),
      rng_(autoscaler_seed(scenario.simulation.seed)),
      replicas_(spec_.initial_replicas) {
  const int group = autoscaled_group_index(scenario);
  for (std::size_t s = 0; s < farm.servers.size(); ++s)
    if (farm.servers[s].group == group) slots_.push_back({static_cast<int>(s), -1});
  for (int k = 0; k < spec_.initial_replicas; ++k) {
    pods_.push_back({Phase::Ready, k, false});
    slots_[static_cast<std::size_t>(k)].pod = k;
  }
  totals_.pods_created = totals_.pods_ready = spec_.initial_replicas;
  totals_.max_ready = spec_.initial_replicas;
  totals_.threshold = spec_.hpa.target;
}

std::vector<bool> Autoscaler::initially_running(const Scenario& scenario, const FarmPlatform& farm) {
  std::vector<bool> running(farm.servers.size(), true);
  const int group = autoscaled_group_index(scenario);
  if (group < 0) return running;
  int in_group = 0;
  for (std::size_t s = 0; s < farm.servers.size(); ++s)
    if (farm.servers[s].group == group)
      running[s] =
          in_group++ < scenario.platform.servers[static_cast<std::size_t>(group)].autoscaling->initial_replicas;
  return running;
}

void Autoscaler::start() {
  sg4::Actor::create("keda", farm_.proxy, [this] { control(); })->daemonize();
  for (std::size_t k = 0; k < slots_.size(); ++k) {
    const ServerNode& node = farm_.servers[static_cast<std::size_t>(slots_[k].server)];
    sg4::Actor::create(node.name + "/pod", node.host, [this, k] { run_slot(static_cast<int>(k)); })->daemonize();
  }
}

// HPA syncs at k x sync_period; with min_replicas 0, KEDA polls at k x polling_interval (a sync
// first when both fall at once).
void Autoscaler::control() {
  const bool keda_scales_to_zero = spec_.min_replicas == 0;
  double next_sync = spec_.sync_period_s;
  double next_poll = keda_scales_to_zero ? spec_.polling_interval_s : std::numeric_limits<double>::infinity();
  for (;;) {
    const double now = std::min(next_sync, next_poll);
    sg4::this_actor::sleep_until(now);
    // KEDA's Prometheus scaler reads an empty result as 0 (ignoreNullValues).
    const double metric = prometheus_.query(spec_.metric, spec_.metric_window_s).value_or(0);
    if (now == next_sync) {
      next_sync += spec_.sync_period_s;
      if (replicas_ > 0) {  // the HPA does not scale a Deployment KEDA has taken to zero
        const int ready = count(Phase::Ready);
        const int existing = count(Phase::Pending) + count(Phase::Starting) + ready;
        set_replicas(hpa_.sync(now, replicas_, existing, ready, metric));
      }
    }
    if (now == next_poll) {
      next_poll += spec_.polling_interval_s;
      if (metric > spec_.activation_threshold) {
        last_active_s_ = now;
        if (replicas_ == 0) set_replicas(1);
      } else if (replicas_ > 0 && now - last_active_s_ >= spec_.cooldown_s) {
        set_replicas(0);
      }
    }
  }
}

// The ReplicaSet controller: creates pods up to `replicas`, or deletes the lowest-ranked ones.
void Autoscaler::set_replicas(int replicas) {
  forget_gone_pods();
  replicas_ = replicas;
  std::vector<int> live;
  for (std::size_t p = 0; p < pods_.size(); ++p)
    if (!pods_[p].deleted) live.push_back(static_cast<int>(p));
  for (auto n = static_cast<int>(live.size()); n < replicas; ++n) {
    pods_.push_back({Phase::Pending, -1, false});
    ++totals_.pods_created;
  }
  if (static_cast<int>(live.size()) > replicas) {
    auto rank = [this](int p) {
      switch (pods_[static_cast<std::size_t>(p)].phase) {
        case Phase::Pending: return 0;
        case Phase::Starting: return 1;
        default: return 2;
      }
    };
    // Lowest rank first; within a rank the newest pod first (pods_ is in creation order).
    std::stable_sort(live.begin(), live.end(),
                     [&](int a, int b) { return rank(a) != rank(b) ? rank(a) < rank(b) : a > b; });
    for (std::size_t i = 0; i < live.size() - static_cast<std::size_t>(replicas); ++i) {
      Pod& pod = pods_[static_cast<std::size_t>(live[i])];
      pod.deleted = true;
      ++totals_.pods_deleted;
      if (pod.phase == Phase::Pending) {
        change_phase(pod, Phase::Gone);
      } else {
        if (pod.phase == Phase::Ready) change_phase(pod, Phase::Draining);
        servers_[static_cast<std::size_t>(slots_[static_cast<std::size_t>(pod.slot)].server)]
            ->refused_ready()
            ->release();
      }
    }
  }
  schedule_pending();
}

// Pending pods take free servers, oldest pod first, lowest server first.
void Autoscaler::schedule_pending() {
  for (std::size_t p = 0; p < pods_.size(); ++p) {
    Pod& pod = pods_[p];
    if (pod.phase != Phase::Pending) continue;
    auto free = std::find_if(slots_.begin(), slots_.end(), [](const Slot& s) { return s.pod < 0; });
    if (free == slots_.end()) return;
    free->pod = static_cast<int>(p);
    pod.slot = static_cast<int>(free - slots_.begin());
    change_phase(pod, Phase::Starting);
    servers_[static_cast<std::size_t>(free->server)]->refused_ready()->release();
  }
}

void Autoscaler::run_slot(int k) {
  Slot& slot = slots_[static_cast<std::size_t>(k)];
  InferenceServer& server = *servers_[static_cast<std::size_t>(slot.server)];
  if (slot.pod >= 0) {  // a pod ready at t = 0: wait for its deletion
    wait_for(slot, std::numeric_limits<double>::infinity());
    drain(slot);
  }
  for (;;) {
    wait_while_free(slot);
    const double started = sg4::Engine::get_clock();
    const double serving = started + std::max(0.0, sample(spec_.startup, rng_));
    if (wait_for(slot, first_ready_probe(started, serving, spec_))) {
      free_slot(slot);
      continue;
    }
    change_phase(pods_[static_cast<std::size_t>(slot.pod)], Phase::Ready);
    ++totals_.pods_ready;
    server.restart();
    prometheus_.pod_started(slot.server);
    proxy_.membership_changed(slot.server, true);
    wait_for(slot, std::numeric_limits<double>::infinity());
    drain(slot);
  }
}

void Autoscaler::wait_while_free(Slot& slot) {
  InferenceServer& server = *servers_[static_cast<std::size_t>(slot.server)];
  while (slot.pod < 0) {
    refuse_arrivals(server, nullptr);
    server.refused_ready()->acquire();
  }
  refuse_arrivals(server, nullptr);
}

bool Autoscaler::wait_for(Slot& slot, double until_s) {
  InferenceServer& server = *servers_[static_cast<std::size_t>(slot.server)];
  for (;;) {
    refuse_arrivals(server, nullptr);
    if (pods_[static_cast<std::size_t>(slot.pod)].deleted) return true;
    const double wait = until_s - sg4::Engine::get_clock();
    if (wait <= 0) return false;
    if (std::isinf(wait))
      server.refused_ready()->acquire();
    else
      server.refused_ready()->acquire_timeout(wait);
  }
}

// The deleted pod leaves the proxy's endpoints; after the preStop sleep Triton gets SIGTERM, refuses
// new requests and exits once it holds none, or is killed at the end of the grace period.
void Autoscaler::drain(Slot& slot) {
  InferenceServer& server = *servers_[static_cast<std::size_t>(slot.server)];
  proxy_.membership_changed(slot.server, false);
  const double killed_at = sg4::Engine::get_clock() + spec_.grace_period_s;
  const double sigterm_at = std::min(killed_at, sg4::Engine::get_clock() + spec_.prestop_sleep_s);
  sg4::this_actor::sleep_until(sigterm_at);
  server.stop_accepting();
  for (;;) {
    refuse_arrivals(server, &totals_.requests_refused_draining);
    if (server.in_hand() == 0) break;
    const double wait = killed_at - sg4::Engine::get_clock();
    if (wait <= 0) break;
    server.refused_ready()->acquire_timeout(wait);  // an arrival, the last answer leaving, or the kill
  }
  if (server.in_hand() == 0)
    server.exit();  // Triton exits by itself: its last answers are still on their way
  else
    totals_.requests_killed += server.fail();
  free_slot(slot);
}

void Autoscaler::refuse_arrivals(InferenceServer& server, std::int64_t* counter) {
  for (InFlightRequest* request : server.take_refused()) {
    InferenceServer::send_unavailable(request);
    if (counter) ++*counter;
  }
}

void Autoscaler::free_slot(Slot& slot) {
  Pod& pod = pods_[static_cast<std::size_t>(slot.pod)];
  change_phase(pod, Phase::Gone);
  pod.slot = -1;
  slot.pod = -1;
  schedule_pending();
}

void Autoscaler::change_phase(Pod& pod, Phase phase) {
  account();
  pod.phase = phase;
  totals_.max_ready = std::max(totals_.max_ready, count(Phase::Ready));
}

// Integrates the GPUs held and the ready replicas up to now.
void Autoscaler::account() {
  const double now = sg4::Engine::get_clock();
  accrue(totals_, now - accounted_to_s_);
  accounted_to_s_ = now;
}

// The GPUs held (pods starting, ready or draining) and the ready replicas, over `seconds` as they are now.
void Autoscaler::accrue(AutoscalingTotals& totals, double seconds) const {
  const double held = count(Phase::Starting) + count(Phase::Ready) + count(Phase::Draining);
  totals.gpu_seconds += held * scenario_.autoscaled_group()->gpus_per_server * seconds;
  totals.ready_replica_seconds += count(Phase::Ready) * seconds;
  totals.serving_gpu_seconds +=
      (count(Phase::Ready) + count(Phase::Draining)) * scenario_.autoscaled_group()->gpus_per_server * seconds;
}

// Pods that are gone take no part in anything: drop them (keeping creation order) so that a long,
// flapping run holds only the pods that exist.
void Autoscaler::forget_gone_pods() {
  std::vector<int> new_index(pods_.size(), -1);
  std::size_t kept = 0;
  for (std::size_t p = 0; p < pods_.size(); ++p)
    if (pods_[p].phase != Phase::Gone) {
      new_index[p] = static_cast<int>(kept);
      pods_[kept++] = pods_[p];
    }
  pods_.resize(kept);
  for (Slot& slot : slots_)
    if (slot.pod >= 0) slot.pod = new_index[static_cast<std::size_t>(slot.pod)];
}

int Autoscaler::count(Phase phase) const {
  return static_cast<int>(
      std::count_if(pods_.begin(), pods_.end(), [phase](const Pod& p) { return p.phase == phase; }));
}

void Autoscaler::describe(TimeseriesRow& row) const {
  row.pending = count(Phase::Pending);
  row.starting = count(Phase::Starting);
  row.ready = count(Phase::Ready);
  row.draining = count(Phase::Draining);
  row.desired = replicas_;
  row.metric = prometheus_.query(spec_.metric, spec_.metric_window_s);
}

AutoscalingTotals Autoscaler::totals(double end_s) const {
  AutoscalingTotals t = totals_;
  accrue(t, end_s - accounted_to_s_);
  return t;
}

}  // namespace sonicsim::sim
