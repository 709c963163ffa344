// The kernel's spread: draws of the factor around tau(b) against the closed forms of their
// distributions (mean, coefficient of variation, CDF at fixed points), the cv's interpolation in
// the batch size, and the streams the draws come from.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "models/workload/kernel_spread.hpp"

using namespace sonicsim;

namespace {

constexpr int kDraws = 200000;

std::vector<double> factors(SpreadShape shape, double cv, std::uint64_t seed = 7) {
  Rng rng(seed);
  std::vector<double> out;
  for (int i = 0; i < kDraws; ++i) out.push_back(spread_factor(shape, cv, rng));
  return out;
}

double sample_mean(const std::vector<double>& xs) {
  double sum = 0;
  for (double x : xs) sum += x;
  return sum / static_cast<double>(xs.size());
}

double sample_cv(const std::vector<double>& xs) {
  const double m = sample_mean(xs);
  double ss = 0;
  for (double x : xs) ss += (x - m) * (x - m);
  return std::sqrt(ss / static_cast<double>(xs.size() - 1)) / m;
}

double fraction_at_most(const std::vector<double>& xs, double x) {
  return static_cast<double>(std::count_if(xs.begin(), xs.end(), [x](double v) { return v <= x; })) /
         static_cast<double>(xs.size());
}

// An empirical CDF value's sampling error: sqrt(p (1 - p) / n); the checks allow 4 of them
// (a false failure about once in 16,000 checks).
double cdf_margin(double p) { return 4 * std::sqrt(p * (1 - p) / kDraws); }

// The regularised lower incomplete gamma P(k, x) = x^k e^-x sum_n x^n / Gamma(k + n + 1) (the
// series of Abramowitz and Stegun 6.5.29), converging for every x > 0; the CDF of Gamma(k, 1).
double gamma_cdf(double k, double x) {
  double term = 1.0 / std::tgamma(k + 1), sum = 0;
  for (int n = 0; n < 500 && term > 1e-18 * sum; ++n) {
    sum += term;
    term *= x / (k + n + 1);
  }
  return std::pow(x, k) * std::exp(-x) * sum;
}

}  // namespace

TEST_CASE("lognormal factors have mean 1, the cv asked for, and the lognormal's quantiles") {
  // X = exp(sigma Z - sigma^2/2), sigma^2 = ln(1 + cv^2): E[X] = 1, sd(X) = cv. Its p-quantile is
  // exp(-sigma^2/2 + sigma z_p). Sampling errors at n = 200,000: the mean's cv / sqrt(n) = 6.7e-4
  // (margin 3e-3); the sample cv's about 0.2% relative (lognormal kurtosis 4.57 at cv 0.3; margin 1%).
  const double cv = 0.3;
  const std::vector<double> x = factors(SpreadShape::Lognormal, cv);
  CHECK(sample_mean(x) == doctest::Approx(1).epsilon(3e-3));
  CHECK(sample_cv(x) == doctest::Approx(cv).epsilon(0.01));
  const double sigma = std::sqrt(std::log1p(cv * cv));
  // Standard normal quantiles z_p for p = 0.01, 0.1, 0.5, 0.9, 0.99.
  const std::pair<double, double> quantiles[] = {{0.01, -2.3263478740408408},
                                                 {0.1, -1.2815515655446004},
                                                 {0.5, 0.0},
                                                 {0.9, 1.2815515655446004},
                                                 {0.99, 2.3263478740408408}};
  for (const auto& [p, z] : quantiles) {
    const double q = std::exp(-sigma * sigma / 2 + sigma * z);
    CHECK(std::fabs(fraction_at_most(x, q) - p) <= cdf_margin(p));
  }
}

TEST_CASE("gamma factors of cv 0.5 follow the Erlang-4 CDF, of cv 2 the gamma(1/4) CDF") {
  // Shape k = 1/cv^2 and scale 1/k: X k ~ Gamma(k, 1). For k = 4 (Marsaglia-Tsang directly) the
  // CDF is Erlang's, 1 - e^-4x sum_{n<4} (4x)^n / n!; for k = 1/4 (the U^(1/k) boost) the series above.
  const std::vector<double> erlang = factors(SpreadShape::Gamma, 0.5);
  CHECK(sample_mean(erlang) == doctest::Approx(1).epsilon(4 * 0.5 / std::sqrt(kDraws)));
  CHECK(sample_cv(erlang) == doctest::Approx(0.5).epsilon(0.01));  // sd of the sample cv ~0.25%: kurtosis 3 + 6/k
  for (double at : {0.25, 0.5, 1.0, 1.5, 2.5}) {
    const double y = 4 * at;
    const double p = 1 - std::exp(-y) * (1 + y + y * y / 2 + y * y * y / 6);
    CHECK(std::fabs(fraction_at_most(erlang, at) - p) <= cdf_margin(p));
    CHECK(gamma_cdf(4, y) == doctest::Approx(p).epsilon(1e-9));  // the series agrees with Erlang's sum
  }
  const std::vector<double> wide = factors(SpreadShape::Gamma, 2.0);
  CHECK(sample_mean(wide) == doctest::Approx(1).epsilon(4 * 2.0 / std::sqrt(kDraws)));
  CHECK(sample_cv(wide) == doctest::Approx(2.0).epsilon(0.03));  // sd of the sample cv ~0.6%: excess kurtosis 24
  for (double at : {0.001, 0.1, 1.0, 3.0}) {
    const double p = gamma_cdf(0.25, at * 0.25);
    CHECK(std::fabs(fraction_at_most(wide, at) - p) <= cdf_margin(p));
  }
}

TEST_CASE("a cv of 0 gives exactly tau and draws nothing from the stream") {
  Rng used(3), fresh(3);
  const KernelSpread none{SpreadShape::Gamma, {{1, 0.0}}};
  CHECK(draw_kernel_time(2e-3, none, 16, used) == 2e-3);
  CHECK(spread_factor(SpreadShape::Lognormal, 0.0, used) == 1.0);
  CHECK(used.uniform() == fresh.uniform());
}

TEST_CASE("a cv too small to square is a point mass: every factor is exactly 1, for both shapes") {
  // The factor is 1 + O(cv) with |Z| below 9 in 53-bit Box-Muller draws; below cv 1e-17 that
  // deviation is under half an ulp of 1 (2^-53 ~ 1.1e-16), so the exact factor rounds to 1.0. Below
  // ~1.3e-154, 1/cv^2 (the gamma's shape) overflows a double and used to turn the factor into NaN.
  for (const double cv : {1e-17, 1e-20, 1e-100, 1e-154, 1e-155, 1e-200, 4.9e-324}) {
    for (const SpreadShape shape : {SpreadShape::Gamma, SpreadShape::Lognormal}) {
      Rng rng(11);
      for (int i = 0; i < 1000; ++i) REQUIRE(spread_factor(shape, cv, rng) == 1.0);
    }
  }
}

TEST_CASE("the cv is the first point's below it, linear between points, the last point's above it") {
  const KernelSpread spread{SpreadShape::Lognormal, {{4, 0.2}, {8, 0.1}, {64, 0.02}}};
  CHECK(spread_cv(spread, 1) == 0.2);
  CHECK(spread_cv(spread, 4) == 0.2);
  CHECK(spread_cv(spread, 6) == doctest::Approx(0.15));
  CHECK(spread_cv(spread, 36) == doctest::Approx(0.1 + (36 - 8) * (0.02 - 0.1) / 56));
  CHECK(spread_cv(spread, 64) == 0.02);
  CHECK(spread_cv(spread, 4096) == 0.02);
  CHECK(spread_cv(KernelSpread{SpreadShape::Gamma, {{1, 0.05}}}, 1000) == 0.05);
}

TEST_CASE("a kernel time is tau(b) times the factor at the cv of its batch, from its own stream") {
  const KernelSpread spread{SpreadShape::Lognormal, {{1, 0.4}, {100, 0.0}}};
  Rng a(kernel_time_seed(1, 0, 0, 0)), b(kernel_time_seed(1, 0, 0, 0)), factor(kernel_time_seed(1, 0, 0, 0));
  const double tau = 5e-3;
  const double drawn = draw_kernel_time(tau, spread, 1, a);
  CHECK(drawn == tau * spread_factor(SpreadShape::Lognormal, 0.4, factor));
  CHECK(draw_kernel_time(tau, spread, 1, b) == drawn);  // same stream, same draw
  CHECK(draw_kernel_time(tau, spread, 100, a) == tau);  // cv 0 at batch 100
  // Streams of other instances, models, servers and seeds differ.
  for (const std::uint64_t other : {kernel_time_seed(1, 0, 0, 1), kernel_time_seed(1, 0, 1, 0),
                                    kernel_time_seed(1, 1, 0, 0), kernel_time_seed(2, 0, 0, 0)}) {
    Rng r(other);
    CHECK(draw_kernel_time(tau, spread, 1, r) != drawn);
  }
}

TEST_CASE("describe names the shape and the cv") {
  CHECK(describe(KernelSpread{SpreadShape::Lognormal, {{1, 0.05}}}) == "lognormal, cv 0.05");
  CHECK(describe(KernelSpread{SpreadShape::Gamma, {{1, 0.2}, {16, 0.1}, {256, 0.01}}}) ==
        "gamma, cv 0.2 at batch 1 to 0.01 at batch 256 (3 points)");
}
