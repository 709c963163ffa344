// perf_analyzer's count windows (`measurement_mode`: `count_windows`): closed forms of whole runs on
// test::perf_scenario with a saturated instance, where every request's latency is L = c tau.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "analysis/outputs/perf_report.hpp"
#include "cli/processes/isolated_run.hpp"
#include "sim/perf_simulation.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

PerfRow count_window_row(const json& load) {
  json d = test::perf_scenario(load);
  d["models"]["m"]["kernel_latency"]["intercept"] = "20ms";  // far longer than the 2.3 ms round trip
  const Scenario scenario = test::parse(d);
  return json::parse(run_isolated([&]() { return json(perf_row(simulate_perf_level(scenario, 0))).dump(); }))
      .get<PerfRow>();
}

json saturated_load(const json& mode) {
  json load = {{"model", "m"}, {"concurrency", {8}}, {"warmup", "2s"}, {"windows", 3}};
  load.update(mode);
  return load;
}

constexpr double kTau = 20e-3 + 10e-6;  // batch 1
constexpr double kLatency = 8 * kTau;   // 8 clients on one busy instance: each waits for the 7 others

}  // namespace

TEST_CASE("count windows: the valid range reaches back L/2 before the window, so X is low by L / (2 W)") {
  // 30 requests at 1/tau = 50/s are answered 0.6 s into a window: the first poll, at 1 s, ends it
  // (W = 1 s). The answered requests span [t0 - L, t0 + W): the range of length W in its middle is
  // [t0 - L/2, t0 + W - L/2], and only the requests ending from t0 are in this window's timestamps,
  // so X W (1 - L / (2 W)) of them count, to one request either side for where the 20 ms grid falls.
  const PerfRow row =
      count_window_row(saturated_load({{"measurement_mode", "count_windows"}, {"measurement_request_count", 30}}));
  const double expected = (1 / kTau) * (1 - kLatency / 2);
  CHECK(row.inferences_per_s == doctest::Approx(expected).epsilon(1.0 / expected));
  CHECK(row.inferences_per_s < 0.95 / kTau);
  // The latencies of the requests counted are not biased: every one is L.
  CHECK(std::abs(row.p50_us - static_cast<std::int64_t>(kLatency * 1e6)) <= 1);
  CHECK(row.p99_us == row.p50_us);
  // Little's law on the row's own columns: fewer than the 8 clients seem to be in flight.
  CHECK(row.inferences_per_s * row.avg_us * 1e-6 / 8 == doctest::Approx(1 - kLatency / 2).epsilon(0.03));
}

TEST_CASE("count windows: a window lasts whole seconds of polling until the count is reached") {
  // 120 requests at 50/s take 2.4 s: the third poll ends each window (W = 3 s), so the 3 windows
  // hold 3 X (W - L/2) requests, one either side per window.
  const PerfRow row =
      count_window_row(saturated_load({{"measurement_mode", "count_windows"}, {"measurement_request_count", 120}}));
  const double per_window = (1 / kTau) * (3 - kLatency / 2);
  CHECK(std::abs(static_cast<double>(row.requests) - 3 * per_window) <= 3);
  CHECK(row.inferences_per_s == doctest::Approx(per_window / 3).epsilon(1.0 / per_window));
}

TEST_CASE("time windows (the default) count every request ending in the windows: X = 1/tau") {
  const PerfRow row = count_window_row(saturated_load({{"measurement_interval", "2s"}}));
  CHECK(row.inferences_per_s == doctest::Approx(1 / kTau).epsilon(0.005));
  CHECK(row.inferences_per_s * row.avg_us * 1e-6 / 8 == doctest::Approx(1).epsilon(0.005));
}
