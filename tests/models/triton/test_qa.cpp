// Triton's own QA expectations for the dynamic batcher (server/qa/L0_batcher and L0_http, listed in
// docs/reference/triton.md §12), each driven through the scheduler state machine. The QA model has
// max_batch_size 8, preferred [2, 6] and a 10 s delay; the preferred_batch_only_* models have
// preferred [4, 6] and no delay. QA queues a burst before the batcher looks at it with
// TRITONSERVER_DELAY_SCHEDULER=<n>: hold_until_queued here. Four instances, so a formed batch
// starts at once and dispatch times are formation times.
#include <doctest/doctest.h>

#include "tests/support/batcher_driver.hpp"

using namespace sonicsim;
using namespace sonicsim::testing;

namespace {

constexpr double kDelay = 10.0;
constexpr double kExec = 0.1;

BatcherSetup qa_model(int hold = 0) {
  auto s = batching(8, {2, 6}, kDelay, 4);
  s.scheduler.hold_until_queued = hold;
  return s;
}

BatcherSetup preferred_only_model(int hold) {
  auto s = batching(8, {4, 6}, 0.0, 4);
  s.scheduler.hold_until_queued = hold;
  return s;
}

Outcome run_queue(BatcherSetup settings, const std::vector<Arrival>& arrivals) {
  TestBatcher batcher(std::move(settings));
  return drive(batcher, 4, kExec, arrivals, 1000.0);
}

std::vector<int> sorted(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_CASE("QA static_batch_preferred: {2:1, 6:1}, both at once") {
  const auto out = run_queue(qa_model(), {{0.0, 2}, {1.0, 6}});
  CHECK(out.sizes() == std::vector<int>{2, 6});
  CHECK(out.batches[0].at_s == 0.0);
  CHECK(out.batches[1].at_s == 1.0);
}

TEST_CASE("QA static_batch_lt_any_preferred and static_batch_not_preferred: {1:1} / {3:1} at the delay") {
  for (int units : {1, 3}) {
    const auto out = run_queue(qa_model(), {{0.0, units}});
    REQUIRE(out.batches.size() == 1);
    CHECK(out.batches[0].units == units);
    CHECK(out.batches[0].at_s == doctest::Approx(kDelay));
  }
}

TEST_CASE("QA static_batch_gt_max_preferred: {7:1} at once") {
  const auto out = run_queue(qa_model(), {{0.0, 7}});
  CHECK(out.sizes() == std::vector<int>{7});
  CHECK(out.batches[0].at_s == 0.0);
}

TEST_CASE("QA multi_batch_not_preferred: 1 + 3 -> {4:1} at the delay") {
  const auto out = run_queue(qa_model(), burst({1, 3}));
  CHECK(out.sizes() == std::vector<int>{4});
  CHECK(out.batches[0].at_s == doctest::Approx(kDelay));
}

TEST_CASE("QA multi_batch_gt_max_preferred: 3 then 7 -> {3:1, 7:1}, both at once") {
  const auto out = run_queue(qa_model(), burst({3, 7}));
  CHECK(out.sizes() == std::vector<int>{3, 7});
  CHECK(out.batches[0].at_s == 0.0);
  CHECK(out.batches[1].at_s == 0.0);
}

TEST_CASE("QA multi_batch_sum_gt_max_preferred: 3 + 4 -> 3 at once, 4 after the delay") {
  const auto out = run_queue(qa_model(), burst({3, 4}));
  CHECK(out.sizes() == std::vector<int>{3, 4});
  CHECK(out.batches[0].at_s == 0.0);
  CHECK(out.batches[1].at_s == doctest::Approx(kDelay));
}

TEST_CASE("QA multi_batch_delayed_sum_gt_max_preferred: 3, then 4 later -> 3 when 4 arrives, 4 after its delay") {
  const auto out = run_queue(qa_model(), {{0.0, 3}, {2.0, 4}});
  CHECK(out.sizes() == std::vector<int>{3, 4});
  CHECK(out.batches[0].at_s == 2.0);
  CHECK(out.batches[1].at_s == doctest::Approx(2.0 + kDelay));
}

TEST_CASE("QA multi_batch_use_biggest_preferred: six 1s -> {6:1}") {
  const auto out = run_queue(qa_model(6), burst({1, 1, 1, 1, 1, 1}));
  CHECK(out.sizes() == std::vector<int>{6});
  CHECK(out.batches[0].at_s == 0.0);
}

TEST_CASE("QA multi_batch_use_best_preferred: three 1s -> {2:1} at once, {1:1} after the delay") {
  const auto out = run_queue(qa_model(3), burst({1, 1, 1}));
  CHECK(out.sizes() == std::vector<int>{2, 1});
  CHECK(out.batches[0].at_s == 0.0);
  CHECK(out.batches[1].at_s == doctest::Approx(kDelay));
}

TEST_CASE("QA multi_batch_delayed_use_max_batch: 3 + 4 + 1 after the delay -> {8:1}, above max preferred") {
  // The batcher first looks when the third request arrives, 11 s after the first: the delay has
  // expired, so the preferred sizes no longer apply and the whole queue goes (up to 8).
  const auto out = run_queue(qa_model(3), {{0.0, 3}, {0.0, 4}, {11.0, 1}});
  CHECK(out.sizes() == std::vector<int>{8});
  CHECK(out.batches[0].at_s == 11.0);
}

TEST_CASE("QA preferred_batch_only_aligned: four 1s -> {4:1}") {
  CHECK(run_queue(preferred_only_model(4), burst({1, 1, 1, 1})).sizes() == std::vector<int>{4});
}

TEST_CASE("QA preferred_batch_only_unaligned: five 1s -> {4:1, 1:1}") {
  CHECK(sorted(run_queue(preferred_only_model(5), burst({1, 1, 1, 1, 1})).sizes()) == std::vector<int>{1, 4});
}

TEST_CASE("QA preferred_batch_only_use_biggest_preferred: seven 1s -> {6:1, 1:1}") {
  const auto out = run_queue(preferred_only_model(7), burst({1, 1, 1, 1, 1, 1, 1}));
  CHECK(out.sizes() == std::vector<int>{6, 1});
}

TEST_CASE("QA preferred_batch_only_use_no_preferred_size: three 1s -> {3:1}") {
  CHECK(run_queue(preferred_only_model(3), burst({1, 1, 1})).sizes() == std::vector<int>{3});
}

TEST_CASE("QA multi_batch_preserve_ordering: twelve 1s, preferred [4] -> {4:3}, queue-exit order kept") {
  auto settings = batching(8, {4}, 0.0, 4);
  settings.model.dynamic_batching->preserve_ordering = true;
  settings.scheduler.hold_until_queued = 12;
  const auto out = run_queue(settings, burst({1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
  CHECK(out.sizes() == std::vector<int>{4, 4, 4});
  std::vector<std::int64_t> orders;
  for (const auto& b : out.batches) orders.insert(orders.end(), b.orders.begin(), b.orders.end());
  for (std::size_t i = 0; i < orders.size(); ++i) CHECK(orders[i] == static_cast<std::int64_t>(i));
}

TEST_CASE("QA max_queue_delay_only_default: preferred defaults to [max]; two executions {1, 11}") {
  // max_batch_size 16, no preferred sizes (so [16]), delay 1 s, one instance. The first request
  // goes alone when its delay expires; eleven more arriving later wait their own delay and go together.
  TestBatcher batcher(batching(16, {}, 1.0));
  std::vector<Arrival> arrivals{{0.0, 1}};
  for (int i = 0; i < 11; ++i) arrivals.push_back({1.5, 1});
  const auto out = drive(batcher, 1, 0.1, arrivals, 100.0);
  CHECK(out.sizes() == std::vector<int>{1, 11});
  CHECK(out.batches[0].at_s == doctest::Approx(1.0));
  CHECK(out.batches[1].at_s == doctest::Approx(2.5));
}

TEST_CASE(
    "QA default_queue_policy_timeout_prompt: a timed-out request is rejected within 0.5 s of its deadline while the "
    "instance is busy") {
  auto settings = batching(8, {}, 0.0, 1);
  settings.model.dynamic_batching->default_queue_policy.default_timeout_s = 1.0;  // REJECT, prefetching off
  TestBatcher batcher(std::move(settings));
  // The first request occupies the only instance for 10 s; the second times out at 1.1 s.
  const auto out = drive(batcher, 1, 10.0, {{0.0, 1}, {0.1, 1}}, 100.0);
  REQUIRE(out.timed_out.size() == 1);
  CHECK(out.timed_out[0].second == 1);
  // The slot wait began at 0.1 s, so its second tick falls on the deadline: its wait_for returns
  // after the tick, where RejectTimeoutRequests finds the request expired.
  const double deadline = 0.1 + 1.0;
  CHECK(out.timed_out[0].first >= deadline);
  CHECK(out.timed_out[0].first <= deadline + triton::kBatcherPollS);
  CHECK(out.timed_out[0].first < 10.0);  // well before the instance frees up
  CHECK(out.sizes() == std::vector<int>{1});
}

TEST_CASE("L0_http descriptive_status_code: a full queue refuses at submit (Exceeds maximum queue size)") {
  auto settings = batching(8, {}, 0.0, 1);
  settings.model.dynamic_batching->default_queue_policy.max_queue_size = 1;
  TestBatcher batcher(std::move(settings));
  // Sent one after another: one executes, one waits in the queue (no prefetching with a queue
  // limit), the third is refused.
  const auto out = drive(batcher, 1, 10.0, {{0.0, 1}, {1e-3, 1}, {2e-3, 1}}, 5.0);
  CHECK(out.refused == std::vector<std::int64_t>{2});
}
