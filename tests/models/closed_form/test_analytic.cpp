// The closed-form t_SONIC model: its parts computed by hand for the base scenario.
#include <doctest/doctest.h>

#include <cmath>

#include "models/closed_form/analytic.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;

TEST_CASE("the closed form's parts for the base scenario, by hand") {
  const AnalyticModel m = analytic_model(test::parse(test::base_scenario()));
  CHECK(m.cpu_s == 2.0);
  CHECK(m.preprocess_s == 0.5);
  // 1000 items in requests of 300: 300, 300, 300, 100; tau = 1 ms + 10 us per item.
  CHECK(m.requests_per_event == 4);
  CHECK(m.gpu_s == doctest::Approx(4 * 1e-3 + 1000 * 10e-6));
  // Path 10 us + 100 us + 1 ms + 10 us = 1.12 ms one way; no TCP window; narrowest link 1 Gbps.
  CHECK(m.flow_rate_Bps == doctest::Approx(1e9 / 8));
  CHECK(m.round_trips_s == doctest::Approx(4 * 2 * 1.12e-3));
  CHECK(m.transfer_s == doctest::Approx(1000 * 4400 / (1e9 / 8)));
  CHECK(m.ideal_s() == doctest::Approx(2.5 + 0.014 + 8.96e-3 + 0.0352));
  // The GPU saturates at t_ideal / t_GPU jobs (one GPU); the 1 Gbps uplink at 1e9/8 * t_ideal / 4 MB
  // (links are full duplex: the 4 MB of requests per event fill it, not the 0.4 MB of responses).
  CHECK(gpu_knee_jobs(m) == doctest::Approx(m.ideal_s() / 0.014));
  CHECK(link_cap_jobs(m, m.links[0]) == doctest::Approx(1e9 / 8 * m.ideal_s() / 4e6));
  CHECK(m.links[0].name == "site uplink");
  // Below the knees the time is t_ideal; far above, N * t_GPU / N_GPU or the uplink's share.
  CHECK(analytic_prediction(m, 10).per_event_s == m.ideal_s());
  CHECK(analytic_prediction(m, 10).regime == "CPU-bound");
  const AnalyticPrediction far = analytic_prediction(m, 5000);
  CHECK(far.regime == "network-saturated (site uplink)");  // 4 MB / 125 MB/s = 32 ms > 14 ms of GPU per job
  CHECK(far.per_event_s == doctest::Approx(5000 * 4e6 / (1e9 / 8)));
}

TEST_CASE("the TCP window caps one flow's rate at gamma / (2 x one-way latency)") {
  nlohmann::json d = test::base_scenario();
  d["simulation"]["network"]["tcp_gamma"] = "100kB";
  const AnalyticModel m = analytic_model(test::parse(d));
  CHECK(m.flow_rate_Bps == doctest::Approx(100e3 / (2 * 1.12e-3)));
}

TEST_CASE(
    "a server frontend adds its parsing and serialising to t_ideal and saturates at threads x t_ideal / t_frontend") {
  nlohmann::json d = test::base_scenario();
  d["platform"]["servers"][0]["frontend"] = {{"threads", 3}, {"per_request", "1ms"}, {"input_bandwidth", "0.8Gbps"}};
  d["platform"]["site_uplink"]["bandwidth"] = "100Gbps";  // so that no link saturates first
  d["platform"]["wan"]["bandwidth"] = "100Gbps";
  const AnalyticModel m = analytic_model(test::parse(d));
  // Four requests: 4 x 1 ms + 4 MB at 100 MB/s; no response cost given.
  CHECK(m.frontend_s == doctest::Approx(4e-3 + 1000 * 4000 / 100e6));
  CHECK(m.frontend_threads == 3);
  CHECK(frontend_knee_jobs(m) == doctest::Approx(3 * m.ideal_s() / m.frontend_s));
  d["platform"]["servers"][0].erase("frontend");
  const AnalyticModel without = analytic_model(test::parse(d));
  CHECK(m.ideal_s() == doctest::Approx(without.ideal_s() + m.frontend_s));
  CHECK(analytic_prediction(m, 1000).regime == "frontend-saturated");  // 44 ms / 3 threads > 14 ms of GPU
}
