// Whole runs with the upload fast path on and off (simulation.network.fast_path): the bundled
// scenarios it applies to, and ProtoDUNE-like farms of 1,000 to 4,000 jobs below, at and past the
// site uplink's capacity. The fast path computes SimGrid's rates in another order of floating-point
// operations, so the outputs are not byte-identical: the runs must send and complete the same
// requests and events, and every event must take the same time to 1e-9.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/outputs/perf_report.hpp"
#include "cli/processes/isolated_run.hpp"
#include "models/scenario/reader/scenario_reader.hpp"
#include "sim/perf_simulation.hpp"
#include "tests/support/records_json.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;

namespace {

using Overrides = std::vector<std::pair<std::string, std::string>>;

SimulationResults run_both_ways(const std::string& scenario, Overrides overrides, bool fast) {
  overrides.emplace_back("/simulation/network/fast_path", fast ? "true" : "false");
  overrides.emplace_back("/simulation/outputs", "[\"events\"]");
  return test::simulate_isolated(load_scenario(std::string(SONICSIM_SCENARIOS_DIR) + "/" + scenario, overrides));
}

// Events by (job, event): completion order may swap events that end within rounding of each other.
std::vector<EventRecord> by_job(std::vector<EventRecord> events) {
  std::sort(events.begin(), events.end(), [](const EventRecord& a, const EventRecord& b) {
    return std::tie(a.job, a.event) < std::tie(b.job, b.event);
  });
  return events;
}

void check_same_run(const std::string& scenario, const Overrides& overrides = {}) {
  CAPTURE(scenario);
  const SimulationResults simgrid = run_both_ways(scenario, overrides, false);
  const SimulationResults fast = run_both_ways(scenario, overrides, true);
  CHECK(simgrid.network_fast_path.empty());  // not asked for: nothing to say
  REQUIRE(fast.network_fast_path == "on");
  CHECK(fast.requests_sent == simgrid.requests_sent);
  CHECK(fast.requests_completed == simgrid.requests_completed);
  REQUIRE(fast.events.size() == simgrid.events.size());
  REQUIRE(!fast.events.empty());
  const std::vector<EventRecord> a = by_job(simgrid.events), b = by_job(fast.events);
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    CAPTURE(i);
    REQUIRE(a[i].job == b[i].job);
    REQUIRE(a[i].event == b[i].event);
    CHECK(a[i].requests == b[i].requests);
    const double time_a = a[i].end_s - a[i].start_s, time_b = b[i].end_s - b[i].start_s;
    const double error = std::fabs(time_b - time_a) / time_a;
    worst = std::max(worst, error);
    CHECK(error <= 1e-9);
    CHECK(std::fabs(b[i].end_s - a[i].end_s) <= 1e-9 * a[i].end_s);
  }
  MESSAGE(scenario << ": " << a.size() << " events, " << fast.requests_sent << " requests; largest difference " << worst
                   << " of an event's time");
}

// bench/saturation_bench.py's farm: the bundled ProtoDUNE 2021 scenario with `jobs` jobs on jobs /
// 100 T4 GPUs (servers of two), round robin, 300 simulated seconds. Its jobs would ask the 100 Gb/s
// uplink for 35% of its capacity per 1,000 jobs.
Overrides protodune_farm(int jobs) {
  return {{"/platform/worker_pools/0/nodes", std::to_string((jobs + 7) / 8)},
          {"/platform/servers/0/count", std::to_string(std::max(1, jobs / 200))},
          {"/platform/servers/0/gpus_per_server", "2"},
          {"/platform/load_balancing", "\"round_robin\""},
          {"/workload/jobs", std::to_string(jobs)},
          {"/workload/events_per_job", "null"},
          {"/workload/duration", "\"300s\""},
          {"/simulation/stack_size", "\"16KiB\""}};
}

}  // namespace

TEST_CASE("bundled scenarios end the same with the upload fast path, to 1e-9") {
  check_same_run("protodune-2021-sonic.json");
  check_same_run("protodune-2021-sonic-batch235.json");
  check_same_run("protodune-h100-calibrated.json");
  check_same_run("protodune-2022-campaign.json");
  check_same_run("protodune-2021-sonic.json", {{"/workload/jobs", "300"}, {"/workload/events_per_job", "3"}});
  check_same_run("cms-particlenet-gpus.json");
  check_same_run("cms-particlenet-fasttimer.json");
  check_same_run("cms-threaded-externalwork.json");
  check_same_run("cms-t2-waves.json",
                 {{"/workload/events_per_job", "{\"distribution\": \"uniform\", \"min\": 60, \"max\": 120}"}});
}

TEST_CASE("ProtoDUNE-like farms of 1,000 to 4,000 jobs end the same with the upload fast path, to 1e-9" *
          doctest::test_suite("large")) {
  // Below the uplink's capacity: 4,000 jobs fill about 90% of it from 117 s on.
  for (const int jobs : {1000, 2000, 3000, 4000}) check_same_run("protodune-2021-sonic.json", protodune_farm(jobs));
  // Past it: 1,000 jobs behind a 15 Gb/s uplink (they ask for about 23 Gb/s once their events' inference
  // steps begin), where every upload's rate is the uplink's share.
  Overrides saturated = protodune_farm(1000);
  saturated.emplace_back("/platform/site_uplink/bandwidth", "\"15Gbps\"");
  check_same_run("protodune-2021-sonic.json", saturated);
}

TEST_CASE("a scenario with a proxy runs its uploads as SimGrid transfers, and says why") {
  const SimulationResults r = run_both_ways(
      "cms-t2-autoscaling.json",
      {{"/workload/jobs", "20"}, {"/workload/submit/jobs_per_wave", "10"}, {"/workload/events_per_job", "20"}}, true);
  CHECK(r.network_fast_path.starts_with("off: a proxy relays the requests"));
  CHECK(r.requests_completed > 0);
}

TEST_CASE("perf_analyzer levels measure the same latencies with the upload fast path, to 1e-9") {
  auto latencies = [](bool fast) {
    const Scenario scenario = load_scenario(std::string(SONICSIM_SCENARIOS_DIR) + "/perf-analyzer-small-requests.json",
                                            {{"/simulation/network/fast_path", fast ? "true" : "false"}});
    std::vector<std::vector<std::int64_t>> levels;
    for (std::size_t level = 0; level < scenario.perf_analyzer->levels.size(); ++level)  // one engine per process
      levels.push_back(nlohmann::json::parse(run_isolated([&] {
                         return nlohmann::json(simulate_perf_level(scenario, level).latencies_ns).dump();
                       })).get<std::vector<std::int64_t>>());
    return levels;
  };
  const auto simgrid = latencies(false), fast = latencies(true);
  REQUIRE(simgrid.size() == fast.size());
  for (std::size_t level = 0; level < simgrid.size(); ++level) {
    CAPTURE(level);
    REQUIRE(simgrid[level].size() == fast[level].size());
    REQUIRE(!simgrid[level].empty());
    for (std::size_t i = 0; i < simgrid[level].size(); ++i)  // whole nanoseconds: rounding may move one
      CHECK(std::llabs(simgrid[level][i] - fast[level][i]) <= 1 + simgrid[level][i] / 1'000'000'000);
  }
}
