// The knee's 95% range (analysis/knee_interval.hpp) on probes whose curve is known: where the curve,
// shifted by the bracket's half-widths or by the probes' own scatter, crosses the threshold, worked
// out by hand; and the t-interval of replications.
#include <doctest/doctest.h>

#include <cmath>

#include "analysis/knee_interval.hpp"

using namespace sonicsim;

TEST_CASE("the knee's range: the probes' curve shifted by the bracket's half-widths") {
  // Threshold 105 s. Probes 200 at 102 s, 280 within at 104.0 ± 0.5 s, 290 past at 106.0 ± 0.3 s.
  // Between 280 and 290 the curve rises 0.2 s per job: it crosses 105 at 285; shifted up by 0.5 s,
  // it passes 105 at 280 + 0.5 / 0.2 = 282.5; shifted down, it stays under until 280 + 1.5 / 0.2 =
  // 287.5: jobs 282 to 287.
  const std::vector<ProbeTime> probes{{200, 102.0, true}, {280, 104.0, true}, {290, 106.0, false}};
  const auto b = knee_band(280, {104.0, 0.5, 1}, 290, {106.0, 0.3, 1}, probes, 100.0, 105.0);
  REQUIRE(b);
  CHECK(b->at == doctest::Approx(285));
  CHECK(b->low == 282);
  CHECK(b->high == 287);
  CHECK(b->scatter_s == 0);
  CHECK(b->uncertainty_s == doctest::Approx(0.5));
  // No bracket, no range.
  CHECK_FALSE(knee_band(290, {106.0, 0.3, 1}, 290, {106.0, 0.3, 1}, probes, 100.0, 105.0));
}

TEST_CASE("the knee's range: non-monotone probes widen it to their scatter") {
  // The bracket 537 | 538 with tiny half-widths, but 559 ran 0.8 s faster than 550: noise of at least
  // 0.8 s. Curve: 1 → 100, 500 → 103, 537 → 104.9, 538 → 105.1, 550 → 106.1, 559 → 105.3, 600 → 108.
  // Shifted up by 0.8 s it passes 105 between 500 (103.8) and 537 (105.7): 500 + 37 x 1.2 / 1.9 =
  // 523.4; shifted down it last stays under 105 between 559 (104.5) and 600 (107.2): 559 + 41 x 0.5 /
  // 2.7 = 566.6: jobs 523 to 566, not 537 to 538.
  const std::vector<ProbeTime> probes{{500, 103.0, true},  {537, 104.9, true},  {538, 105.1, false},
                                      {550, 106.1, false}, {559, 105.3, false}, {600, 108.0, false}};
  const auto b = knee_band(537, {104.9, 0.01, 1}, 538, {105.1, 0.01, 1}, probes, 100.0, 105.0);
  REQUIRE(b);
  CHECK(b->scatter_s == doctest::Approx(0.8));
  CHECK(b->uncertainty_s == doctest::Approx(0.8));
  CHECK(b->low == 523);
  CHECK(b->high == 566);
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
