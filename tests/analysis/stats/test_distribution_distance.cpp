// KS statistic and Wasserstein-1 distance, against values worked out by hand.
#include <doctest/doctest.h>

#include "analysis/stats/distribution_distance.hpp"

using namespace sonicsim::stats;

TEST_CASE("identical samples are at distance zero, disjoint ones at KS 1") {
  CHECK(ks_statistic({1, 2, 3}, {3, 1, 2}) == 0);
  CHECK(wasserstein1({1, 2, 3}, {3, 2, 1}) == 0);
  CHECK(ks_statistic({1, 2}, {5, 6}) == 1);
}

TEST_CASE("a sample shifted by c is at Wasserstein distance c") {
  CHECK(wasserstein1({1, 2, 4}, {1.5, 2.5, 4.5}) == doctest::Approx(0.5));
  CHECK(wasserstein1({10}, {13}) == doctest::Approx(3));
}

TEST_CASE("hand-computed values for unequal sample sizes") {
  // F_a steps to 1/2 at 1 and 1 at 3; F_b steps to 1 at 2. |F_a - F_b| is 1/2 on [1,2) and 1/2 on [2,3).
  CHECK(ks_statistic({1, 3}, {2}) == doctest::Approx(0.5));
  CHECK(wasserstein1({1, 3}, {2}) == doctest::Approx(1.0));
  // {0,0,1} vs {0,1,1}: F = 2/3 vs 1/3 on [0,1): KS 1/3, W1 1/3.
  CHECK(ks_statistic({0, 0, 1}, {0, 1, 1}) == doctest::Approx(1.0 / 3));
  CHECK(wasserstein1({0, 0, 1}, {0, 1, 1}) == doctest::Approx(1.0 / 3));
}
