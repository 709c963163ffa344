// Priority levels and queue policies (docs/reference/triton.md §3, §4, §7; §13 items 10-14): admission,
// lazy timeouts with REJECT and DELAY, timeout overrides, and the scan order across levels.
#include <doctest/doctest.h>

#include "models/triton/priority_queue.hpp"
#include "tests/support/batcher_driver.hpp"

using namespace sonicsim;
using namespace sonicsim::testing;

namespace {

triton::DynamicBatchingConfig with_policy(triton::QueuePolicy policy) {
  triton::DynamicBatchingConfig c;
  c.default_queue_policy = policy;
  return c;
}

triton::QueuedRequest request(std::int64_t id, int units = 1, int priority = 0, double timeout_s = 0) {
  return {id, units, 0.0, priority, timeout_s};
}

// The ids a scan reaches, in scan order (budget large enough to see everything).
std::vector<std::int64_t> scan_order(triton::PriorityQueue& q, double now,
                                     std::vector<triton::QueuedRequest>& timed_out) {
  std::vector<triton::ScannedRequest> view;
  q.scan(0, 1000, now, view, timed_out);
  std::vector<std::int64_t> ids;
  for (std::size_t i = 0; i < view.size(); ++i) ids.push_back(q.pop_front().id);
  return ids;
}

}  // namespace

TEST_CASE("queue full is per priority level and counts requests, not units (§13.10)") {
  triton::DynamicBatchingConfig c;
  c.priority_levels = 2;
  c.default_priority_level = 2;
  c.priority_queue_policy[1].max_queue_size = 2;
  triton::PriorityQueue q(&c);
  CHECK(q.enqueue(request(0, 8, 1), 0.0));  // 8 units count as one request
  CHECK(q.enqueue(request(1, 8, 1), 0.0));
  CHECK_FALSE(q.enqueue(request(2, 1, 1), 0.0));  // level 1 is full
  CHECK(q.enqueue(request(3, 1, 2), 0.0));        // level 2 has no limit
  CHECK(q.size() == 3);
}

TEST_CASE("requests already formed into a batch do not count toward max_queue_size (§13.10)") {
  auto settings = batching(8, {}, 0.0, 1);
  settings.model.dynamic_batching->default_queue_policy.max_queue_size = 2;
  TestBatcher batcher(std::move(settings));
  // Sent one after another: the first goes to the instance, two wait, the fourth is refused.
  const auto out = drive(batcher, 1, 10.0, {{0.0, 1}, {1e-3, 1}, {2e-3, 1}, {3e-3, 1}}, 5.0);
  CHECK(out.refused == std::vector<std::int64_t>{3});
  // Sent at one instant, all four reach the queue before the batcher takes one: the third and
  // fourth are refused.
  auto limited = batching(8, {}, 0.0, 1);
  limited.model.dynamic_batching->default_queue_policy.max_queue_size = 2;
  TestBatcher at_once(std::move(limited));
  CHECK(drive(at_once, 1, 10.0, burst({1, 1, 1, 1}), 5.0).refused == std::vector<std::int64_t>{2, 3});
}

TEST_CASE("REJECT timeouts are lazy, due from the deadline's instant, and never apply inside a batch (§13.11)") {
  triton::QueuePolicy policy;
  policy.default_timeout_s = 1.0;
  const auto c = with_policy(policy);
  triton::PriorityQueue q(&c);
  q.enqueue(request(0), 0.0);
  q.enqueue(request(1), 0.5);
  std::vector<triton::QueuedRequest> timed_out;
  std::vector<triton::ScannedRequest> view;
  q.scan(0, 8, 0.9, view, timed_out);
  CHECK(timed_out.empty());
  CHECK(view.size() == 2);
  // Triton's `now > deadline` is strict, but its batcher reads the clock after everything at the
  // instant it runs: at the deadline's instant the deadline has passed.
  q.scan(0, 8, 1.0, view, timed_out);
  REQUIRE(timed_out.size() == 1);
  CHECK(timed_out[0].id == 0);
  CHECK(view.size() == 1);
  // The cursor skips expired requests until it finds a valid one, and a scan that stops there
  // (here: a budget of 0 units) does not look further: request 2 behind it is left as it is.
  q.enqueue(request(5), 99.5);  // valid until 100.5
  q.enqueue(request(2), 0.6);   // expired at 1.6
  q.scan(0, 0, 100.0, view, timed_out);
  CHECK(timed_out.size() == 2);  // 0 earlier, 1 now
  CHECK(q.size() == 2);
}

TEST_CASE("a timed-out request is not rejected once it is in a formed batch (§13.11)") {
  auto settings = batching(8, {}, 0.0, 1);
  settings.model.dynamic_batching->default_queue_policy.default_timeout_s = 0.5;
  TestBatcher batcher(std::move(settings));
  // Goes straight into a batch on the idle instance, which runs it for 10 s: it is not rejected.
  const auto out = drive(batcher, 1, 10.0, burst({1}), 20.0);
  CHECK(out.timed_out.empty());
  CHECK(out.sizes() == std::vector<int>{1});
}

TEST_CASE("the batcher wakes at a pending request's deadline and rejects it there (§7)") {
  // Delay 10 s with a 2 s REJECT timeout: the pending batch's wait is cut to the deadline. Triton's
  // cv_.wait_for returns after it, never at it, so that one scan finds the request expired.
  auto settings = batching(8, {4}, 10.0, 1);
  settings.model.dynamic_batching->default_queue_policy.default_timeout_s = 2.0;
  TestBatcher batcher(std::move(settings));
  const auto out = drive(batcher, 1, 0.1, burst({1}), 100.0);
  REQUIRE(out.timed_out.size() == 1);
  CHECK(out.timed_out[0].first == 2.0);
  CHECK(out.batches.empty());
}

TEST_CASE(
    "DELAY moves an expired request behind its level's unexpired ones, ahead of lower levels; never rejected "
    "(§13.12)") {
  triton::DynamicBatchingConfig c;
  c.priority_levels = 2;
  c.default_priority_level = 2;
  c.priority_queue_policy[1].timeout_action = triton::TimeoutAction::Delay;
  c.priority_queue_policy[1].default_timeout_s = 1.0;
  triton::PriorityQueue q(&c);
  q.enqueue(request(0, 1, 1), 0.0);  // expires at 1 s
  q.enqueue(request(1, 1, 2), 0.0);  // lower priority
  q.enqueue(request(2, 1, 1), 0.5);  // expires at 1.5 s
  q.enqueue(request(3, 1, 1), 1.2);  // expires at 2.2 s
  std::vector<triton::QueuedRequest> timed_out;
  CHECK(scan_order(q, 1.3, timed_out) == std::vector<std::int64_t>{2, 3, 0, 1});
  CHECK(timed_out.empty());
}

TEST_CASE("allow_timeout_override only shortens, and does nothing without a default timeout (§13.13)") {
  std::vector<triton::QueuedRequest> timed_out;
  std::vector<triton::ScannedRequest> view;
  triton::QueuePolicy policy;
  policy.default_timeout_s = 2.0;
  policy.allow_timeout_override = true;
  const auto c = with_policy(policy);
  triton::PriorityQueue q(&c);
  q.enqueue(request(0, 1, 0, 0.5), 0.0);  // shorter: deadline 0.5
  q.enqueue(request(1, 1, 0, 5.0), 0.0);  // longer: ignored, deadline 2
  q.scan(0, 8, 1.0, view, timed_out);
  REQUIRE(timed_out.size() == 1);
  CHECK(timed_out[0].id == 0);
  q.scan(0, 8, 2.5, view, timed_out);
  CHECK(timed_out.size() == 2);

  triton::QueuePolicy no_default;
  no_default.allow_timeout_override = true;
  const auto c0 = with_policy(no_default);
  triton::PriorityQueue q0(&c0);
  q0.enqueue(request(7, 1, 0, 0.1), 0.0);
  timed_out.clear();
  q0.scan(0, 8, 100.0, view, timed_out);
  CHECK(timed_out.empty());

  triton::QueuePolicy no_override;
  no_override.default_timeout_s = 2.0;
  const auto c1 = with_policy(no_override);
  triton::PriorityQueue q1(&c1);
  q1.enqueue(request(8, 1, 0, 0.1), 0.0);  // the request's timeout is not allowed
  q1.scan(0, 8, 1.0, view, timed_out);
  CHECK(timed_out.empty());
}

TEST_CASE("priority levels: scanned 1, 2, ...; priority 0 or above the levels means the default (§13.14)") {
  triton::DynamicBatchingConfig c;
  c.priority_levels = 3;
  c.default_priority_level = 2;
  triton::PriorityQueue q(&c);
  q.enqueue(request(0, 1, 3), 0.0);
  q.enqueue(request(1, 1, 0), 0.0);  // -> level 2
  q.enqueue(request(2, 1, 9), 0.0);  // -> level 2
  q.enqueue(request(3, 1, 1), 0.0);
  std::vector<triton::QueuedRequest> timed_out;
  CHECK(scan_order(q, 0.0, timed_out) == std::vector<std::int64_t>{3, 1, 2, 0});
}

TEST_CASE("a batch may mix priority levels, high priority first (§13.14)") {
  auto settings = batching(8, {4}, 0.0, 1);
  settings.model.dynamic_batching->priority_levels = 2;
  settings.model.dynamic_batching->default_priority_level = 2;
  settings.scheduler.hold_until_queued = 5;
  TestBatcher batcher(std::move(settings));
  std::vector<Arrival> arrivals{{0.0, 1, 2}, {0.0, 1, 2}, {0.0, 1, 2}, {0.0, 1, 1}, {0.0, 1, 1}};
  const auto out = drive(batcher, 1, 1.0, arrivals, 10.0);
  REQUIRE(out.batches.size() == 2);
  CHECK(out.batches[0].ids == std::vector<std::int64_t>{3, 4, 0, 1});
  CHECK(out.batches[1].ids == std::vector<std::int64_t>{2});
}

TEST_CASE("priority levels turn prefetching off") {
  auto settings = batching(8, {}, 0.0, 1);
  settings.model.dynamic_batching->priority_levels = 2;
  settings.model.dynamic_batching->default_priority_level = 1;
  CHECK_FALSE(TestBatcher(settings).prefetching());
  CHECK(TestBatcher(batching(8, {}, 0.0, 1)).prefetching());
}
