// The dynamic batcher state machine, driven in simulated time by a small event loop: requests
// arrive at given times, each dispatched batch occupies one instance for a fixed time, and the
// batcher's timer fires when it asked for it. Expected batch sequences are Triton's QA cases and
// the scenarios derived in triton-batcher.md §12.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "models/triton/dynamic_batcher.hpp"

using namespace sonicsim;
using namespace sonicsim::triton;

namespace {

struct Dispatch {
  double at_s;
  int units;
  std::size_t requests;
};

// Arrivals: (time, units). Returns the batches in dispatch order.
std::vector<Dispatch> drive(DynamicBatcher& batcher, int instances, double exec_s,
                            const std::vector<std::pair<double, int>>& arrivals, double until_s) {
  std::vector<Dispatch> out;
  std::multimap<double, int> completions;  // time -> count
  for (int i = 0; i < instances; ++i) batcher.instance_idle(0.0);
  std::size_t next_arrival = 0;
  auto collect = [&](double now) {
    for (const FormedBatch& b : batcher.take_dispatched()) {
      out.push_back({now, b.units, b.requests.size()});
      completions.emplace(now + exec_s, 1);
    }
  };
  collect(0.0);
  for (;;) {
    const double t_arrival = next_arrival < arrivals.size() ? arrivals[next_arrival].first : 1e300;
    const double t_done = completions.empty() ? 1e300 : completions.begin()->first;
    const double t_timer = batcher.next_wakeup_s();
    const double now = std::min({t_arrival, t_done, t_timer});
    if (now > until_s) break;
    if (t_done == now) {  // completions first at equal times
      completions.erase(completions.begin());
      batcher.instance_idle(now);
    } else if (t_arrival == now) {
      const std::int64_t id = static_cast<std::int64_t>(next_arrival);
      batcher.enqueue({id, arrivals[next_arrival].second, now}, now);
      ++next_arrival;
    } else {
      batcher.wake(now);
    }
    collect(now);
  }
  return out;
}

std::vector<int> sizes(const std::vector<Dispatch>& ds) {
  std::vector<int> out;
  for (const auto& d : ds) out.push_back(d.units);
  return out;
}

}  // namespace

TEST_CASE("scenario A: no delay, max 8, one instance, 10 ms kernels, a request per ms -> 1, 8, 8, 3") {
  DynamicBatcher batcher({8, {}, 0.0}, 1);
  std::vector<std::pair<double, int>> arrivals;
  for (int i = 0; i < 20; ++i) arrivals.emplace_back(i * 1e-3, 1);
  const auto ds = drive(batcher, 1, 10e-3, arrivals, 1.0);
  CHECK(sizes(ds) == std::vector<int>{1, 8, 8, 3});
  // The second batch formed while the first ran and went when the instance freed up.
  CHECK(ds[1].at_s == doctest::Approx(10e-3));
}

TEST_CASE("multi_batch_sum_gt_max_preferred: 3 goes at once, 4 after the delay") {
  DynamicBatcher batcher({8, {2, 6}, 10.0}, 1);
  const auto ds = drive(batcher, 1, 0.1, {{0.0, 3}, {0.0, 4}}, 100.0);
  REQUIRE(ds.size() == 2);
  CHECK(ds[0].units == 3);
  CHECK(ds[0].at_s == 0.0);
  CHECK(ds[1].units == 4);
  CHECK(ds[1].at_s == doctest::Approx(10.0));
}

// Evaluated on every arrival, a burst is scanned one request at a time: the queued payload grows
// to the first preferred size it reaches (4), is saturated, and the rest start the next one.
// Triton's QA case preferred_batch_only_use_biggest_preferred ({1:1, 6:1}) holds the batcher until
// the whole burst is queued (TRITONSERVER_DELAY_SCHEDULER), which the scan test covers.
TEST_CASE("a burst arriving one by one while the instance is busy fills the first preferred size") {
  DynamicBatcher batcher({8, {4, 6}, 0.0}, 1);
  std::vector<std::pair<double, int>> arrivals{{0.0, 1}};
  for (int i = 0; i < 6; ++i) arrivals.emplace_back(1e-3, 1);  // six more while the first executes
  const auto ds = drive(batcher, 1, 0.5, arrivals, 10.0);
  CHECK(sizes(ds) == std::vector<int>{1, 4, 2});
}

TEST_CASE("prefetch: at most 2 x instances formed batches wait; the rest stay queued") {
  DynamicBatcher batcher({1, {}, 0.0}, 1);  // max_batch_size 1: every batch holds one request
  batcher.instance_idle(0.0);
  for (int i = 0; i < 6; ++i) batcher.enqueue({i, 1, 0.0}, 0.0);
  CHECK(batcher.take_dispatched().size() == 1);  // the instance took the first
  CHECK(batcher.waiting_payloads() == 2);
  CHECK(batcher.queued_requests() == 3);
}

TEST_CASE("instance-side merge: delay-expired payloads are coalesced when an instance frees up") {
  // One instance busy until 101 ms; preferred [4], max 8, delay 1 ms; a request every 10 ms.
  // The first payload grows to 5 (crossing 4 saturates it), the next one gets the request at 60 ms
  // and then the prefetch cap (2 payloads for 1 instance) blocks the batcher, so the 70 ms request
  // stays queued. At 101 ms the instance takes 5 and merges the expired 1: a batch of 6.
  DynamicBatcher batcher({8, {4}, 1e-3}, 1);
  std::vector<std::pair<double, int>> arrivals{{0.0, 1}};  // executes from 1 ms to 101 ms
  for (int i = 0; i < 7; ++i) arrivals.emplace_back(0.01 + i * 0.01, 1);
  const auto ds = drive(batcher, 1, 0.1, arrivals, 0.25);
  CHECK(sizes(ds) == std::vector<int>{1, 6, 1});
  CHECK(ds[1].requests == 6);
  CHECK(ds[1].at_s == doctest::Approx(0.101));
}

TEST_CASE("instance-side merge: a payload that does not fit is frozen and executes at its size") {
  // Preferred [8] = max: the first payload fills to 8; the next request cannot fit and starts a
  // second payload of 1. When the instance takes the 8 at 101 ms it looks at the 1, which cannot
  // join: frozen. A burst of eight fills a third payload, which cannot join the frozen one either,
  // so the frozen payload executes as 1 while 8 requests wait behind it. (Had the third payload
  // been small, the frozen one would have absorbed it when an instance took it.)
  DynamicBatcher batcher({8, {8}, 1e-3}, 1);
  std::vector<std::pair<double, int>> arrivals{{0.0, 1}};
  for (int i = 0; i < 9; ++i) arrivals.emplace_back(0.01 + i * 0.005, 1);  // 8 + 1 by 50 ms
  for (int i = 0; i < 8; ++i) arrivals.emplace_back(0.105, 1);
  const auto ds = drive(batcher, 1, 0.1, arrivals, 1.0);
  CHECK(sizes(ds) == std::vector<int>{1, 8, 1, 8});
}
