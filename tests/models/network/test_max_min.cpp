// The max-min solver against allocations worked out by hand.
#include <doctest/doctest.h>

#include "models/network/max_min.hpp"

using namespace sonicsim::network;

namespace {

SharingResult solve(const std::vector<double>& capacity, const std::vector<SharingVariable>& variables) {
  MaxMinSolver solver;
  SharingResult result;
  solver.solve(capacity, variables, result);
  return result;
}

}  // namespace

TEST_CASE("flows of equal penalty on one link share it equally") {
  const SharingResult r = solve({90}, {{1, 0, 1, {0, -1, -1}}, {1, 0, 1, {0, -1, -1}}, {1, 0, 1, {0, -1, -1}}});
  for (double v : r.value_Bps) CHECK(v == doctest::Approx(30).epsilon(1e-15));
  CHECK(r.level[0] == doctest::Approx(30));
  CHECK(r.fixed_by[0] == 0);
}

TEST_CASE("shares are proportional to one over the penalty") {
  // Penalties 1 and 3: weights 1 and 1/3, so the first gets 3/4 of 100 and the second 1/4.
  const SharingResult r = solve({100}, {{1, 0, 1, {0, -1, -1}}, {3, 0, 1, {0, -1, -1}}});
  CHECK(r.value_Bps[0] == doctest::Approx(75).epsilon(1e-15));
  CHECK(r.value_Bps[1] == doctest::Approx(25).epsilon(1e-15));
}

TEST_CASE("a count stands for that many identical flows") {
  // 4 flows as one variable and 1 alone, all of penalty 2: 100 / 5 each.
  const SharingResult r = solve({100}, {{2, 0, 4, {0, -1, -1}}, {2, 0, 1, {0, -1, -1}}});
  CHECK(r.value_Bps[0] == doctest::Approx(20).epsilon(1e-15));
  CHECK(r.value_Bps[1] == doctest::Approx(20).epsilon(1e-15));
}

TEST_CASE("a bounded flow keeps its bound and leaves the rest to the others") {
  // Link of 100, flows A (bound 10) and B, C (no bound), equal penalties: A at 10, B and C at 45.
  const SharingResult r = solve({100}, {{1, 10, 1, {0, -1, -1}}, {1, 0, 1, {0, -1, -1}}, {1, 0, 1, {0, -1, -1}}});
  CHECK(r.value_Bps[0] == doctest::Approx(10).epsilon(1e-15));
  CHECK(r.fixed_by[0] == SharingResult::kBound);
  CHECK(r.value_Bps[1] == doctest::Approx(45).epsilon(1e-15));
  CHECK(r.value_Bps[2] == doctest::Approx(45).epsilon(1e-15));
}

TEST_CASE("every flow at its bound leaves the link unsaturated") {
  const SharingResult r = solve({100}, {{1, 10, 3, {0, -1, -1}}});
  CHECK(r.value_Bps[0] == doctest::Approx(10));
  CHECK(r.level[0] == kNoLevel);
}

TEST_CASE("a private link that binds holds its flows back and the others take what it leaves") {
  // Shared link 0 of 10; link 1 of 3 carries A and B; C crosses link 2 of 100.
  // Link 1 saturates first (level 1.5 < 10 / 3): A = B = 1.5. The shared link then has 7 for C.
  const SharingResult r = solve({10, 3, 100}, {{1, 0, 1, {0, 1, -1}}, {1, 0, 1, {0, 1, -1}}, {1, 0, 1, {0, 2, -1}}});
  CHECK(r.value_Bps[0] == doctest::Approx(1.5).epsilon(1e-15));
  CHECK(r.value_Bps[1] == doctest::Approx(1.5).epsilon(1e-15));
  CHECK(r.fixed_by[0] == 1);
  CHECK(r.value_Bps[2] == doctest::Approx(7).epsilon(1e-15));
  CHECK(r.fixed_by[2] == 0);
  CHECK(r.level[1] == doctest::Approx(1.5));
  CHECK(r.level[0] == doctest::Approx(7));
}
