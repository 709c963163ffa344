// The rows validate prints: the KS statistic where a distribution is a point mass, and the metric
// ids that tolerances may name.
#include <doctest/doctest.h>

#include "analysis/validation/comparison.hpp"
#include "analysis/validation/job_throughput.hpp"
#include "analysis/validation/metric_ids.hpp"
#include "tests/support/validation_rows.hpp"

using namespace sonicsim;
using namespace sonicsim::validation;

TEST_CASE("KS between point masses a microsecond apart is not applicable; the mean error decides") {
  const std::vector<double> log(50, 330.000001), simulated(50, 330.0);
  const auto rows = compare_times("event_time", "event time", log, simulated, Tolerances{}, 1e-6);
  const ValidationRow& ks = test::row_with_id(rows, "event_time_ks");
  CHECK(ks.simulated == 1.0);  // disjoint point masses: the statistic is 1 at any distance
  CHECK_FALSE(ks.applicable);
  CHECK(ks.pass);
  CHECK(ks.note == "both are a point mass at the log's resolution");
  CHECK(test::row_with_id(rows, "event_time_mean").error == doctest::Approx(-1e-6 / 330.000001));
  CHECK(verdict_line(rows) == "all 5 metrics within their tolerance (1 not applicable)\n");
  CHECK(format_rows(rows).find("n/a") != std::string::npos);
}

TEST_CASE("a point mass is judged at the log's resolution; two values further apart are a distribution") {
  // Rounding start and end to the microsecond separately gives a deterministic time either digit.
  CHECK(point_mass({330.000000, 330.000001, 330.000000}, 1e-6));
  CHECK_FALSE(point_mass({330.000000, 330.000002}, 1e-6));
  CHECK(point_mass({2.5, 2.5}, 0));
  CHECK_FALSE(point_mass({2.5, 2.5000001}, 0));
  CHECK_FALSE(point_mass({}, 1));
  // One side spread, the other a point mass: still not applicable, and the row says which.
  const auto rows = compare_times("job_time", "job wall time", {10, 11, 12, 13}, {11.5, 11.5}, Tolerances{});
  CHECK_FALSE(test::row_with_id(rows, "job_time_ks").applicable);
  CHECK(test::row_with_id(rows, "job_time_ks").note == "the simulation is a point mass at the log's resolution");
  // Both spread: KS applies and fails as before (the samples are disjoint).
  const auto spread = compare_times("job_time", "job wall time", {10, 11, 12}, {20, 21, 22}, Tolerances{});
  CHECK(test::row_with_id(spread, "job_time_ks").applicable);
  CHECK_FALSE(test::row_with_id(spread, "job_time_ks").pass);
  CHECK(verdict_line(spread).starts_with("6 of 6 metrics outside"));
}

TEST_CASE("every id a comparison gives is a known metric; misspellings and bare loads are not") {
  std::vector<ValidationRow> rows = compare_times("event_time", "", {1, 2}, {1, 2}, Tolerances{});
  for (const auto& r : compare_times("job_time", "", {1, 2}, {1, 2}, Tolerances{})) rows.push_back(r);
  for (const auto& r : compare_job_throughputs({1, 2}, {1, 2}, Tolerances{})) rows.push_back(r);
  TritonWindow window;
  window.gpu_utilization = 0.5;
  for (const auto& r : compare_triton(window, window, Tolerances{})) rows.push_back(r);
  for (const auto& r : compare_times("perf_16_latency", "", {1, 2}, {1, 2}, Tolerances{})) rows.push_back(r);
  rows.push_back(compare_value("events_per_s", "", 1, 1, Tolerances{}));
  for (const auto& r : rows) CHECK_MESSAGE(is_known_metric(r.id), r.id);
  for (const char* id : {"perf_2_p99", "perf_0.5_inferences_per_s", "perf_1e3_latency_ks", "prom_ready_time_at_3",
                         "prom_ready_lag", "prom_queue_ms_mae", "prom_gpu_utilization_mean"})
    CHECK(is_known_metric(id));
  for (const char* id :
       {"event_time_p95", "event_time", "perf_p99", "perf__p99", "perf_x_p99", "perf_-1_p99", "perf_2_p95",
        "perf_inf_p50", "queue_time_per_request", "prom_ready_time_at_", "prom_ready_time_at_x", "prom_jobs_mean", ""})
    CHECK_FALSE(is_known_metric(id));
  CHECK(known_metric_list().starts_with("event_time_mean, event_time_p50, "));
}

TEST_CASE("a distance whose measured mean left a double's range is no pass") {
  // Two times of 1.7e308 s: their mean overflows to infinity, and Wasserstein-1 relative to it read 0.
  const auto rows = compare_times("t", "t", {1.7e308, 1.7e308, 1}, {1, 1, 1}, Tolerances{});
  const ValidationRow& w1 = rows.back();
  REQUIRE(w1.id == "t_wasserstein");
  CHECK(!w1.pass);
}
