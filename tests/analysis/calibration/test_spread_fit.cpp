// calibrate --spread: the spread of single calls recovered from synthetic measurements whose
// spread is known (a calibration CSV of lognormal samples; a perf_analyzer row built from a
// lognormal kernel's exact quantiles), written to the model file and read back.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "analysis/calibration/calibration.hpp"
#include "analysis/calibration/calibration_report.hpp"
#include "analysis/calibration/perf_analyzer_csv.hpp"
#include "models/workload/latency_model_file.hpp"

using namespace sonicsim;
using namespace sonicsim::calibration;

namespace {

constexpr double kZ99 = 2.3263478740408408;  // standard normal 0.99 quantile

// One CSV row of `n` calls of batch `b`: lognormal with mean tau and coefficient of variation cv,
// summarised as measure.py does (mean, median, p99 by linear interpolation, (n - 1) stddev).
std::string csv_row(int b, double tau, double cv, int n, Rng& rng) {
  const double sigma = std::sqrt(std::log1p(cv * cv));
  std::vector<double> x;
  for (int i = 0; i < n; ++i) x.push_back(tau * std::exp(sigma * rng.standard_normal() - sigma * sigma / 2));
  std::sort(x.begin(), x.end());
  double mean = 0, ss = 0;
  for (double v : x) mean += v;
  mean /= n;
  for (double v : x) ss += (v - mean) * (v - mean);
  const auto quantile = [&](double q) {
    const double at = q * (n - 1);
    const auto i = static_cast<std::size_t>(at);
    return x[i] + (at - static_cast<double>(i)) * (x[std::min(i + 1, x.size() - 1)] - x[i]);
  };
  char row[256];
  std::snprintf(row, sizeof row, "%d,%.9e,%.9e,%.9e,%.9e,%d\n", b, mean, quantile(0.5), quantile(0.99),
                std::sqrt(ss / (n - 1)), n);
  return row;
}

}  // namespace

TEST_CASE("the spread fitted from a calibration CSV of lognormal calls is their cv at every batch size") {
  // 2000 calls per batch size. The sample cv's standard error is about cv sqrt((2 + excess kurtosis)
  // / (4 n)): 1.8% relative at cv 0.3 (kurtosis excess 1.6), 1.6% at cv 0.05; the checks allow 8%.
  const std::vector<std::pair<int, double>> truth{{1, 0.3}, {8, 0.15}, {64, 0.05}, {512, 0.01}};
  Rng rng(11);
  std::string csv = "# sonicsim calibration data v1\nbatch_size,mean_s,p50_s,p99_s,stddev_s,repeats\n";
  for (const auto& [b, cv] : truth) csv += csv_row(b, 1e-3 + 2e-6 * b, cv, 2000, rng);
  const Calibration c = calibrate({parse_calibration_csv(csv, "synthetic.csv", LatencyStatistic::Mean)},
                                  LatencyStatistic::Mean, LatencyForm::Table, {0, 1}, SpreadShape::Gamma);
  REQUIRE(c.spread);
  CHECK(c.spread->shape == SpreadShape::Gamma);
  REQUIRE(c.spread->points.size() == truth.size());
  for (std::size_t i = 0; i < truth.size(); ++i) {
    CAPTURE(truth[i].first);
    CHECK(c.spread->points[i].batch == truth[i].first);
    CHECK(c.spread->points[i].cv == doctest::Approx(truth[i].second).epsilon(0.08));
    CHECK(c.spread->points[i].method == "stddev_s / mean_s of 2000 calls");
  }
}

TEST_CASE("the spread of a perf_analyzer row is the lognormal kernel's through its p50 and p99 latency") {
  // A kernel of mean 10 ms and cv 0.2 behind 2.6 ms of constant overheads: sigma^2 = ln(1.04), its
  // median 10 exp(-sigma^2/2) ms and p99 the median times exp(sigma z_0.99). The latency's p50 and
  // p99 are those plus the overheads, in whole microseconds (rounding moves the cv by < 1e-4).
  const double tau_us = 10000, cv = 0.2, sigma = std::sqrt(std::log1p(cv * cv));
  const double k50 = tau_us * std::exp(-sigma * sigma / 2), k99 = k50 * std::exp(sigma * kZ99);
  const long long send = 200, network = 2000, queue = 100, input = 200, output = 50, recv = 50;
  const long long others = send + network + queue + input + output + recv;
  const std::string csv =
      "Concurrency,Inferences/Second,Client Send,Network+Server Send/Recv,Server Queue,Server Compute Input,"
      "Server Compute Infer,Server Compute Output,Client Recv,p50 latency,p90 latency,p95 latency,p99 latency\n"
      "1,79.4," +
      std::to_string(send) + "," + std::to_string(network) + "," + std::to_string(queue) + "," + std::to_string(input) +
      ",10000," + std::to_string(output) + "," + std::to_string(recv) + "," +
      std::to_string(std::llround(others + k50)) + ",15000,16000," + std::to_string(std::llround(others + k99)) + "\n";
  const CalibrationInput input_file = kernel_point_from_perf_analyzer(parse_perf_analyzer_csv(csv, "pa.csv"), 4);
  REQUIRE(input_file.points[0].cv);
  CHECK(*input_file.points[0].cv == doctest::Approx(cv).epsilon(1e-3));
  CHECK(lognormal_cv_from_quantiles(k50, k99) == doctest::Approx(cv).epsilon(1e-12));

  // Percentiles within the other columns' time say nothing of the kernel: no spread from that row.
  const std::string inside =
      csv.substr(0, csv.rfind('\n', csv.size() - 2) + 1) + "1,79.4,200,2000,100,200,10000,50,50,2000,2100,2200,2300\n";
  const CalibrationInput none = kernel_point_from_perf_analyzer(parse_perf_analyzer_csv(inside, "pa2.csv"), 4);
  CHECK_FALSE(none.points[0].cv);
  CHECK(none.points[0].cv_method.find("not the kernel's") != std::string::npos);
}

TEST_CASE("the fitted spread is written to the model file and reads back; without --spread there is none") {
  Rng rng(3);
  std::string csv = "# sonicsim calibration data v1\nbatch_size,mean_s,p50_s,p99_s,stddev_s,repeats\n";
  for (int b : {1, 16, 256}) csv += csv_row(b, 1e-3 + 1e-5 * b, 0.1, 500, rng);
  const CalibrationInput input = parse_calibration_csv(csv, "s.csv", LatencyStatistic::Mean);
  const Calibration with =
      calibrate({input}, LatencyStatistic::Mean, LatencyForm::Table, {0, 1}, SpreadShape::Lognormal);
  const LatencyModelFile file = parse_latency_model_file(latency_model_json(with, "test").dump(2), "m.json");
  REQUIRE(file.spread);
  CHECK(file.spread->shape == SpreadShape::Lognormal);
  CHECK(file.spread->cv_points == with.spread->spread().cv_points);
  CHECK(format_calibration(with).find("spread of single calls (lognormal, cv = stddev / mean)") != std::string::npos);

  const Calibration without = calibrate({input}, LatencyStatistic::Mean, LatencyForm::Table, {0, 1});
  CHECK_FALSE(without.spread);
  CHECK_FALSE(latency_model_json(without, "test").contains("spread"));
}

TEST_CASE("--spread needs a spread in the inputs and the mean as the curve") {
  const std::string one_call =
      "# sonicsim calibration data v1\nbatch_size,mean_s,p50_s,p99_s,stddev_s,repeats\n1,1e-3,1e-3,1e-3,0,1\n";
  const CalibrationInput input = parse_calibration_csv(one_call, "one.csv", LatencyStatistic::Mean);
  CHECK_THROWS_WITH_AS(calibrate({input}, LatencyStatistic::Mean, LatencyForm::Table, {0, 1}, SpreadShape::Gamma),
                       "--spread: no input gives the spread of single calls (spread at batch 1: one call (repeats 1) "
                       "measures no spread)",
                       std::invalid_argument);
  const CalibrationInput p50 = parse_calibration_csv(one_call, "one.csv", LatencyStatistic::P50);
  CHECK_THROWS_WITH_AS(calibrate({p50}, LatencyStatistic::P50, LatencyForm::Table, {0, 1}, SpreadShape::Gamma),
                       doctest::Contains("not the p50"), std::invalid_argument);
}
