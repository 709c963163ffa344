// The dynamic batcher's queue scan against Triton's QA expectations (docs/reference/triton.md §12) and
// edge cases (§13) that one scan decides on its own. Unless a case says otherwise the model is
// the QA one: max_batch_size 8, preferred [2, 6], max_queue_delay 10 s.
#include <doctest/doctest.h>

#include <utility>
#include <vector>

#include "models/triton/batch_scan.hpp"

using namespace sonicsim::triton;

namespace {

// A model with dynamic batching, its preferred sizes given (so normalize_model_config leaves them).
ModelConfig batching_model(int max_batch_size, std::vector<int> preferred, double delay_s) {
  ModelConfig model;
  model.max_batch_size = max_batch_size;
  model.dynamic_batching = DynamicBatchingConfig{};
  model.dynamic_batching->preferred_batch_sizes = std::move(preferred);
  model.dynamic_batching->max_queue_delay_s = delay_s;
  return model;
}

const ModelConfig kQaModel = batching_model(8, {2, 6}, 10.0);
const ModelConfig kPreferredOnly = batching_model(8, {4, 6}, 0.0);  // the preferred_batch_only_* models

// Requests of these units, all entering the batcher at time 0.
std::vector<ScannedRequest> queued(std::initializer_list<int> units) {
  std::vector<ScannedRequest> q;
  for (int u : units) q.push_back({u, 0.0, 0.0});
  return q;
}

int units_taken(const std::vector<ScannedRequest>& q, const ScanResult& r) {
  int total = 0;
  for (std::size_t i = 0; i < r.take; ++i) total += q[i].units;
  return total;
}

}  // namespace

TEST_CASE("preferred sizes default to [max_batch_size]; nothing when batching is off (§13.1)") {
  CHECK(normalized_preferred_sizes(8, {}) == std::vector<int>{8});
  CHECK(normalized_preferred_sizes(0, {}).empty());
  CHECK(normalized_preferred_sizes(8, {2, 6}) == std::vector<int>{2, 6});
}

TEST_CASE("below every preferred size the batch waits for the delay, then goes (static_batch_lt_any / not_preferred)") {
  for (int units : {1, 3}) {
    const auto q = queued({units});
    const auto early = scan_queue(kQaModel, false, 0, false, q, 0.0);
    CHECK(early.take == 0);
    CHECK(early.wait_s == doctest::Approx(10.0));
    const auto due = scan_queue(kQaModel, false, 0, false, q, 10.0);  // age >= delay
    CHECK(due.take == 1);
    CHECK_FALSE(due.saturated);  // §13.5: a delayed partial batch may still grow
  }
}

TEST_CASE(
    "a single request at or above the largest preferred size goes at once (static_batch_gt_max_preferred, §13.4)") {
  const auto q = queued({7});
  const auto r = scan_queue(kQaModel, false, 0, false, q, 0.0);
  CHECK(r.take == 1);
  CHECK(r.wait_s == 0);
  CHECK(r.saturated);
}

TEST_CASE(
    "crossing the largest preferred size sends the batch before it (multi_batch_gt / sum_gt_max_preferred, §13.3)") {
  auto q = queued({3, 7});
  auto r = scan_queue(kQaModel, false, 0, false, q, 0.0);
  CHECK(units_taken(q, r) == 3);
  q.erase(q.begin());
  r = scan_queue(kQaModel, false, 0, false, q, 0.0);  // the 7 then goes at once too: {3:1, 7:1}
  CHECK(units_taken(q, r) == 7);

  q = queued({3, 4});
  r = scan_queue(kQaModel, false, 0, false, q, 0.0);
  CHECK(units_taken(q, r) == 3);
  q.erase(q.begin());
  r = scan_queue(kQaModel, false, 0, false, q, 0.0);  // the 4 waits for the delay: {3:1, 4:1}
  CHECK(r.take == 0);
  CHECK(r.wait_s == doctest::Approx(10.0));
  CHECK(r.next_preferred == 6);
}

TEST_CASE("the largest reachable preferred size wins, found by FIFO prefix sums (§13.2)") {
  auto q = queued({1, 1, 1, 1, 1, 1});  // multi_batch_use_biggest_preferred: {6:1}
  CHECK(units_taken(q, scan_queue(kQaModel, false, 0, false, q, 0.0)) == 6);

  q = queued({1, 1, 1});  // multi_batch_use_best_preferred: {2:1, 1:1}
  auto r = scan_queue(kQaModel, false, 0, false, q, 0.0);
  CHECK(units_taken(q, r) == 2);
  q.erase(q.begin(), q.begin() + 2);
  CHECK(scan_queue(kQaModel, false, 0, false, q, 0.0).take == 0);

  q = queued({1, 1, 1, 1, 1, 1, 1});  // P = {4, 6}, delay 0: 6 then 1
  r = scan_queue(kPreferredOnly, false, 0, false, q, 0.0);
  CHECK(units_taken(q, r) == 6);
  CHECK(r.saturated);
  q.erase(q.begin(), q.begin() + 6);
  CHECK(units_taken(q, scan_queue(kPreferredOnly, false, 0, false, q, 0.0)) == 1);
}

TEST_CASE("with no delay, everything queued goes at once when no preferred size is reachable") {
  auto q = queued({1, 1, 1, 1});  // preferred_batch_only_aligned: {4:1}
  CHECK(units_taken(q, scan_queue(kPreferredOnly, false, 0, false, q, 0.0)) == 4);
  q = queued({1, 1, 1});  // preferred_batch_only_use_no_preferred_size: {3:1}
  const auto r = scan_queue(kPreferredOnly, false, 0, false, q, 0.0);
  CHECK(units_taken(q, r) == 3);
  CHECK_FALSE(r.saturated);
}

TEST_CASE("after the delay the batch can exceed the largest preferred size, up to max_batch_size (§13.6)") {
  auto q = queued({1, 3});  // multi_batch_not_preferred: {4:1}, both complete at ~10 s
  CHECK(scan_queue(kQaModel, false, 0, false, q, 5.0).take == 0);
  CHECK(units_taken(q, scan_queue(kQaModel, false, 0, false, q, 10.0)) == 4);

  q = queued({3, 4, 1});  // multi_batch_delayed_use_max_batch: {8:1}
  const auto r = scan_queue(kQaModel, false, 0, false, q, 10.0);
  CHECK(units_taken(q, r) == 8);
  CHECK(r.saturated);
}

TEST_CASE("a request that does not fit ends the batch; smaller ones behind it are not pulled forward (§13.8)") {
  const ModelConfig model = batching_model(8, {8}, 0.0);
  const auto q = queued({5, 4, 1});
  const auto r = scan_queue(model, false, 0, false, q, 0.0);
  CHECK(units_taken(q, r) == 5);
}

TEST_CASE("the delay clock is the oldest pending request's time in the batcher") {
  std::vector<ScannedRequest> q{{1, 2.0, 0.0}, {1, 7.0, 0.0}};  // units, batcher start, deadline
  const ModelConfig model = batching_model(8, {6}, 10.0);
  CHECK(scan_queue(model, false, 0, false, q, 8.0).wait_s == doctest::Approx(4.0));  // 10 - (8 - 2)
  CHECK(scan_queue(model, false, 0, false, q, 12.0).take == 2);
}

TEST_CASE("an enqueued payload of a non-preferred size keeps growing; a preferred one waits (branch d)") {
  const auto q = queued({1});
  CHECK(scan_queue(kQaModel, false, 3, false, q, 0.0).take == 1);
  const auto r = scan_queue(kQaModel, false, 2, false, q, 0.0);  // base 2 is preferred: wait for 2 + 1 -> 6
  CHECK(r.take == 0);
  CHECK(r.next_preferred == 4);
}

TEST_CASE("the wait is cut short by the closest deadline of a pending request") {
  std::vector<ScannedRequest> q{{1, 0.0, 3.0}};
  CHECK(scan_queue(kQaModel, false, 0, false, q, 1.0).wait_s == doctest::Approx(2.0));
  CHECK(scan_queue(kQaModel, false, 0, false, q, 4.0).wait_s == doctest::Approx(1e-6));  // already past
}

TEST_CASE("shape-checked models: a request of another shape ends the batch (GetDynamicBatch's HasEqualInputs)") {
  // Preferred [4, 6], no delay. Shapes 10, 10, 20, 10 (one unit each): the batch is the first two;
  // Triton marks the payload saturated and sends what is pending (case b). The fourth, of the
  // batch's shape, is not pulled forward.
  std::vector<ScannedRequest> q = {{1, 0.0, 0.0, 10}, {1, 0.0, 0.0, 10}, {1, 0.0, 0.0, 20}, {1, 0.0, 0.0, 10}};
  const auto r = scan_queue(kPreferredOnly, true, 0, false, q, 0.0);
  CHECK(r.take == 2);
  CHECK(r.saturated);
  CHECK(r.mark_payload_saturated);
  // Without the check the four make the preferred size 4.
  const auto unchecked = scan_queue(kPreferredOnly, false, 0, false, q, 0.0);
  CHECK(unchecked.take == 4);
  CHECK_FALSE(unchecked.mark_payload_saturated);
  // Growing a payload of shape 20: the head, of shape 10, cannot join; nothing is taken.
  const auto grow = scan_queue(kPreferredOnly, true, 1, false, q, 0.0, 20);
  CHECK(grow.take == 0);
  CHECK(grow.mark_payload_saturated);
}
