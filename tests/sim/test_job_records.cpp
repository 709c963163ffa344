// A static farm keeps one record per job (the batch system's are tested in test_batch_system.cpp):
// when it began and ended, its events and its outcome; validate's per-job throughput comes from them.
#include <doctest/doctest.h>

#include "analysis/validation/job_throughput.hpp"
#include "tests/sim/failure_farm.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using nlohmann::json;

TEST_CASE("a static farm records every job: start, end, events and outcome") {
  // The failure farm's timeline (failure_farm.hpp): s0 dies at T = 505.5 ms and fails jobs 0 and 2
  // (fail_job) after 45 events each, job 0 at T and job 2 at 506 ms. Jobs 1 and 3 share s1 and run
  // their 100 events: job 1's event k ends at 11 k + 11 ms, job 3's at 11 k + 12 ms, so they end at
  // 1100 ms and 1101 ms. Each event adds a few tens of nanoseconds of network, some 4 us over 100
  // events: hence a relative margin of 1e-5 (11 us at 1.1 s).
  const SimulationResults r = test::simulate_isolated(test::parse(test::failure_farm(100, "per_job")));
  REQUIRE(r.jobs.size() == 4);
  for (int j = 0; j < 4; ++j) {
    const JobRecord& job = r.jobs[static_cast<std::size_t>(j)];
    CHECK(job.job == j);
    CHECK(job.submit_s == 0);
    CHECK(job.start_s == 0);
    CHECK(job.attempt == 1);
    CHECK(job.node == -1);
  }
  CHECK(r.jobs[0].outcome == JobOutcome::Failed);
  CHECK(r.jobs[0].events == test::kEventsBefore);
  CHECK(r.jobs[0].end_s == doctest::Approx(test::kFailAt).epsilon(1e-5));
  CHECK(r.jobs[2].outcome == JobOutcome::Failed);
  CHECK(r.jobs[2].end_s == doctest::Approx(0.506).epsilon(1e-5));
  CHECK(r.jobs[1].outcome == JobOutcome::Done);
  CHECK(r.jobs[1].events == 100);
  CHECK(r.jobs[1].end_s == doctest::Approx(1.100).epsilon(1e-5));
  CHECK(r.jobs[1].end_s == test::last_event_end(r, 1));
  CHECK(r.jobs[3].end_s == doctest::Approx(1.101).epsilon(1e-5));
  // Only the two jobs that ran all their events have a throughput: 100 / 1.100 and 100 / 1.101.
  const auto rates = validation::job_throughputs(r.jobs);
  REQUIRE(rates.size() == 2);
  CHECK(rates[0] == doctest::Approx(100 / 1.100).epsilon(1e-5));
  CHECK(rates[1] == doctest::Approx(100 / 1.101).epsilon(1e-5));
}

TEST_CASE("static jobs that start later: the wall time runs from each job's own start") {
  // CPU only, three single-core nodes, jobs spread over a 6 s window: job j starts at 2 j s (the
  // spread pattern: window / jobs apart) and runs 4 events of 1.5 s, ending 6 s after it began.
  json d = test::base_scenario();
  d["platform"]["worker_pools"][0]["nodes"] = 3;
  d["platform"]["servers"] = json::array();
  d["workload"] = {{"jobs", 3},
                   {"events_per_job", 4},
                   {"start", {{"pattern", "spread"}, {"window", "6s"}}},
                   {"modules", json::array({{{"type", "cpu"}, {"name", "reco"}, {"time", "1.5s"}}})}};
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  REQUIRE(r.jobs.size() == 3);
  for (int j = 0; j < 3; ++j) {
    const JobRecord& job = r.jobs[static_cast<std::size_t>(j)];
    CHECK(job.start_s == doctest::Approx(2.0 * j));
    CHECK(job.end_s == doctest::Approx(2.0 * j + 6));
    CHECK(job.outcome == JobOutcome::Done);
  }
  for (double rate : validation::job_throughputs(r.jobs)) CHECK(rate == doctest::Approx(4 / 6.0));
}
