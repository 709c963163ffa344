// Payloads that do not grow once formed (Triton 21.07 to 22.01, between server PRs #3024 and
// #3789): the batcher hands each batch to the payload FIFO closed, so requests arriving while the
// instances are busy form batches of their own, up to 2 x instances of them, instead of joining
// the one that waits (docs/reference/triton.md §5.1, §5.2; server issue #3624).
#include <doctest/doctest.h>

#include "tests/support/batcher_driver.hpp"

using namespace sonicsim;
using namespace sonicsim::testing;

namespace {

BatcherSetup fixed_payloads(int max_batch_size, int instances) {
  BatcherSetup s = batching(max_batch_size, {}, 0.0, instances);
  s.scheduler.payloads = triton::BatcherPayloads::Fixed;
  return s;
}

}  // namespace

TEST_CASE("issue #3624's five requests: fixed payloads batch 1, 1, 1, 2 where growing ones batch 1, 4") {
  // One instance, 10 ms kernels, max 8, no delay; requests at 0, 1, 2, 3 and 4 ms. By hand:
  // request 0 runs at once (0-10 ms). Growing: 1 forms the waiting payload, 2-4 join it; the
  // instance takes it at 10 ms: 1, 4. Fixed: 1 forms a payload (FIFO 1 of the 2 x 1 slots), 2
  // another (FIFO full), 3 and 4 stay queued; at 10 ms the instance takes [1], a slot frees and the
  // batcher closes [3, 4] behind [2]: 1, 1, 1, 2, starting at 0, 10, 20 and 30 ms.
  const std::vector<Arrival> arrivals{{0.0, 1}, {1e-3, 1}, {2e-3, 1}, {3e-3, 1}, {4e-3, 1}};
  TestBatcher growing(batching(8, {}, 0.0));
  CHECK(drive(growing, 1, 10e-3, arrivals, 1.0).sizes() == std::vector<int>{1, 4});

  TestBatcher fixed(fixed_payloads(8, 1));
  const Outcome out = drive(fixed, 1, 10e-3, arrivals, 1.0);
  REQUIRE(out.sizes() == std::vector<int>{1, 1, 1, 2});
  CHECK(out.batches[1].ids == std::vector<std::int64_t>{1});
  CHECK(out.batches[2].ids == std::vector<std::int64_t>{2});
  CHECK(out.batches[3].ids == std::vector<std::int64_t>{3, 4});
  for (int i = 0; i < 4; ++i) CHECK(out.batches[i].at_s == doctest::Approx(10e-3 * i));
}

TEST_CASE("fixed payloads: requests arriving together still form one batch") {
  // Closing a payload changes nothing for requests the batcher sees at one instant: the six that
  // arrive at 1 ms while the instance is busy are one batch, as with growing payloads.
  std::vector<Arrival> arrivals{{0.0, 1}};
  for (int i = 0; i < 6; ++i) arrivals.push_back({1e-3, 1});
  TestBatcher fixed(fixed_payloads(8, 1));
  CHECK(drive(fixed, 1, 10e-3, arrivals, 1.0).sizes() == std::vector<int>{1, 6});
}

TEST_CASE("fixed payloads with two instances: four closed batches of one wait, later arrivals queue") {
  // Request 0 at 0 and 1 at 0.5 ms take the two instances (10 ms kernels); 2-7 come one per ms from
  // 1 ms. Fixed: 2-5 each close a payload (the FIFO holds 2 x 2 = 4), 6 and 7 queue; at 10 ms an
  // instance takes [2], a slot frees and the batcher closes [6, 7]: 1, 1, 1, 1, 1, 1, 2. Growing:
  // 2-7 all join the one waiting payload: 1, 1, 6.
  std::vector<Arrival> arrivals{{0.0, 1}, {0.5e-3, 1}};
  for (int i = 1; i <= 6; ++i) arrivals.push_back({i * 1e-3, 1});
  TestBatcher fixed(fixed_payloads(8, 2));
  const Outcome out = drive(fixed, 2, 10e-3, arrivals, 1.0);
  REQUIRE(out.sizes() == std::vector<int>{1, 1, 1, 1, 1, 1, 2});
  CHECK(out.batches[6].ids == std::vector<std::int64_t>{6, 7});
  CHECK(out.batches[6].at_s == doctest::Approx(30e-3));
  TestBatcher growing(batching(8, {}, 0.0, 2));
  CHECK(drive(growing, 2, 10e-3, arrivals, 1.0).sizes() == std::vector<int>{1, 1, 6});
}
