#include <doctest/doctest.h>

#include "analysis/stats/statistics.hpp"

using namespace sonicsim;

// Reference values from the type-7 definition (NumPy's default):
// numpy.percentile([1, 2, 3, 4], [50, 90, 99]) = [2.5, 3.7, 3.97].
TEST_CASE("quantiles interpolate linearly between order statistics (type 7)") {
  const auto d = stats::describe({4, 1, 3, 2});
  CHECK(d.p50 == doctest::Approx(2.5));
  CHECK(d.p90 == doctest::Approx(3.7));
  CHECK(d.p99 == doctest::Approx(3.97));
  CHECK(d.mean == 2.5);
  CHECK(d.stddev == doctest::Approx(1.2909944));  // sqrt(5/3), the n-1 estimator
  CHECK(d.min == 1);
  CHECK(d.max == 4);
}

TEST_CASE("describing nothing gives zeros, one value gives that value") {
  CHECK(stats::describe({}).count == 0);
  const auto one = stats::describe({7});
  CHECK(one.p99 == 7);
  CHECK(one.stddev == 0);
}
