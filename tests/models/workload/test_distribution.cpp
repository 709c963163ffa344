// Time distributions of CPU modules and preprocessing: their draws against their closed forms.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "models/workload/distribution.hpp"

using namespace sonicsim;

namespace {
std::vector<double> draw(const Distribution& d, int n, std::uint64_t seed = 42) {
  Rng rng(seed);
  std::vector<double> out;
  for (int i = 0; i < n; ++i) out.push_back(sample(d, rng));
  return out;
}

// What the checks below need of a sample: its mean, (n - 1) standard deviation and minimum.
struct Moments {
  double mean = 0, stddev = 0, min = 0;
};
Moments moments(const std::vector<double>& xs) {
  Moments m;
  for (double x : xs) m.mean += x;
  m.mean /= static_cast<double>(xs.size());
  for (double x : xs) m.stddev += (x - m.mean) * (x - m.mean);
  m.stddev = std::sqrt(m.stddev / static_cast<double>(xs.size() - 1));
  m.min = *std::min_element(xs.begin(), xs.end());
  return m;
}

}  // namespace

TEST_CASE("a constant distribution always gives its value") {
  for (double x : draw(ConstantDist{110.0}, 10)) CHECK(x == 110.0);
}

// With n = 200000 draws the standard error of a sample mean is sigma / sqrt(n) ~ 0.0022 sigma; the
// tolerances below are about 5 standard errors, so a correct sampler fails with negligible
// probability (and the seed is fixed, so the result is reproducible).
TEST_CASE("exponential draws have the configured mean and standard deviation") {
  const auto d = moments(draw(ExponentialDist{3.0}, 200000));
  CHECK(d.mean == doctest::Approx(3.0).epsilon(0.01));
  CHECK(d.stddev == doctest::Approx(3.0).epsilon(0.015));
}

TEST_CASE("lognormal is parameterised by the mean and stddev of the variable itself") {
  const auto d = moments(draw(LognormalDist{10.0, 2.0}, 200000));
  CHECK(d.mean == doctest::Approx(10.0).epsilon(0.01));
  CHECK(d.stddev == doctest::Approx(2.0).epsilon(0.02));
  CHECK(d.min > 0);
}

TEST_CASE("lognormal draws stay exact where the squares of its mean or cv leave a double's range") {
  // Mean and stddev 1e-170 s: both squares underflow to 0 (their ratio was 0/0). cv 1: the same
  // tolerances as above, relative.
  const auto tiny = moments(draw(LognormalDist{1e-170, 1e-170}, 200000));
  CHECK(tiny.mean == doctest::Approx(1e-170).epsilon(0.01));
  CHECK(tiny.stddev == doctest::Approx(1e-170).epsilon(0.05));
  // Mean 1e-147 s, stddev 1e8 s: cv^2 = 1e310 overflows. sigma^2 = ln(1 + cv^2) = 2 ln cv + ln(1 + cv^-2)
  // = 2 ln 1e155 (to 1e-310), mu = ln(mean) - sigma^2 / 2; the p-quantile is exp(mu + sigma z_p).
  const double sigma2 = 2 * 155 * std::log(10.0), mu = std::log(1e-147) - sigma2 / 2;
  const int n = 200000;
  const auto xs = draw(LognormalDist{1e-147, 1e8}, n);
  // Standard normal quantiles z_p for p = 0.5, 0.9, 0.99; margin 4 sampling errors sqrt(p (1 - p) / n).
  for (const auto& [p, z] : {std::pair{0.5, 0.0}, {0.9, 1.2815515655446004}, {0.99, 2.3263478740408408}}) {
    const double q = std::exp(mu + std::sqrt(sigma2) * z);
    const double below = static_cast<double>(std::count_if(xs.begin(), xs.end(), [q](double x) { return x <= q; })) / n;
    CHECK(std::fabs(below - p) <= 4 * std::sqrt(p * (1 - p) / n));
  }
  for (double x : xs) REQUIRE((std::isfinite(x) && x >= 0));
}

TEST_CASE("normal draws are truncated at zero and mean() gives the truncated mean") {
  const NormalDist n{1.0, 1.0};
  const auto d = moments(draw(n, 200000));
  CHECK(d.min >= 0);
  // Truncated normal mean: mu + sigma * phi(-mu/sigma) / (1 - Phi(-mu/sigma)), mu = sigma = 1:
  // 1 + 0.24197 / 0.84134 = 1.28760 (standard normal tables).
  CHECK(mean(n) == doctest::Approx(1.28760).epsilon(1e-4));
  CHECK(d.mean == doctest::Approx(1.28760).epsilon(0.01));
  // Far from zero the truncation does not matter.
  const auto wide = moments(draw(NormalDist{100.0, 5.0}, 200000));
  CHECK(wide.mean == doctest::Approx(100.0).epsilon(0.001));
  CHECK(wide.stddev == doctest::Approx(5.0).epsilon(0.02));
}

TEST_CASE("empirical draws only the samples, each about equally often") {
  const EmpiricalDist e{{1.0, 2.0, 5.0}};
  const auto xs = draw(e, 30000);
  for (double x : xs) CHECK((x == 1.0 || x == 2.0 || x == 5.0));
  const auto ones = std::count(xs.begin(), xs.end(), 1.0);
  CHECK(ones == doctest::Approx(10000).epsilon(0.05));
  CHECK(mean(e) == doctest::Approx(8.0 / 3));
}

TEST_CASE("the same seed gives the same stream; different streams differ") {
  CHECK(draw(NormalDist{5, 1}, 100, 1) == draw(NormalDist{5, 1}, 100, 1));
  CHECK(draw(NormalDist{5, 1}, 100, mix_seed(1, 0)) != draw(NormalDist{5, 1}, 100, mix_seed(1, 1)));
}
