// Steady-state estimation: MSER-5's warm-up cut, Student-t and batch-means intervals by hand, and
// the busy-time bins.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "analysis/stats/steady_estimates.hpp"
#include "analysis/stats/steady_state.hpp"
#include "analysis/stats/time_bins.hpp"

using namespace sonicsim;

TEST_CASE("MSER-5 cuts a step transient, nothing from a constant series, and flags a trend") {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> noise(0, 1);
  std::vector<double> series;
  for (int i = 0; i < 200; ++i) series.push_back(10 + noise(rng));  // the warm-up: 10 sigma above
  for (int i = 0; i < 2000; ++i) series.push_back(noise(rng));
  const stats::Truncation cut = stats::mser5(series);
  CHECK(cut.observations >= 200);  // all of the transient, and at most a few batches of noise
  CHECK(cut.observations <= 250);
  CHECK_FALSE(cut.at_limit);

  const stats::Truncation flat = stats::mser5(std::vector<double>(500, 0.1));
  CHECK(flat.observations == 0);
  CHECK_FALSE(flat.at_limit);

  std::vector<double> trend;
  for (int i = 0; i < 500; ++i) trend.push_back(i);  // never steady: the minimum sits on d = m/2
  CHECK(stats::mser5(trend).at_limit);
  CHECK(stats::mser5(trend).observations == 250);

  CHECK(stats::mser5(std::vector<double>(49, 1.0)).observations == 0);  // fewer than 10 batches: no cut
}

TEST_CASE("Student-t intervals: by hand from the t table") {
  // {1, ..., 5}: mean 3, s = sqrt(2.5), t(0.975, 4) = 2.7764 (any t table).
  const auto i = stats::mean_interval({1, 2, 3, 4, 5});
  REQUIRE(i);
  CHECK(i->mean == doctest::Approx(3));
  CHECK(i->half_width == doctest::Approx(2.7764 * std::sqrt(2.5) / std::sqrt(5.0)).epsilon(1e-4));
  CHECK_FALSE(stats::mean_interval({1}));

  // 0..99 in 20 batches of 5: batch means 2, 7, ..., 97, whose s is 5 sqrt(35); t(0.975, 19) = 2.0930.
  std::vector<double> ramp;
  for (int k = 0; k < 100; ++k) ramp.push_back(k);
  const auto b = stats::batch_means_interval(ramp);
  REQUIRE(b);
  CHECK(b->mean == doctest::Approx(49.5));
  CHECK(b->batches == 20);
  CHECK(b->batch_size == 5);
  CHECK(b->half_width == doctest::Approx(2.0930 * 5 * std::sqrt(35.0) / std::sqrt(20.0)).epsilon(1e-4));
  ramp.pop_back();  // 99 values: batches of 4, below the minimum of 5
  CHECK_FALSE(stats::batch_means_interval(ramp));
}

TEST_CASE("busy-time bins keep totals exact while they widen") {
  TimeBins bins(1.0, 4);
  bins.add(0.5, 2.5);  // 0.5 in [0,1), 1 in [1,2), 0.5 in [2,3)
  CHECK(bins.width_s() == 1.0);
  CHECK(total_between(bins.width_s(), bins.totals(), 0, 3) == doctest::Approx(2.0));
  CHECK(total_between(bins.width_s(), bins.totals(), 1, 2) == doctest::Approx(1.0));
  bins.add(6.0, 7.0);  // past 4 bins of 1 s: the bins double to 2 s
  CHECK(bins.width_s() == 2.0);
  CHECK(bins.totals().size() == 4);
  CHECK(total_between(bins.width_s(), bins.totals(), 0, 8) == doctest::Approx(3.0));
  CHECK(total_between(bins.width_s(), bins.totals(), 0, 2) == doctest::Approx(1.5));
  CHECK(total_between(bins.width_s(), bins.totals(), 6, 8) == doctest::Approx(1.0));
}
