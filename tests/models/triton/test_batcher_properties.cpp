// Properties of the scheduler state machine that must hold on any trace, checked on thousands of
// seeded random traces over the configuration space (wake-up mode, preferred sizes, delay,
// priority levels, queue policies, instances, kernel times, bursts at one instant):
// - every request is dispatched, timed out or refused exactly once, and nothing is left queued
//   once the trace has played out (no request waits forever);
// - no batch is empty or larger than max_batch_size, and no more batches run than instances;
// - within a priority level, requests leave the queue in arrival order (without DELAY policies,
//   which move expired requests behind);
// - a REJECT timeout fires at the earliest at its deadline's instant (the batcher acts after
//   everything at an instant, so Triton's strict `now > deadline` holds there).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "tests/support/batcher_driver.hpp"

using namespace sonicsim;
using namespace sonicsim::testing;

namespace {

struct Trace {
  BatcherSetup settings;
  std::vector<Arrival> arrivals;
  std::vector<double> exec_by_units;  // kernel time by batch units (index 0 unused)
};

Trace random_batcher_trace(std::mt19937_64& rng) {
  auto uniform = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  auto integer = [&](int a, int b) { return std::uniform_int_distribution<int>(a, b)(rng); };
  Trace t;
  const int max_batch = integer(1, 8);
  std::vector<int> preferred;
  for (int p = 1; p <= max_batch; ++p)
    if (integer(0, 3) == 0) preferred.push_back(p);
  t.settings = batching(max_batch, preferred, integer(0, 2) == 0 ? 0.0 : uniform(1e-3, 0.2), integer(1, 3));
  t.settings.scheduler.wakeup = integer(0, 1) ? triton::BatcherWakeup::Literal : triton::BatcherWakeup::Idealised;
  triton::DynamicBatchingConfig& config = *t.settings.model.dynamic_batching;
  if (integer(0, 2) == 0) {
    config.priority_levels = integer(1, 3);
    config.default_priority_level = integer(1, config.priority_levels);
  }
  auto random_policy = [&]() {
    triton::QueuePolicy p;
    if (integer(0, 1)) p.default_timeout_s = uniform(1e-3, 0.5);
    p.timeout_action = integer(0, 3) == 0 ? triton::TimeoutAction::Delay : triton::TimeoutAction::Reject;
    p.allow_timeout_override = integer(0, 1) == 1;
    if (integer(0, 2) == 0) p.max_queue_size = integer(1, 6);
    return p;
  };
  if (integer(0, 1)) config.default_queue_policy = random_policy();
  for (int level = 1; level <= config.priority_levels; ++level)
    if (integer(0, 1)) config.priority_queue_policy[level] = random_policy();
  t.exec_by_units.push_back(0);
  const double base = uniform(1e-3, 0.3), per_unit = uniform(0, 0.05);
  for (int u = 1; u <= max_batch; ++u) t.exec_by_units.push_back(base + per_unit * u);
  double now = 0;
  const int requests = integer(1, 40);
  for (int i = 0; i < requests; ++i) {
    if (integer(0, 3) != 0) now += uniform(0, 0.3);  // a quarter arrive at the instant of the one before
    const double timeout = integer(0, 2) == 0 ? uniform(1e-3, 0.4) : 0.0;
    t.arrivals.push_back({now, integer(1, max_batch), integer(0, 4), timeout});
  }
  return t;
}

// The deadline PriorityQueue gives a request (docs/reference/triton.md §3.5), 0 if none.
double deadline_of(const Trace& t, const Arrival& a) {
  const triton::DynamicBatchingConfig& config = *t.settings.model.dynamic_batching;
  int level = 0;
  if (config.priority_levels > 0)
    level = a.priority <= 0 || a.priority > config.priority_levels ? config.default_priority_level : a.priority;
  const triton::QueuePolicy& policy =
      config.priority_levels > 0 ? config.policy_for(level) : config.default_queue_policy;
  double timeout = policy.default_timeout_s;
  if (policy.allow_timeout_override && a.timeout_s != 0 && a.timeout_s < timeout) timeout = a.timeout_s;
  return timeout != 0 ? a.at_s + timeout : 0.0;
}

int level_of(const Trace& t, const Arrival& a) {
  const triton::DynamicBatchingConfig& config = *t.settings.model.dynamic_batching;
  if (config.priority_levels == 0) return 0;
  return a.priority <= 0 || a.priority > config.priority_levels ? config.default_priority_level : a.priority;
}

bool uses_delay_policy(const Trace& t) {
  const triton::DynamicBatchingConfig& config = *t.settings.model.dynamic_batching;
  if (config.default_queue_policy.timeout_action == triton::TimeoutAction::Delay) return true;
  for (const auto& [level, policy] : config.priority_queue_policy)
    if (policy.timeout_action == triton::TimeoutAction::Delay) return true;
  return false;
}

}  // namespace

TEST_CASE("on random traces every request is served, timed out or refused exactly once, in order, within capacity") {
  std::mt19937_64 rng(20261123);
  int traces_with_bursts = 0, timed_out = 0, refused = 0, batched = 0;
  for (int trace = 0; trace < 3000; ++trace) {
    const Trace t = random_batcher_trace(rng);
    CAPTURE(trace);
    TestBatcher batcher(t.settings);
    const Outcome out = drive(
        batcher, t.settings.scheduler.instances, [&](int units) { return t.exec_by_units.at(units); }, t.arrivals, 1e9);

    // Exactly once, and nothing left behind.
    std::map<std::int64_t, int> seen;
    for (const Dispatch& d : out.batches)
      for (std::int64_t id : d.ids) ++seen[id];
    for (const auto& [at, id] : out.timed_out) ++seen[id];
    for (std::int64_t id : out.refused) ++seen[id];
    REQUIRE(seen.size() == t.arrivals.size());
    for (const auto& [id, count] : seen) CHECK(count == 1);
    CHECK(batcher.queued_requests() == 0);
    CHECK(batcher.waiting_payloads() == 0);

    // Batches within max_batch_size, and never more running than instances.
    std::multiset<double> running_until;
    for (const Dispatch& d : out.batches) {
      CHECK(d.units >= 1);
      CHECK(d.units <= std::max(1, t.settings.model.max_batch_size));
      int units = 0;
      for (std::int64_t id : d.ids) units += t.arrivals[static_cast<std::size_t>(id)].units;
      CHECK(units == d.units);
      while (!running_until.empty() && *running_until.begin() <= d.at_s) running_until.erase(running_until.begin());
      running_until.insert(d.at_s + t.exec_by_units.at(d.units));
      CHECK(static_cast<int>(running_until.size()) <= t.settings.scheduler.instances);
      batched += d.ids.size() > 1 ? 1 : 0;
    }

    // First come, first served within a level, unless a DELAY policy moves expired requests.
    if (!uses_delay_policy(t)) {
      std::map<std::int64_t, std::int64_t> order_of;
      for (const Dispatch& d : out.batches)
        for (std::size_t i = 0; i < d.ids.size(); ++i) order_of[d.ids[i]] = d.orders[i];
      std::map<int, std::int64_t> last_order;
      for (const auto& [id, order] : order_of) {  // ids ascend with arrival order
        const int level = level_of(t, t.arrivals[static_cast<std::size_t>(id)]);
        if (last_order.count(level)) CHECK(order > last_order[level]);
        last_order[level] = order;
      }
    }

    // A REJECT timeout fires at the deadline's instant or later.
    for (const auto& [at, id] : out.timed_out) {
      const double deadline = deadline_of(t, t.arrivals[static_cast<std::size_t>(id)]);
      CHECK(deadline > 0);
      CHECK(at >= deadline);
    }
    timed_out += static_cast<int>(out.timed_out.size());
    refused += static_cast<int>(out.refused.size());
    for (std::size_t i = 1; i < t.arrivals.size(); ++i)
      if (t.arrivals[i].at_s == t.arrivals[i - 1].at_s) {
        ++traces_with_bursts;
        break;
      }
  }
  // The traces exercise what they are meant to.
  CHECK(traces_with_bursts > 1000);
  CHECK(timed_out > 100);
  CHECK(refused > 100);
  CHECK(batched > 1000);
}
