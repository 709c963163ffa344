// The closed-form t_SONIC model agrees with the simulation of the ProtoDUNE scenario where its
// assumptions hold.
#include <doctest/doctest.h>

#include <cmath>

#include "analysis/summary/summary.hpp"
#include "models/closed_form/analytic.hpp"
#include "models/scenario/reader/scenario_reader.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;

TEST_CASE("closed form and simulation agree within 5% on ProtoDUNE below, at and beyond the GPU knee") {
  const std::string path = std::string(SONICSIM_SCENARIOS_DIR) + "/protodune-2021-sonic.json";
  const AnalyticModel m = analytic_model(load_scenario(path));
  CHECK(gpu_knee_jobs(m) == doctest::Approx(4 * m.ideal_s() / m.gpu_s));
  for (int jobs : {1, 100, 300, 400}) {
    const Scenario s = load_scenario(path, {{"/workload/jobs", std::to_string(jobs)}, {"/simulation/outputs", "[]"}});
    const double simulated = summarize(test::simulate_isolated(s)).event_time.mean;
    const double closed = analytic_prediction(m, jobs).per_event_s;
    INFO("jobs " << jobs << ": simulated " << simulated << " s, closed form " << closed << " s");
    CHECK(std::abs(simulated / closed - 1) < 0.05);
  }
}
