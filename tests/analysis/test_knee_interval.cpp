// The knee's 95% range (analysis/knee_interval.hpp) on probes whose curve is known: where the curve,
// shifted by the bracket's half-widths or by the probes' own scatter, crosses the threshold, worked
// out by hand; and the t-interval of replications.
#include <doctest/doctest.h>

#include <cmath>

#include "analysis/knee_interval.hpp"

using namespace sonicsim;

TEST_CASE("the knee's range: the line through the bracket, shifted by its half-widths") {
  // Threshold 105 s. Probes 200 at 102 s, 280 within at 104.0 ± 0.5 s, 290 past at 106.0 ± 0.3 s; no
  // probe surely past above 290, so the slope is the bracket's, 0.2 s per job: the line crosses 105
  // at 285; shifted up by 0.5 s at 280 + 0.5 / 0.2 = 282.5, down at 280 + 1.5 / 0.2 = 287.5: jobs
  // 282 to 287.
  const std::vector<ProbeTime> probes{{200, 102.0, true}, {280, 104.0, true}, {290, 106.0, false}};
  const auto b = knee_band(280, {104.0, 0.5, 1}, 290, {106.0, 0.3, 1}, probes, 105.0);
  REQUIRE(b);
  CHECK(b->slope_from_bracket);
  CHECK(b->at == doctest::Approx(285));
  CHECK(b->low == 282);
  CHECK(b->high == 287);
  CHECK(b->scatter_s == 0);
  CHECK(b->uncertainty_s == doctest::Approx(0.5));
  // No bracket, or a bracket whose estimates fall: nothing locates the crossing.
  CHECK_FALSE(knee_band(290, {106.0, 0.3, 1}, 290, {106.0, 0.3, 1}, probes, 105.0));
  CHECK_FALSE(knee_band(280, {104.9, 0.5, 1}, 281, {104.8, 0.5, 1}, {}, 105.0));
}

TEST_CASE("the knee's range: non-monotone probes widen it to their scatter, within the probes surely on each side") {
  // The bracket 537 | 538 with tiny half-widths, but 559 ran 0.8 s faster than 550: noise of at least
  // 0.8 s. Surely within by more than that: 500 (103 s); surely past: 550 (106.1 s). The secant
  // between them rises (106.1 - 103) / 50 = 0.062 s per job; the line through 537 at 104.9 s crosses
  // 105 at 537 + 0.1 / 0.062 = 538.6; shifted up by 0.8 s at 537 - 0.7 / 0.062 = 525.7, down at
  // 537 + 0.9 / 0.062 = 551.5, which 550, surely past, bounds: jobs 525 to 549, not 537 to 538.
  const std::vector<ProbeTime> probes{{500, 103.0, true},  {537, 104.9, true},  {538, 105.1, false},
                                      {550, 106.1, false}, {559, 105.3, false}, {600, 108.0, false}};
  const auto b = knee_band(537, {104.9, 0.01, 1}, 538, {105.1, 0.01, 1}, probes, 105.0);
  REQUIRE(b);
  CHECK_FALSE(b->slope_from_bracket);
  CHECK(b->scatter_s == doctest::Approx(0.8));
  CHECK(b->uncertainty_s == doctest::Approx(0.8));
  CHECK(b->slope_s == doctest::Approx(0.062));
  CHECK(b->at == doctest::Approx(537 + 0.1 / 0.062));
  CHECK(b->low == 525);
  CHECK(b->high == 549);
}

TEST_CASE("the knee's range takes in a probe that contradicts it") {
  // A probe within the tolerance at 300, above where the bracket's line says the knee is (282 to
  // 287): the knee may be as far as 300.
  const std::vector<ProbeTime> probes{{200, 102.0, true}, {280, 104.0, true}, {290, 106.0, false}, {300, 104.9, true}};
  const auto b = knee_band(280, {104.0, 0.5, 1}, 290, {106.0, 0.3, 1}, probes, 105.0);
  REQUIRE(b);
  CHECK(b->high == 300);
}

TEST_CASE("replications give each bracket end a t-interval") {
  // Five runs: mean 1.0, sample standard deviation 0.01 x sqrt(2.5) (values 0.98 .. 1.02 by 0.01);
  // half-width t(0.975, 4) x s / sqrt(5) = 2.776445 x 0.015811 / 2.236068.
  const auto e = replicated({0.98, 0.99, 1.00, 1.01, 1.02});
  REQUIRE(e);
  CHECK(e->mean_s == doctest::Approx(1.0));
  CHECK(e->half_width_s == doctest::Approx(2.776445 * 0.0158114 / 2.236068).epsilon(1e-5));
  CHECK(e->runs == 5);
  CHECK_FALSE(replicated({1.0}));
}
