// Latency fits recover the parameters that generated synthetic measurements; the table form is exact
// at the measured points; the bootstrap band covers the truth and shrinks with the noise.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "analysis/calibration/calibration.hpp"
#include "analysis/calibration/knee_grid.hpp"
#include "models/workload/rng.hpp"

using namespace sonicsim;
using namespace sonicsim::calibration;

namespace {

const std::vector<double> kBatches = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048};

// Measurements of `truth` with multiplicative normal noise of relative size `noise`; each point
// claims the standard error that noise implies.
std::vector<LatencyPoint> synthetic(const std::function<double(double)>& truth, double noise, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<LatencyPoint> points;
  for (double b : kBatches) {
    const double tau = truth(b);
    points.push_back(LatencyPoint{b, tau * (1 + noise * rng.standard_normal()), noise * tau, "synthetic", {}});
  }
  return points;
}

double affine_truth(double b) { return 0.3e-3 + 1.6e-6 * b; }
double knee_truth(double b) { return 0.4e-3 + 14e-6 * std::max(0.0, b - 100); }

}  // namespace

TEST_CASE("the affine fit recovers intercept and slope: exactly without noise, closely with 2% noise") {
  const AffineLatency exact = fit_affine(synthetic(affine_truth, 0, 1));
  CHECK(exact.intercept_s == doctest::Approx(0.3e-3).epsilon(1e-9));
  CHECK(exact.per_item_s == doctest::Approx(1.6e-6).epsilon(1e-9));
  for (std::uint64_t seed : {1, 2, 3}) {
    const AffineLatency noisy = fit_affine(synthetic(affine_truth, 0.02, seed));
    CHECK(noisy.intercept_s == doctest::Approx(0.3e-3).epsilon(0.05));
    CHECK(noisy.per_item_s == doctest::Approx(1.6e-6).epsilon(0.05));
  }
}

TEST_CASE("the knee fit recovers the flat part, the knee and the slope") {
  const KneeLatency exact = fit_knee(synthetic(knee_truth, 0, 1));
  CHECK(exact.flat_s == doctest::Approx(0.4e-3).epsilon(1e-6));
  CHECK(exact.knee_batch == doctest::Approx(100).epsilon(1e-4));
  CHECK(exact.per_item_s == doctest::Approx(14e-6).epsilon(1e-6));
  for (std::uint64_t seed : {1, 2, 3}) {
    const KneeLatency noisy = fit_knee(synthetic(knee_truth, 0.01, seed));
    CHECK(noisy.flat_s == doctest::Approx(0.4e-3).epsilon(0.02));
    CHECK(noisy.knee_batch == doctest::Approx(100).epsilon(0.2));
    CHECK(noisy.per_item_s == doctest::Approx(14e-6).epsilon(0.02));
  }
}

TEST_CASE("a knee fit to affine data puts the knee at the smallest batch, and an affine fit to knee data is worse") {
  const auto affine_points = synthetic(affine_truth, 0, 1);
  const KneeLatency knee = fit_knee(affine_points);
  // tau = 0.3 ms + 1.6 us b is "flat 0.3016 ms to batch 1, then 1.6 us/item".
  CHECK(knee.knee_batch == doctest::Approx(1).epsilon(1e-3));
  CHECK(knee.per_item_s == doctest::Approx(1.6e-6).epsilon(1e-6));
  const auto knee_points = synthetic(knee_truth, 0, 1);
  CHECK(assess_fit(fit_affine(knee_points), knee_points).max_relative_error > 0.3);
  CHECK(assess_fit(fit_knee(knee_points), knee_points).max_relative_error < 1e-6);
}

TEST_CASE("the table form hits every measured point exactly") {
  const auto points = synthetic(knee_truth, 0.05, 7);
  const TableLatency table = fit_table(points);
  for (const auto& p : points) CHECK(kernel_latency_s(table, p.batch) == p.latency_s);
  const FitQuality quality = assess_fit(table, points);
  CHECK(quality.r_squared == 1.0);
  CHECK(quality.max_relative_error == 0.0);
}

TEST_CASE("fit quality: R^2 and relative errors computed by hand") {
  // Measured 1, 2, 3 ms at batches 1, 2, 3; the curve 1 ms + 0.9 ms b gives 1.9, 2.8, 3.7 ms.
  const std::vector<LatencyPoint> points = {{1, 1e-3, 0, "", {}}, {2, 2e-3, 0, "", {}}, {3, 3e-3, 0, "", {}}};
  const FitQuality q = assess_fit(AffineLatency{1e-3, 0.9e-3}, points);
  // SS_res = 0.9^2 + 0.8^2 + 0.7^2 = 1.94, SS_tot = 2 (ms^2): R^2 = 1 - 1.94 / 2 = 0.03.
  CHECK(q.r_squared == doctest::Approx(0.03));
  // Relative errors 0.9, 0.4, 0.2333.
  CHECK(q.max_relative_error == doctest::Approx(0.9));
  CHECK(q.max_relative_error_batch == 1);
  CHECK(q.rms_relative_error == doctest::Approx(std::sqrt((0.81 + 0.16 + 0.7 / 3 * 0.7 / 3) / 3)));
}

TEST_CASE("too few batch sizes for a form is a clear error") {
  const std::vector<LatencyPoint> two = {{1, 1e-3, 0, "", {}}, {8, 2e-3, 0, "", {}}};
  CHECK_THROWS_WITH_AS(fit_knee(two), doctest::Contains("at least 3 distinct batch sizes"), std::invalid_argument);
  CHECK_NOTHROW(fit_affine(two));
}

TEST_CASE("the bootstrap band covers the true curve and narrows with less noise") {
  BootstrapSettings settings;
  settings.resamples = 400;
  const auto wide_points = synthetic(affine_truth, 0.04, 11);
  const auto narrow_points = synthetic(affine_truth, 0.01, 11);
  const LatencyBand wide = bootstrap_band(LatencyForm::Affine, wide_points, settings);
  const LatencyBand narrow = bootstrap_band(LatencyForm::Affine, narrow_points, settings);
  REQUIRE(wide.levels[0] == 0.005);
  REQUIRE(wide.levels.back() == 0.995);
  const std::size_t last = wide.levels.size() - 1;
  int covered = 0;
  for (std::size_t i = 0; i < wide.batches.size(); ++i) {
    const double truth = affine_truth(wide.batches[i]);
    covered += wide.latency_s[0][i] <= truth && truth <= wide.latency_s[last][i];
    CHECK(wide.latency_s[last][i] - wide.latency_s[0][i] > narrow.latency_s[last][i] - narrow.latency_s[0][i]);
    for (std::size_t l = 1; l < wide.levels.size(); ++l) CHECK(wide.latency_s[l][i] >= wide.latency_s[l - 1][i]);
  }
  // A 99% band misses the truth at a grid point now and then, not usually.
  CHECK(covered >= static_cast<int>(wide.batches.size()) - 2);
}

TEST_CASE("a table band has zero width when the points carry no standard error") {
  auto points = synthetic(knee_truth, 0, 1);
  BootstrapSettings settings;
  settings.resamples = 50;
  const LatencyBand band = bootstrap_band(LatencyForm::Table, points, settings);
  for (std::size_t i = 0; i < band.batches.size(); ++i) CHECK(band.latency_s.front()[i] == band.latency_s.back()[i]);
}

TEST_CASE("band batch sizes: the measured ones plus the powers of two between them") {
  const std::vector<LatencyPoint> points = {{3, 1e-3, 0, "", {}}, {20, 2e-3, 0, "", {}}};
  CHECK(band_batches(points) == std::vector<double>{3, 4, 8, 16, 20});
}

TEST_CASE("calibrate merges inputs by batch size and refuses a batch measured twice") {
  CalibrationInput a{"a.csv", "k", {}, {{1, 1e-3, 0, "a.csv", {}}, {64, 2e-3, 0, "a.csv", {}}}};
  CalibrationInput b{"b.csv", "k", {}, {{8, 1.2e-3, 0, "b.csv", {}}}};
  BootstrapSettings none;
  none.resamples = 0;
  const Calibration c = calibrate({a, b}, LatencyStatistic::Mean, LatencyForm::Knee, none);
  REQUIRE(c.points.size() == 3);
  CHECK(c.points[1].batch == 8);
  CHECK(c.forms.size() == 3);
  CHECK_FALSE(c.forms[0].band.has_value());
  CalibrationInput again{"c.csv", "k", {}, {{8, 1.3e-3, 0, "c.csv", {}}}};
  CHECK_THROWS_WITH_AS(calibrate({a, b, again}, LatencyStatistic::Mean, LatencyForm::Table, none),
                       doctest::Contains("batch size 8 is measured twice (in b.csv and c.csv)"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(calibrate({b}, LatencyStatistic::Mean, LatencyForm::Affine, none),
                       doctest::Contains("cannot select the affine form"), std::invalid_argument);
}

TEST_CASE("a fit that leaves a double's range is an error naming the inputs, never a null in the model") {
  // Latencies of 1e-310 s (the CSV reader refuses them; calibrate() is the last guard): the
  // relative fits weigh each point by 1/latency^2, which overflows, and the affine fit is NaN.
  CalibrationInput denormal{
      "d.csv", "k", {}, {{1, 1e-310, 0, "d.csv", {}}, {2, 1.5e-310, 0, "d.csv", {}}, {4, 2.5e-310, 0, "d.csv", {}}}};
  BootstrapSettings none;
  none.resamples = 0;
  CHECK_THROWS_WITH_AS(calibrate({denormal}, LatencyStatistic::Mean, LatencyForm::Table, none),
                       doctest::Contains("d.csv: the affine fit is not a finite number"), std::invalid_argument);
  // The same shape a million million times slower fits.
  for (auto& p : denormal.points) p.latency_s *= 1e303;
  const Calibration c = calibrate({denormal}, LatencyStatistic::Mean, LatencyForm::Table, none);
  CHECK(std::get<AffineLatency>(c.forms[1].curve).per_item_s == doctest::Approx(0.5e-7));
}

namespace {

// Data sets of every shape the knee search meets: noisy knees and lines, bootstrap-like resamples
// with repeated batch sizes, a constant, and dense batch sizes.
std::vector<std::vector<LatencyPoint>> knee_search_cases() {
  std::vector<std::vector<LatencyPoint>> cases;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    cases.push_back(synthetic(knee_truth, 0.02, seed));
    cases.push_back(synthetic(affine_truth, 0.05, seed));
    Rng rng(seed);
    const auto knee = synthetic(knee_truth, 0.01, seed + 100);
    std::vector<LatencyPoint> resample;
    for (std::size_t i = 0; i < knee.size(); ++i) resample.push_back(knee[rng.below(knee.size())]);
    std::sort(resample.begin(), resample.end(), [](const auto& a, const auto& b) { return a.batch < b.batch; });
    cases.push_back(resample);
  }
  cases.push_back(synthetic(knee_truth, 0, 1));
  cases.push_back(synthetic([](double) { return 2e-3; }, 0, 1));
  // Every batch size to 500: the exact costs of its 31,872 grid knees are 500 points each (with 2,000
  // sizes, 2 minutes under the sanitizers); hostile_files calibrates 100,000 sizes in the release run.
  std::vector<LatencyPoint> dense;
  Rng rng(7);
  for (int b = 1; b <= 500; ++b)
    dense.push_back(
        {static_cast<double>(b), 2e-3 + 48e-6 * std::max(0, b - 64) * (1 + 0.01 * rng.standard_normal()), 0, "", {}});
  cases.push_back(dense);
  return cases;
}

}  // namespace

TEST_CASE("the knee grid: approximate costs within their bound of the exact ones, and the exhaustive search's choice") {
  for (const auto& points : knee_search_cases()) {
    std::vector<double> batches;
    for (const auto& p : points) batches.push_back(p.batch);
    batches.erase(std::unique(batches.begin(), batches.end()), batches.end());
    const std::size_t grid = knee_grid_size(batches);
    REQUIRE(grid == kKneeStepsPerGap * (batches.size() - 2));
    CHECK(grid_knee(batches, kKneeStepsPerGap) == batches[1]);
    const ApproximateKneeCosts approximate = approximate_knee_costs(points, batches);
    REQUIRE(approximate.cost.size() == grid);
    std::vector<double> exact;
    double worst = 0;
    for (std::size_t i = 0; i < grid; ++i) {
      exact.push_back(knee_cost(points, grid_knee(batches, i)));
      worst = std::max(worst, std::abs(approximate.cost[i] - exact.back()));
    }
    CHECK(worst <= approximate.error_bound);
    // The exhaustive search: the first grid knee of least exact cost. Where more knees than the
    // search evaluates tie within the bound (a constant latency), one as good within the bound.
    const std::size_t exhaustive = std::min_element(exact.begin(), exact.end()) - exact.begin();
    std::size_t evaluated = 0;
    double best_cost = 0;
    const std::size_t chosen = best_grid_knee(
        approximate, [&](std::size_t i) { return ++evaluated, exact[i]; }, best_cost);
    CHECK(best_cost == exact[chosen]);
    CHECK(evaluated <= kMaxExactKneeCosts);
    if (evaluated < kMaxExactKneeCosts)
      CHECK(chosen == exhaustive);
    else
      CHECK(exact[chosen] <= exact[exhaustive] + approximate.error_bound);
    MESSAGE(points.size(), " points: ", evaluated, " of ", grid, " knees evaluated exactly; worst approximation ",
            worst, ", bound ", approximate.error_bound);
  }
}
