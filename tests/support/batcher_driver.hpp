#pragma once
// A small discrete-event loop that drives a model scheduler the way the simulator does: requests
// arrive at given times, each dispatched batch occupies one instance for a fixed time, and the
// batcher's timer fires when it asked for it. All events of one instant are reported
// (completions, then arrivals in order, then the timer) before the scheduler decides.
#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "models/triton/dynamic_batcher.hpp"

namespace sonicsim::testing {

struct Arrival {
  double at_s = 0;
  int units = 1;
  int priority = 0;
  double timeout_s = 0;
};

struct Dispatch {
  double at_s = 0;
  int units = 0;
  std::vector<std::int64_t> ids;     // request ids (= arrival index), in batch order
  std::vector<std::int64_t> orders;  // their queue-exit order
};

struct Outcome {
  std::vector<Dispatch> batches;
  std::vector<std::pair<double, std::int64_t>> timed_out;  // (time, request id)
  std::vector<std::int64_t> refused;                       // queue full at submit

  std::vector<int> sizes() const {
    std::vector<int> out;
    for (const Dispatch& d : batches) out.push_back(d.units);
    return out;
  }
};

// exec_s(units): how long a batch of that many units occupies its instance.
inline Outcome drive(triton::DynamicBatcher& batcher, int instances, const std::function<double(int)>& exec_s,
                     const std::vector<Arrival>& arrivals, double until_s) {
  Outcome out;
  std::multimap<double, int> completions;
  auto collect = [&](double now) {
    for (const triton::FormedBatch& b : batcher.take_dispatched()) {
      Dispatch d{now, b.units, {}, {}};
      for (const auto& r : b.requests) {
        d.ids.push_back(r.id);
        d.orders.push_back(r.order);
      }
      out.batches.push_back(std::move(d));
      completions.emplace(now + exec_s(b.units), 1);
    }
    for (const auto& r : batcher.take_timed_out()) out.timed_out.emplace_back(now, r.id);
  };
  for (int i = 0; i < instances; ++i) batcher.instance_idle(0.0);
  batcher.decide(0.0);
  collect(0.0);
  std::size_t next = 0;
  for (;;) {
    constexpr double never = std::numeric_limits<double>::infinity();
    const double t_arrival = next < arrivals.size() ? arrivals[next].at_s : never;
    const double t_done = completions.empty() ? never : completions.begin()->first;
    const double t_timer = batcher.next_wakeup_s();
    const double now = std::min({t_arrival, t_done, t_timer});
    if (now == never || now > until_s) break;
    while (!completions.empty() && completions.begin()->first == now) {
      completions.erase(completions.begin());
      batcher.instance_idle(now);
    }
    while (next < arrivals.size() && arrivals[next].at_s == now) {
      const Arrival& a = arrivals[next];
      const auto id = static_cast<std::int64_t>(next++);
      if (!batcher.enqueue({id, a.units, now, a.priority, a.timeout_s}, now)) out.refused.push_back(id);
    }
    if (t_timer == now) batcher.wake(now);
    batcher.decide(now);
    collect(now);
  }
  return out;
}

inline Outcome drive(triton::DynamicBatcher& batcher, int instances, double exec_s,
                     const std::vector<Arrival>& arrivals, double until_s) {
  return drive(
      batcher, instances, [exec_s](int) { return exec_s; }, arrivals, until_s);
}

// Requests of these units, all at time `at`.
inline std::vector<Arrival> burst(std::initializer_list<int> units, double at = 0.0) {
  std::vector<Arrival> out;
  for (int u : units) out.push_back({at, u, 0, 0.0});
  return out;
}

// A model's Triton config as a test writes it, and how its scheduler runs.
struct BatcherSetup {
  triton::ModelConfig model;
  triton::SchedulerSettings scheduler;
};

// The dynamic batcher with max_batch_size, preferred sizes (none: Triton's default of
// [max_batch_size]) and max_queue_delay.
inline BatcherSetup batching(int max_batch_size, std::vector<int> preferred, double delay_s, int instances = 1) {
  BatcherSetup s;
  s.model.max_batch_size = max_batch_size;
  s.model.dynamic_batching = triton::DynamicBatchingConfig{};
  s.model.dynamic_batching->preferred_batch_sizes = std::move(preferred);
  s.model.dynamic_batching->max_queue_delay_s = delay_s;
  s.scheduler.instances = instances;
  return s;
}

// Triton's default scheduler (no dynamic_batching).
inline BatcherSetup default_scheduler(int max_batch_size, int instances = 1) {
  BatcherSetup s;
  s.model.max_batch_size = max_batch_size;
  s.scheduler.instances = instances;
  return s;
}

// The config a batcher reads, normalised as the scenario reader leaves it (normalize_model_config:
// preferred sizes default to [max_batch_size]), held here so that it outlives the batcher.
struct LoadedModel {
  explicit LoadedModel(triton::ModelConfig config) : model(std::move(config)) {
    triton::normalize_model_config(model, /*gpu_count=*/1);
  }
  triton::ModelConfig model;
};

// A DynamicBatcher that owns the config it reads (the base LoadedModel is built first).
class TestBatcher : private LoadedModel, public triton::DynamicBatcher {
 public:
  explicit TestBatcher(const BatcherSetup& setup)
      : LoadedModel(setup.model), triton::DynamicBatcher(LoadedModel::model, setup.scheduler) {}
  TestBatcher(const TestBatcher&) = delete;
  TestBatcher& operator=(const TestBatcher&) = delete;
};

}  // namespace sonicsim::testing
