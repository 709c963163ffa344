// The coverage of the steady state's 95% intervals over 100 seeds of runs with a known mean, and the
// stopping rule that ends a run once its mean is precise enough.
#include <doctest/doctest.h>

#include <cmath>

#include "analysis/stats/steady_estimates.hpp"
#include "analysis/summary/summary.hpp"
#include "analysis/summary/summary_json.hpp"
#include "cli/processes/isolated_run.hpp"
#include "sim/simulation.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

// How often the 95% interval of the steady-state mean per-event time holds `truth`, over `seeds`.
double coverage(json document, double truth, int seeds, double* mean_relative_half_width) {
  int covered = 0;
  double widths = 0, means = 0;
  for (int seed = 1; seed <= seeds; ++seed) {
    document["simulation"]["seed"] = seed;
    const Scenario scenario = test::parse(document);
    // The interval is made in the child, which sends back two numbers instead of every event.
    const json interval = json::parse(run_isolated([&]() {
      const SteadyState s = steady_state(simulate(scenario));
      if (!s.event_time.mean_s) return json(nullptr).dump();
      return json::array({s.event_time.mean_s->mean, s.event_time.mean_s->half_width}).dump();
    }));
    REQUIRE(interval.is_array());
    const stats::Interval i{interval[0].get<double>(), interval[1].get<double>()};
    if (std::fabs(i.mean - truth) <= i.half_width) ++covered;
    widths += i.relative_half_width();
    means += i.mean;
  }
  *mean_relative_half_width = widths / seeds;
  MESSAGE("mean of the means " << means / seeds << ", truth " << truth);
  return static_cast<double>(covered) / seeds;
}

}  // namespace

TEST_CASE(
    "coverage, independent events: one job of exponential CPU times of mean 2 s holds the mean 90-99% of the time") {
  json d = test::base_scenario();
  d["platform"]["servers"] = json::array();
  d["workload"]["events_per_job"] = 400;
  d["workload"]["modules"] =
      json::array({{{"type", "cpu"}, {"name", "reco"}, {"time", {{"distribution", "exponential"}, {"mean", "2s"}}}}});
  double width = 0;
  const double covered = coverage(d, 2.0, 100, &width);
  MESSAGE("exponential CPU times: the 95% interval holds the mean in " << 100 * covered << "% of 100 seeds (mean ±"
                                                                       << 100 * width << "%)");
  CHECK(covered >= 0.90);
  CHECK(covered <= 0.99);
}

// 200 seeds of 4,000 jobs: 800,000 simulated jobs, in the large suite (tests/README.md).
TEST_CASE(
    "coverage, M/D/1: Poisson jobs of one request each on one unbatched GPU hold the P-K mean 90-99% of the time" *
    doctest::test_suite("large")) {
  // Jobs arrive as a Poisson process (rate 30/s); each sends one request of 1 B to a model without
  // batching whose kernel takes D = 10 ms: the GPU is an M/D/1 queue at rho = 0.3. The per-event
  // time is the Pollaczek-Khinchine wait rho D / (2 (1 - rho)) + D + the route's one-way latency
  // both ways (10 us + 100 us + 1 ms + 10 us) + 1 B each way at the 1 Gbps bottleneck.
  const double lambda = 30, D = 0.010, rho = lambda * D, one_way = 10e-6 + 100e-6 + 1e-3 + 10e-6;
  const double truth = rho * D / (2 * (1 - rho)) + D + 2 * (one_way + 8 / 1e9);
  json d = test::base_scenario();
  d["platform"]["worker_pools"][0]["cores_per_node"] = 1000;
  d["models"]["m"] = {{"input_bytes_per_item", "1B"},
                      {"output_bytes_per_item", "1B"},
                      {"max_batch_size", 1},
                      {"instances_per_gpu", 1},
                      {"kernel_latency", {{"type", "affine"}, {"intercept", "10ms"}, {"per_item", "0s"}}}};
  d["workload"] = {{"jobs", 4000},
                   {"events_per_job", 1},
                   {"submit", {{"pattern", "poisson"}, {"mean_interval", std::to_string(1 / lambda) + "s"}}},
                   {"modules", json::array({{{"type", "inference"},
                                             {"name", "ml"},
                                             {"model", "m"},
                                             {"items_per_event", 1},
                                             {"items_per_request", 1},
                                             {"preprocess", "0s"},
                                             {"in_flight", 1}}})}};
  d["simulation"]["outputs"] = json::array();
  double width = 0;
  const double covered = coverage(d, truth, 200, &width);
  MESSAGE("M/D/1 at rho 0.3: the 95% interval holds the P-K mean " << truth << " s in " << 100 * covered
                                                                   << "% of 200 seeds (mean ±" << 100 * width << "%)");
  CHECK(covered >= 0.90);
  CHECK(covered <= 0.99);
}

TEST_CASE("the stopping rule ends a run once its mean is that precise, or at its maximum time") {
  // One job of 100,000 exponential CPU times of mean 2 s (the relative standard deviation of one
  // event is 1): about (1.96 / 0.02)^2 = 9,600 events give ±2%, far fewer than the workload's.
  json d = test::base_scenario();
  d["platform"]["servers"] = json::array();
  d["workload"]["events_per_job"] = 100000;
  d["workload"]["modules"] =
      json::array({{{"type", "cpu"}, {"name", "reco"}, {"time", {{"distribution", "exponential"}, {"mean", "2s"}}}}});
  d["simulation"]["outputs"] = json::array();
  d["simulation"]["stop_at_precision"] = {{"relative_half_width", "2%"}};
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  REQUIRE(r.precision_stop);
  CHECK(r.precision_stop->reached);
  CHECK(r.precision_stop->relative_half_width == 0.02);
  CHECK(r.events.size() > 5000);
  CHECK(r.events.size() < 30000);  // checkpoints 25% apart: it overshoots by at most that much
  const Summary s = summarize(r);
  REQUIRE(s.steady.event_time_s);
  CHECK(s.steady.event_time_s->relative_half_width() <= 0.02);
  CHECK(s.steady.event_time_s->mean == doctest::Approx(2).epsilon(0.05));
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

namespace {

// A batch system of `cores` cores taking `jobs` jobs in waves of `per_wave` every `period`; each job
// runs `events` events of exponential CPU time of mean 1 s (relative standard deviation 1 per event).
json waves_farm(int cores, int jobs, int per_wave, const std::string& period, int events) {
  json d = test::base_scenario();
  d["platform"]["servers"] = json::array();
  d["platform"]["worker_pools"][0]["cores_per_node"] = cores;
  d["workload"] = {
      {"jobs", jobs},
      {"events_per_job", events},
      {"submit", {{"pattern", "waves"}, {"jobs_per_wave", per_wave}, {"period", period}}},
      {"modules",
       json::array(
           {{{"type", "cpu"}, {"name", "reco"}, {"time", {{"distribution", "exponential"}, {"mean", "1s"}}}}})}};
  d["simulation"]["outputs"] = json::array();
  d["simulation"]["stop_at_precision"] = {{"relative_half_width", "2%"}};
  return d;
}

}  // namespace

TEST_CASE("the stopping rule measures waves over whole cycles, once the first wave's jobs can have ended") {
  // 20 waves of 10 jobs every 100 s, each job 1,000 s long on its own core: the running jobs grow by
  // 10 a wave until the first wave's jobs end at t = 1000 s (1,000 events at t_ideal = 1 s), then
  // hold at 100 until the last wave's cycle ends (t = 2000 s). The cycles of 100 s that repeat the
  // load are [1000, 2000): an interval needs ten of them (for MSER to cut a transient), and ±2% of
  // 1 s needs about 10,000 events, which they hold, so the run stops at t = 2000 s, never inside a
  // cycle, and its estimate is the mean of the events that completed in the cycles MSER kept. (Before load cycles, the
  // rule stopped at 1900 x 1.25 s; before it waited for the load, at t = 1000 s.)
  const SimulationResults r = test::simulate_isolated(test::parse(waves_farm(100, 200, 10, "100s", 1000)));
  REQUIRE(r.precision_stop);
  CHECK(r.precision_stop->load_from_s == doctest::Approx(1900));
  REQUIRE(r.precision_stop->cycles);
  CHECK(r.precision_stop->cycles->cycle_s == 100);
  CHECK(r.precision_stop->cycles->repeats_from_s == 1000);
  CHECK(*r.precision_stop->cycles->repeats_until_s == 2000);
  CHECK(r.precision_stop->reached);
  CHECK_FALSE(r.precision_stop->drained);
  CHECK(r.end_s == doctest::Approx(2000));
  const Summary s = summarize(r);
  REQUIRE(s.steady.event_time_s);
  REQUIRE(s.steady.cycles);
  CHECK(s.steady.cycles->cycles == 10);
  // MSER may cut the first of them as a transient (with iid noise it cuts some): the mean is over
  // the whole cycles it kept, from warmup_until_s.
  const double from = s.steady.warmup_until_s;
  CHECK(std::fmod(from, 100) == doctest::Approx(0));
  CHECK(s.steady.event_time_s->batches == 10 - s.steady.cycles->cut);
  double sum = 0, n = 0;
  for (const EventRecord& e : r.events)
    if (e.end_s >= from && e.end_s < 2000 - 1e-6) sum += e.time_s(), n += 1;
  CHECK(s.steady.event_time_s->mean == doctest::Approx(sum / n).epsilon(1e-9));
  CHECK(s.steady.event_time_s->mean == doctest::Approx(1).epsilon(0.05));
}

TEST_CASE("a workload that drains after its last submission runs to its end, and says so") {
  // Waves of 10 jobs every 100 s whose jobs last about 50 s: after the last wave (t = 1900 s) the
  // running jobs only fall, to none at about 1950 s, before ±0.5% (about 150,000 events) is known.
  json d = waves_farm(100, 200, 10, "100s", 50);
  d["simulation"]["stop_at_precision"] = {{"relative_half_width", "0.5%"}};
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  REQUIRE(r.precision_stop);
  CHECK_FALSE(r.precision_stop->reached);
  CHECK(r.precision_stop->drained);
  CHECK(r.events.size() == 200 * 50);  // every event of every job: the run went to its end
}
