// Steady-state estimation: MSER-5's warm-up cut, Student-t and batch-means intervals by hand, the
// busy-time bins, and the coverage of the 95% intervals over 100 seeds of cases with a known mean.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "analysis/stats/steady_estimates.hpp"
#include "analysis/stats/steady_state.hpp"
#include "analysis/stats/time_bins.hpp"
#include "analysis/summary/summary.hpp"
#include "tests/support/support.hpp"

using namespace sonicsim;
using nlohmann::json;

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

namespace {

// How often the 95% interval of the steady-state mean per-event time holds `truth`, over `seeds`.
double coverage(json document, double truth, int seeds, double* mean_relative_half_width) {
  int covered = 0;
  double widths = 0, means = 0;
  for (int seed = 1; seed <= seeds; ++seed) {
    document["simulation"]["seed"] = seed;
    const SteadyState s = steady_state(test::simulate_isolated(test::parse(document)));
    REQUIRE(s.event_time.mean_s);
    const stats::Interval& i = *s.event_time.mean_s;
    if (std::fabs(i.mean - truth) <= i.half_width) ++covered;
    widths += i.relative_half_width();
    means += i.mean;
  }
  *mean_relative_half_width = widths / seeds;
  MESSAGE("mean of the means " << means / seeds << ", truth " << truth);
  return static_cast<double>(covered) / seeds;
}

}  // namespace

TEST_CASE("coverage, independent events: one job of exponential CPU times of mean 2 s holds the mean 90-99% of the time") {
  json d = test::base_scenario();
  d["platform"]["servers"] = json::array();
  d["workload"]["events_per_job"] = 400;
  d["workload"]["modules"] = json::array({{{"type", "cpu"}, {"name", "reco"}, {"time", {{"distribution", "exponential"}, {"mean", "2s"}}}}});
  double width = 0;
  const double covered = coverage(d, 2.0, 100, &width);
  MESSAGE("exponential CPU times: the 95% interval holds the mean in " << 100 * covered << "% of 100 seeds (mean ±"
                                                                       << 100 * width << "%)");
  CHECK(covered >= 0.90);
  CHECK(covered <= 0.99);
}

TEST_CASE("coverage, M/D/1: Poisson jobs of one request each on one unbatched GPU hold the P-K mean 90-99% of the time") {
  // Jobs arrive as a Poisson process (rate 30/s); each sends one request of 1 B to a model without
  // batching whose kernel takes D = 10 ms: the GPU is an M/D/1 queue at rho = 0.3. The per-event
  // time is the Pollaczek-Khinchine wait rho D / (2 (1 - rho)) + D + the route's one-way latency
  // both ways (10 us + 100 us + 1 ms + 10 us) + 1 B each way at the 1 Gbps bottleneck.
  const double lambda = 30, D = 0.010, rho = lambda * D, one_way = 10e-6 + 100e-6 + 1e-3 + 10e-6;
  const double truth = rho * D / (2 * (1 - rho)) + D + 2 * (one_way + 8 / 1e9);
  json d = test::base_scenario();
  d["platform"]["worker_pools"][0]["cores_per_node"] = 1000;
  d["models"]["m"] = {{"input_bytes_per_item", "1B"}, {"output_bytes_per_item", "1B"}, {"max_batch_size", 1},
                      {"instances_per_gpu", 1}, {"kernel_latency", {{"type", "affine"}, {"intercept", "10ms"}, {"per_item", "0s"}}}};
  d["workload"] = {{"jobs", 4000},
                   {"events_per_job", 1},
                   {"submit", {{"pattern", "poisson"}, {"mean_interval", std::to_string(1 / lambda) + "s"}}},
                   {"modules", json::array({{{"type", "inference"}, {"name", "ml"}, {"model", "m"}, {"items_per_event", 1},
                                             {"items_per_request", 1}, {"preprocess", "0s"}, {"in_flight", 1}}})}};
  d["simulation"]["outputs"] = json::array();
  double width = 0;
  const double covered = coverage(d, truth, 200, &width);
  MESSAGE("M/D/1 at rho 0.3: the 95% interval holds the P-K mean " << truth << " s in " << 100 * covered
                                                                    << "% of 100 seeds (mean ±" << 100 * width << "%)");
  CHECK(covered >= 0.90);
  CHECK(covered <= 0.99);
}

TEST_CASE("the stopping rule ends a run once its mean is that precise, or at its maximum time") {
  // One job of 100,000 exponential CPU times of mean 2 s (the relative standard deviation of one
  // event is 1): about (1.96 / 0.02)^2 = 9,600 events give ±2%, far fewer than the workload's.
  json d = test::base_scenario();
  d["platform"]["servers"] = json::array();
  d["workload"]["events_per_job"] = 100000;
  d["workload"]["modules"] = json::array({{{"type", "cpu"}, {"name", "reco"}, {"time", {{"distribution", "exponential"}, {"mean", "2s"}}}}});
  d["simulation"]["outputs"] = json::array();
  d["simulation"]["stop_at_precision"] = {{"relative_half_width", "2%"}};
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  REQUIRE(r.precision_stop);
  CHECK(r.precision_stop->reached);
  CHECK(r.precision_stop->relative_half_width == 0.02);
  CHECK(r.events.size() > 5000);
  CHECK(r.events.size() < 30000);  // checkpoints 25% apart: it overshoots by at most that much
  const Summary s = summarize(r);
  REQUIRE(s.steady.event_time.mean_s);
  CHECK(s.steady.event_time.mean_s->relative_half_width() <= 0.02);
  CHECK(s.steady.event_time.mean_s->mean == doctest::Approx(2).epsilon(0.05));
  const json j = summary_to_json(s);
  CHECK(j["stopping"]["reached"] == true);
  CHECK(j["steady_state"]["event_time_s"]["relative_half_width_95"].get<double>() <= 0.02);

  d["simulation"]["stop_at_precision"] = {{"relative_half_width", 0.001}, {"max_time", "1000s"}};
  const SimulationResults capped = test::simulate_isolated(test::parse(d));
  REQUIRE(capped.precision_stop);
  CHECK_FALSE(capped.precision_stop->reached);
  CHECK(capped.end_s == doctest::Approx(1000));
  CHECK(capped.events_incomplete == 1);  // the event running at 1000 s
}

TEST_CASE("stopping-rule settings are checked") {
  json d = test::base_scenario();
  d["simulation"]["stop_at_precision"] = {{"relative_half_width", "1%"}};
  CHECK(test::parse(d).simulation.stop_at_precision->relative_half_width == doctest::Approx(0.01));
  d["simulation"]["stop_at_precision"] = {{"relative_half_width", 0}};
  CHECK(test::input_error_of([&] { test::parse(d); })
            .find("/simulation/stop_at_precision/relative_half_width: expected a relative half-width above 0") !=
        std::string::npos);
  d["simulation"]["stop_at_precision"] = {{"relative_half_width", "one percent"}};
  CHECK(test::input_error_of([&] { test::parse(d); }).find("expected a fraction (0.01) or a percentage") !=
        std::string::npos);
  d["simulation"]["stop_at_precision"] = {{"relative_half_width", "1%"}, {"max_time", "-5s"}};
  CHECK(test::input_error_of([&] { test::parse(d); }).find("/simulation/stop_at_precision/max_time: ") !=
        std::string::npos);
}
