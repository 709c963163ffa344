// The load cycle of a dynamic farm (models/closed_form/load_cycle.hpp), worked out by hand.
#include <doctest/doctest.h>

#include <cmath>

#include "models/closed_form/analytic.hpp"
#include "models/closed_form/load_cycle.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using nlohmann::json;

TEST_CASE(
    "waves cycle with their period, from when the first wave's longest job can have ended to the last wave's end") {
  json d = test::base_scenario();
  d["platform"]["worker_pools"][0]["cores_per_node"] = 100;
  d["workload"]["jobs"] = 95;
  d["workload"]["events_per_job"] = {{"distribution", "uniform"}, {"min", 10}, {"max", 40}};
  d["workload"].erase("start");
  d["workload"]["submit"] = {{"pattern", "waves"}, {"jobs_per_wave", 10}, {"period", "30s"}};
  const Scenario s = test::parse(d);
  const auto cycle = load_cycle(s);
  REQUIRE(cycle);
  CHECK(cycle->cycle_s == 30);
  CHECK(cycle->waves());
  // 40 events at t_ideal, rounded up to whole periods; 10 waves (95 jobs of 10 a wave) end at 300 s.
  const double longest = 40 * analytic_model(s).ideal_s();
  CHECK(cycle->repeats_from_s == std::ceil(longest / 30) * 30);
  CHECK(cycle->repeats_until_s == 300);

  // One wave is no cycle, nor are jobs that run for the whole duration (they only pile up).
  d["workload"]["submit"]["jobs_per_wave"] = 95;
  CHECK_FALSE(load_cycle(test::parse(d)));
  d["workload"]["submit"]["jobs_per_wave"] = 10;
  d["workload"].erase("events_per_job");
  d["workload"]["duration"] = "600s";
  CHECK_FALSE(load_cycle(test::parse(d)));
}

TEST_CASE("an autoscaled group cycles with its settle time") {
  AutoscalingSpec a;
  a.metric_window_s = 30;
  a.sync_period_s = 15;
  a.hpa.scale_up.stabilization_window_s = 30;
  a.hpa.scale_down.stabilization_window_s = 45;
  a.startup = ConstantDist{60};
  a.readiness_delay_s = 10;
  a.readiness_period_s = 10;
  a.prestop_sleep_s = 60;
  a.grace_period_s = 60;
  // 30 + 15 + max(30, 45), then max(60 + 10 + 10 up, 60 + 60 down) = 90 + 120.
  CHECK(autoscaler_settle_s(a) == 210);
  a.prestop_sleep_s = 0;
  CHECK(autoscaler_settle_s(a) == 90 + 80);
}
