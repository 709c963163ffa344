// Minimal traces for the places where the batcher's timing must follow Triton's code to the letter
// (core 73aad7c, src/dynamic_batch_scheduler.cc and src/scheduler_utils.cc). Each trace is worked
// out by hand below from BatcherThread, Enqueue, WaitForPayloadSlotAvailable, GetDynamicBatch and
// PolicyQueue::ApplyPolicy; the expected values are Triton's, and a deviation in any of these
// places changes the outcome.
#include <doctest/doctest.h>

#include "tests/support/batcher_driver.hpp"

using namespace sonicsim;
using namespace sonicsim::testing;

namespace {

BatcherSetup literal(BatcherSetup s) {
  s.scheduler.wakeup = triton::BatcherWakeup::Literal;
  return s;
}

// Two priority levels, level 2 the default and without policy; level 1 rejects after `timeout_s`
// and holds at most `max_queue` requests (0: unbounded). Any queue policy turns prefetching off.
BatcherSetup two_levels(double timeout_s, int max_queue) {
  auto s = literal(batching(8, {4}, 0.1));
  s.model.dynamic_batching->priority_levels = 2;
  s.model.dynamic_batching->default_priority_level = 2;
  triton::QueuePolicy level1;
  level1.default_timeout_s = timeout_s;
  level1.max_queue_size = max_queue;
  s.model.dynamic_batching->priority_queue_policy[1] = level1;
  return s;
}

}  // namespace

TEST_CASE("the idle wait restarts each time the batcher thread runs (BatcherThread: a fresh 500 ms wait)") {
  // Literal mode, one instance, preferred [2, 6], max 8, delay 10 s; the first batch runs 4.6 s.
  // 0 s: a 6 goes at once; the batcher waits idle.   2 s: a 1 starts a delay wait (next preferred: 2).
  // 3 s: a 1 makes 2 queued units: notified, a preferred 2 forms a payload behind the busy instance.
  // 4.3 s: a 4 (4 >= 2 queued) notifies again and grows the payload to the preferred 6; the thread
  // then starts a fresh 500 ms idle wait: ticks at 4.8 s, 5.3 s, ...
  // 4.4 s: a 1 (1 < 2) does not notify. The instance takes the payload of 6 at 4.6 s, before the
  // 4.8 s tick; the late request is scanned on that payload callback and waits for its own delay.
  // Counting the idle ticks from 3 s instead puts one at 4.5 s and the late request into the 6.
  TestBatcher batcher(literal(batching(8, {2, 6}, 10.0)));
  const auto exec = [](int units) { return units == 6 ? 4.6 : 1.0; };
  const auto out = drive(batcher, 1, exec, {{0.0, 6}, {2.0, 1}, {3.0, 1}, {4.3, 4}, {4.4, 1}}, 100.0);
  CHECK(out.sizes() == std::vector<int>{6, 6, 1});
  REQUIRE(out.batches.size() == 3);
  CHECK(out.batches[1].at_s == doctest::Approx(4.6));
  CHECK(out.batches[2].at_s == doctest::Approx(14.4));  // 4.4 s + the 10 s delay
}

TEST_CASE("the slot wait restarts on each entry (WaitForPayloadSlotAvailable: 500 ms from the call)") {
  // Literal mode, one instance, a queue policy (no prefetching), requests on the default level may
  // lower its 10 s timeout. 0 s: request 0 runs for 0.65 s. 0.1 s: request 1 (no slot: the batcher
  // does not wake; its idle tick at 0.5 s enters the slot wait). 0.3 s: request 2 with a 0.4 s
  // timeout (deadline 0.7 s). 0.65 s: the instance frees, request 1 goes, and the thread calls
  // WaitForPayloadSlotAvailable again: its ticks are 1.15 s, 1.65 s, ... so request 2 is rejected
  // at 1.15 s. Ticks carried over from the first entry (0.5 s) would reject it at 1.0 s.
  auto settings = literal(batching(1, {}, 0.0));
  settings.model.dynamic_batching->default_queue_policy.default_timeout_s = 10.0;
  settings.model.dynamic_batching->default_queue_policy.allow_timeout_override = true;
  TestBatcher batcher(settings);
  const auto out = drive(batcher, 1, 0.65, {{0.0, 1}, {0.1, 1}, {0.3, 1, 0, 0.4}}, 5.0);
  REQUIRE(out.timed_out.size() == 1);
  CHECK(out.timed_out[0].second == 2);
  CHECK(out.timed_out[0].first == doctest::Approx(1.15));
  CHECK(out.sizes() == std::vector<int>{1, 1});
}

TEST_CASE("a request refused by a full queue still counts toward the wake-up threshold (Enqueue)") {
  // Level 1: REJECT after 50 ms, at most 1 queued. Literal mode, preferred [4], delay 100 ms.
  // 0 s: R1 on level 1 starts a delay wait (next preferred: 4 units) and a deadline timer.
  // 10 ms: R2 on level 1 is refused (queue full), but Triton has already added its unit to
  // queued_batch_size_ and never takes it back: 2 queued units.
  // 50 ms: R1's deadline timer; the scan after it rejects R1 (queued 1). The batcher waits idle, still
  // with the threshold of 4.
  // 200 ms: R3 (3 units, level 2): 1 + 3 >= 4 notifies; its delay runs out at 300 ms. Without the
  // refused unit it would wait for the idle tick at 550 ms and go then.
  TestBatcher batcher(two_levels(0.05, 1));
  const auto out = drive(batcher, 1, 0.1, {{0.0, 1, 1}, {0.01, 1, 1}, {0.2, 3, 2}}, 5.0);
  CHECK(out.refused == std::vector<std::int64_t>{1});
  REQUIRE(out.timed_out.size() == 1);
  CHECK(out.timed_out[0].first == doctest::Approx(0.05).epsilon(1e-12));
  REQUIRE(out.batches.size() == 1);
  CHECK(out.batches[0].units == 3);
  CHECK(out.batches[0].at_s == doctest::Approx(0.3));
}

TEST_CASE("requests rejected by the slot wait's tick are not subtracted from the queued units") {
  // Level 1: REJECT after 50 ms. Literal mode, preferred [4], delay 100 ms, one instance.
  // 0 s: R0 (2 units, level 2) forms at 100 ms and runs for 1.2 s (to 1.3 s).
  // 0.2 s: R1 (level 1) finds no slot; the idle tick at 0.6 s enters the slot wait, whose tick at
  // 1.1 s rejects R1 (RejectTimeoutRequests): queued_batch_size_ keeps its unit.
  // 2 s: R2 (level 1) starts a delay wait (threshold 4) and is rejected by the scan at 2.05 s.
  // 2.2 s: R3 (3 units): 1 + 3 >= 4 notifies, and it goes at 2.3 s after its delay, not at the
  // idle tick at 2.55 s.
  TestBatcher batcher(two_levels(0.05, 0));
  const auto exec = [](int units) { return units == 2 ? 1.2 : 0.1; };
  const auto out = drive(batcher, 1, exec, {{0.0, 2, 2}, {0.2, 1, 1}, {2.0, 1, 1}, {2.2, 3, 2}}, 10.0);
  REQUIRE(out.timed_out.size() == 2);
  CHECK(out.timed_out[0].first == doctest::Approx(1.1));
  CHECK(out.timed_out[1].first == doctest::Approx(2.05).epsilon(1e-12));
  CHECK(out.sizes() == std::vector<int>{2, 3});
  REQUIRE(out.batches.size() == 2);
  CHECK(out.batches[1].at_s == doctest::Approx(2.3));
}

TEST_CASE("the batcher scans once, after the closest deadline: DELAY then moves the expired requests in queue order") {
  // Times in units u = 2^-20 s (exact in binary). Literal mode, max 8 (preferred [8]), delay 1000u,
  // one instance; the default policy DELAYs after 501u and a request may shorten that.
  // 0: R0 (deadline 501u) notifies (next_preferred_batch_size_ is 0). GetDynamicBatch: R0 alone
  // waits; next preferred 8; wait = min(1000u - 0, ClosestTimeout 501u - 0) = 501u.
  // 2u: R1 with its own timeout 1u (deadline 3u): queued_batch_size_ 2 < 8, Enqueue does not notify.
  // BatcherThread's cv_.wait_for(501u) returns after 501u, never at it, so GetDynamicBatch's
  // ApplyPolicy (`now > timeout`) finds both R0 and R1 expired and moves them to the delayed queue
  // in queue order, R0 first. Delayed requests have no timeout: the batch waits for R0's delay and
  // goes as [R0, R1] at 1000u. Scanning at 501u itself, where R0 is not yet expired, moves R1 alone
  // and R0 behind it 1 us later: [R1, R0].
  const double u = 1.0 / (1 << 20);
  auto settings = literal(batching(8, {}, 1000 * u));
  triton::QueuePolicy& policy = settings.model.dynamic_batching->default_queue_policy;
  policy.timeout_action = triton::TimeoutAction::Delay;
  policy.default_timeout_s = 501 * u;
  policy.allow_timeout_override = true;
  TestBatcher batcher(settings);
  const auto out = drive(batcher, 1, 17731 * u, {{0.0, 1}, {2 * u, 1, 0, 1 * u}}, 1.0);
  REQUIRE(out.batches.size() == 1);
  CHECK(out.batches[0].ids == std::vector<std::int64_t>{0, 1});
  CHECK(out.batches[0].at_s == 1000 * u);
  CHECK(out.timed_out.empty());
}

TEST_CASE(
    "a request that arrives on a 500 ms tick of the idle wait is seen by that tick (BatcherThread's cv_.wait_for)") {
  // Literal mode, preferred [6], max 8, delay 10 s, one instance; every batch runs 12.2 s.
  // 0 s: a 6 runs at once. 1 s: a 1 waits for its delay (GetDynamicBatch: next preferred 6).
  // 11 s: its delay is exceeded; it is formed into a payload of 1 that waits for the busy instance,
  // and the thread's idle wait (queue empty: 500 ms) starts: ticks at 11.5 s, 12 s, 12.5 s.
  // 12 s: a 1 arrives into the empty queue: 1 queued unit < 6, Enqueue does not notify. The wait
  // returns after the 12 s tick, with the request queued: GetDynamicBatch grows the payload of 1,
  // not a preferred size, with it (pending 1 + payload 1 = 2 < 6; next preferred 6 - 1 = 5; the
  // payload is neither saturated nor empty nor preferred: return 0). The instance takes a batch of 2
  // at 12.2 s. Missing the 12 s tick, the request is seen at 12.2 s, after the instance took the
  // payload of 1, and waits for its own delay: 1 at 12.2 s, 1 at 22 s.
  // Shifted by 4.1 s, the tick (15.1 s + 2 x 0.5 s) is one whose (t - since) / 0.5 rounds above 2.
  for (const double shift : {0.0, 4.1}) {
    CAPTURE(shift);
    const double delay_expiry = (shift + 1.0) + 10.0;  // as the batcher computes it: the wait's start
    TestBatcher batcher(literal(batching(8, {6}, 10.0)));
    const auto out = drive(batcher, 1, 12.2, {{shift, 6}, {shift + 1.0, 1}, {delay_expiry + 2 * 0.5, 1}}, 100.0);
    CHECK(out.sizes() == std::vector<int>{6, 2});
    REQUIRE(out.batches.size() == 2);
    CHECK(out.batches[1].at_s == shift + 12.2);
    CHECK(out.batches[1].ids == std::vector<std::int64_t>{1, 2});
  }
}

TEST_CASE("a REJECT deadline on a tick of the slot wait is rejected by that tick (WaitForPayloadSlotAvailable)") {
  // Literal mode, max 8, no delay, one instance; REJECT after 0.75 s (no prefetching). 0 s: request 0
  // runs for 10 s; the batcher's idle wait ticks at 0.5 s. 0.25 s: request 1 (deadline 1 s) finds no
  // slot, so Enqueue does not notify. 0.5 s: the idle wait returns to a non-empty queue and the
  // thread enters WaitForPayloadSlotAvailable: ticks at 1 s, 1.5 s, ... The wait_for of the 1 s tick
  // returns after it, so RejectTimeoutRequests (`now > timeout`) rejects request 1 there, not at 1.5 s.
  auto settings = literal(batching(8, {}, 0.0));
  settings.model.dynamic_batching->default_queue_policy.default_timeout_s = 0.75;
  TestBatcher batcher(settings);
  const auto out = drive(batcher, 1, 10.0, {{0.0, 1}, {0.25, 1}}, 100.0);
  REQUIRE(out.timed_out.size() == 1);
  CHECK(out.timed_out[0].second == 1);
  CHECK(out.timed_out[0].first == 1.0);
  CHECK(out.sizes() == std::vector<int>{1});
}
