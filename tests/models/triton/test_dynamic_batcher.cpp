// The scheduler state machine's own mechanics: payload growth, the prefetch cap, instance-side
// merging and freezing, the two wake-up modes and the default scheduler (docs/reference/triton.md §5,
// §6, §12 A and D, §13 items 15, 18, 19, 23).
#include <doctest/doctest.h>

#include "tests/support/batcher_driver.hpp"

using namespace sonicsim;
using namespace sonicsim::testing;

namespace {

std::vector<Arrival> every(double interval_s, int count, double first_s = 0.0) {
  std::vector<Arrival> out;
  for (int i = 0; i < count; ++i) out.push_back({first_s + i * interval_s, 1});
  return out;
}

}  // namespace

TEST_CASE("scenario A: no delay, max 8, one instance, 10 ms kernels, a request per ms -> 1, 8, 8, 3") {
  TestBatcher batcher(batching(8, {}, 0.0));
  const auto out = drive(batcher, 1, 10e-3, every(1e-3, 20), 1.0);
  CHECK(out.sizes() == std::vector<int>{1, 8, 8, 3});
  // The second batch formed while the first ran and went when the instance freed up.
  CHECK(out.batches[1].at_s == doctest::Approx(10e-3));
}

TEST_CASE("scenario D: arrivals of 1, 2, 7, 1 with max 8 -> 1, 2, 8") {
  // The 2 waits as a growing payload; the 7 cannot join it and starts the next one, which the 1 fills.
  TestBatcher batcher(batching(8, {}, 0.0));
  const auto out = drive(batcher, 1, 1.0, {{0.0, 1}, {0.1, 2}, {0.2, 7}, {0.3, 1}}, 10.0);
  CHECK(out.sizes() == std::vector<int>{1, 2, 8});
}

TEST_CASE("a burst arriving one by one while the instance is busy fills the first preferred size") {
  // Evaluated on every arrival, the queued payload grows to the first preferred size it reaches
  // (4), is saturated, and the rest start the next one.
  TestBatcher batcher(batching(8, {4, 6}, 0.0));
  std::vector<Arrival> arrivals{{0.0, 1}};
  for (int i = 0; i < 6; ++i) arrivals.push_back({1e-3 + i * 1e-6, 1});
  CHECK(drive(batcher, 1, 0.5, arrivals, 10.0).sizes() == std::vector<int>{1, 4, 2});
}

TEST_CASE("a burst arriving at one instant is queued whole before the batcher looks: the biggest preferred size") {
  // As above, all six at the same instant: the batcher sees them together and takes the largest
  // reachable preferred size, as in QA's preferred_batch_only_use_biggest_preferred.
  TestBatcher batcher(batching(8, {4, 6}, 0.0));
  std::vector<Arrival> arrivals{{0.0, 1}};
  for (int i = 0; i < 6; ++i) arrivals.push_back({1e-3, 1});
  CHECK(drive(batcher, 1, 0.5, arrivals, 10.0).sizes() == std::vector<int>{1, 6});
}

TEST_CASE("requests arriving at one instant at an idle instance form one batch, in the order they came") {
  // The two jobs with a constant 10 ms CPU step, as a trace: with no delay, the batcher
  // thread runs after both are queued and takes them together, first one first.
  TestBatcher batcher(batching(8, {}, 0.0));
  const auto out = drive(batcher, 1, 1e-3, {{0.01, 1}, {0.01, 1}, {0.021, 1}, {0.021, 1}}, 1.0);
  CHECK(out.sizes() == std::vector<int>{2, 2});
  REQUIRE(out.batches.size() == 2);
  CHECK(out.batches[0].ids == std::vector<std::int64_t>{0, 1});
  CHECK(out.batches[1].ids == std::vector<std::int64_t>{2, 3});
  // Also without batching (Triton's default scheduler): two batches of one, in arrival order.
  BatcherSetup plain;
  plain.model.max_batch_size = 8;
  TestBatcher fifo(plain);
  const auto unbatched = drive(fifo, 1, 1e-3, {{0.01, 1}, {0.01, 1}}, 1.0);
  REQUIRE(unbatched.batches.size() == 2);
  CHECK(unbatched.batches[0].ids == std::vector<std::int64_t>{0});
  CHECK(unbatched.batches[1].ids == std::vector<std::int64_t>{1});
}

TEST_CASE("prefetch: at most 2 x instances formed batches wait; the rest stay queued (§13.15)") {
  TestBatcher batcher(batching(1, {}, 0.0));  // max_batch_size 1: one request per batch
  CHECK(batcher.prefetching());
  batcher.instance_idle(0.0);
  for (int i = 0; i < 6; ++i) batcher.enqueue({i, 1, 0.0}, 0.0);
  batcher.decide(0.0);
  CHECK(batcher.take_dispatched().size() == 1);  // the instance took the first
  CHECK(batcher.waiting_payloads() == 2);
  CHECK(batcher.queued_requests() == 3);
}

TEST_CASE("without prefetching a batch forms only when an instance is idle (§13.15)") {
  // Same load as the prefetch case, with a queue policy: nothing waits as a payload.
  auto settings = batching(8, {}, 0.0);
  settings.model.dynamic_batching->default_queue_policy.max_queue_size = 100;
  TestBatcher batcher(std::move(settings));
  CHECK_FALSE(batcher.prefetching());
  const auto out = drive(batcher, 1, 10e-3, every(1e-3, 20), 1.0);
  CHECK(batcher.waiting_payloads() == 0);
  // The instance takes everything queued each time it frees up: 1, then the 9 queued by 10 ms,
  // then the 10 queued by 20 ms up to the maximum of 8, then the last 2.
  CHECK(out.sizes() == std::vector<int>{1, 8, 8, 3});
}

TEST_CASE("instance-side merge: delay-expired payloads are coalesced when an instance frees up (§13.18)") {
  // One instance busy until 101 ms; preferred [4], max 8, delay 1 ms; a request every 10 ms.
  // The first payload grows to 5 (crossing 4 saturates it), the next one gets the request at 60 ms
  // and then the prefetch cap (2 payloads for 1 instance) blocks the batcher, so the 70 ms request
  // stays queued. At 101 ms the instance takes 5 and merges the expired 1: a batch of 6.
  TestBatcher batcher(batching(8, {4}, 1e-3));
  std::vector<Arrival> arrivals{{0.0, 1}};  // executes from 1 ms to 101 ms
  for (const Arrival& a : every(0.01, 7, 0.01)) arrivals.push_back(a);
  const auto out = drive(batcher, 1, 0.1, arrivals, 0.25);
  CHECK(out.sizes() == std::vector<int>{1, 6, 1});
  CHECK(out.batches[1].ids.size() == 6);
  CHECK(out.batches[1].at_s == doctest::Approx(0.101));
}

TEST_CASE("instance-side merge: a payload that does not fit is frozen and executes at its size (§13.18)") {
  // Preferred [8] = max: the first payload fills to 8; the next request cannot fit and starts a
  // second payload of 1. When the instance takes the 8 at 101 ms it looks at the 1, which cannot
  // join: frozen. A burst of eight fills a third payload, which cannot join the frozen one either,
  // so the frozen payload executes as 1 while 8 requests wait behind it.
  TestBatcher batcher(batching(8, {8}, 1e-3));
  std::vector<Arrival> arrivals{{0.0, 1}};
  for (const Arrival& a : every(0.005, 9, 0.01)) arrivals.push_back(a);  // 8 + 1 by 50 ms
  for (int i = 0; i < 8; ++i) arrivals.push_back({0.105, 1});
  CHECK(drive(batcher, 1, 0.1, arrivals, 1.0).sizes() == std::vector<int>{1, 8, 1, 8});
}

TEST_CASE("wake-up modes differ where an arrival does not notify the batcher (§6, §13.19)") {
  // Preferred [6], max 8, delay 10 s, one instance, every batch runs 12.2 s.
  // 0 s: a 6 runs at once. 1 s: a 1 waits for its delay (next preferred threshold: 6 units).
  // 11 s: its delay expires and it is formed into a payload of 1 behind the busy instance; the
  // batcher then waits idle, with 500 ms ticks at 11.5 s, 12 s, 12.5 s, ...
  // 12.1 s: another 1 arrives. Evaluated on every event it joins the queued payload at once, and the
  // instance takes a batch of 2 at 12.2 s. Literally, 1 queued unit is below the threshold of 6,
  // so Triton's batcher is not woken; its next tick (12.5 s) comes after the instance took the
  // payload of 1 at 12.2 s, and the late request waits for its own delay. (An arrival exactly on a
  // tick would race with the batcher thread in Triton.)
  const std::vector<Arrival> arrivals{{0.0, 6}, {1.0, 1}, {12.1, 1}};
  auto idealised = batching(8, {6}, 10.0);
  auto literal = idealised;
  literal.scheduler.wakeup = triton::BatcherWakeup::Literal;
  TestBatcher a(idealised), b(literal);
  const auto out_idealised = drive(a, 1, 12.2, arrivals, 100.0);
  const auto out_literal = drive(b, 1, 12.2, arrivals, 100.0);
  CHECK(out_idealised.sizes() == std::vector<int>{6, 2});
  CHECK(out_literal.sizes() == std::vector<int>{6, 1, 1});
  CHECK(out_literal.batches[1].at_s == doctest::Approx(12.2));
  CHECK(out_literal.batches[2].at_s == doctest::Approx(24.4));  // formed at 22.1 s, instance free at 24.4 s
}

TEST_CASE("literal mode: a non-notifying arrival is picked up at the batcher's next 500 ms poll") {
  // As above but the instance stays busy: the late request joins the queued payload at the poll
  // after its arrival (polls every 0.5 s from 11 s, when the batcher went idle): 12.5 s.
  auto settings = batching(8, {6}, 10.0);
  settings.scheduler.wakeup = triton::BatcherWakeup::Literal;
  TestBatcher batcher(settings);
  batcher.instance_idle(0.0);
  batcher.enqueue({0, 6, 0.0}, 0.0);
  batcher.decide(0.0);
  CHECK(batcher.take_dispatched().size() == 1);
  batcher.enqueue({1, 1, 1.0}, 1.0);
  batcher.decide(1.0);
  CHECK(batcher.next_wakeup_s() == doctest::Approx(11.0));
  batcher.wake(11.0);
  batcher.decide(11.0);
  CHECK(batcher.waiting_payloads() == 1);
  batcher.enqueue({2, 1, 12.1}, 12.1);
  CHECK_FALSE(batcher.decision_pending());  // not woken
  batcher.decide(12.1);
  CHECK(batcher.queued_requests() == 1);
  CHECK(batcher.next_wakeup_s() == doctest::Approx(12.5));
  batcher.wake(12.5);
  batcher.decide(12.5);
  CHECK(batcher.queued_requests() == 0);  // joined the queued payload
  batcher.instance_idle(20.0);
  batcher.decide(20.0);
  const auto batches = batcher.take_dispatched();
  REQUIRE(batches.size() == 1);
  CHECK(batches[0].units == 2);
}

TEST_CASE("default scheduler: no batching across requests, FIFO, a request's own batch kept (§13.23)") {
  BatcherSetup settings;
  settings.model.max_batch_size = 8;
  settings.scheduler.instances = 1;
  TestBatcher batcher(settings);
  const auto out = drive(batcher, 1, 1.0, {{0.0, 3}, {0.1, 1}, {0.2, 1}, {0.3, 5}}, 100.0);
  CHECK(out.sizes() == std::vector<int>{3, 1, 1, 5});
  CHECK(out.batches[1].at_s == doctest::Approx(1.0));
  CHECK(out.batches[3].at_s == doctest::Approx(3.0));
  CHECK(batcher.next_wakeup_s() == std::numeric_limits<double>::infinity());
}
