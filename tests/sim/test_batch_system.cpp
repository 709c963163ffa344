// Whole simulations of jobs from a batch system against closed forms (D/D/S with all jobs at once;
// M/D/S waiting times), and the resubmission of failed jobs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "tests/sim/failure_farm.hpp"
#include "tests/support/records_json.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

// A CPU-only farm of `cores` cores on one node; each job runs one event of one CPU module of
// `job_s` seconds, so a job holds its core for exactly job_s.
json cpu_farm(int cores, int jobs, const std::string& job_s) {
  json d = test::base_scenario();
  d["platform"]["worker_pools"][0]["cores_per_node"] = cores;
  d["platform"]["servers"] = json::array();
  d["workload"] = {{"jobs", jobs},
                   {"events_per_job", 1},
                   {"submit", {{"pattern", "all_at_once"}}},
                   {"modules", json::array({{{"type", "cpu"}, {"name", "reco"}, {"time", job_s}}})}};
  d["simulation"]["outputs"] = json::array({"jobs"});
  return d;
}

// Mean wait in queue of M/D/c, exactly: the number in system N at times t and t + D satisfies
// N(t + D) = max(N(t) - c, 0) + A with A ~ Poisson(lambda D), because everyone in service at t has
// left by t + D and nobody who starts later has (Crommelin 1932). The stationary law of that chain
// is the law of N at any time; then W_q = E[max(N - c, 0)] / lambda (Little).
double md_c_mean_wait(double lambda, double service_s, int c) {
  const int states = 200;
  const double a = lambda * service_s;
  std::vector<double> arrivals(states);
  for (int k = 0; k < states; ++k) arrivals[k] = std::exp(-a + k * std::log(a) - std::lgamma(k + 1.0));
  std::vector<double> p(states, 0.0), next(states);
  p[0] = 1;
  for (int iteration = 0; iteration < 100000; ++iteration) {
    std::fill(next.begin(), next.end(), 0.0);
    for (int n = 0; n < states; ++n)
      for (int k = 0, base = std::max(n - c, 0); base + k < states; ++k) next[base + k] += p[n] * arrivals[k];
    const double total = std::accumulate(next.begin(), next.end(), 0.0);
    double change = 0;
    for (int n = 0; n < states; ++n)
      change = std::max(change, std::abs(next[n] / total - p[n])), p[n] = next[n] / total;
    if (change < 1e-15) break;
  }
  double queued = 0;
  for (int n = c; n < states; ++n) queued += (n - c) * p[n];
  return queued / lambda;
}

}  // namespace

TEST_CASE("S cores, jobs of duration D submitted at once: job k starts at floor(k / S) D") {
  const int cores = 3, jobs = 10;
  const double duration = 2;
  const auto r = test::simulate_isolated(test::parse(cpu_farm(cores, jobs, "2s")));
  REQUIRE(r.jobs.size() == static_cast<std::size_t>(jobs));
  for (const JobRecord& job : r.jobs) {
    CHECK(job.outcome == JobOutcome::Done);
    CHECK(job.submit_s == 0);
    CHECK(job.start_s == doctest::Approx((job.job / cores) * duration));
    CHECK(job.end_s == doctest::Approx((job.job / cores + 1) * duration));
    CHECK(job.events == 1);
  }
  CHECK(r.end_s == doctest::Approx(std::ceil(double(jobs) / cores) * duration));
}

TEST_CASE("Poisson submissions into S cores: the mean queue wait is M/D/S's within 3%" * doctest::test_suite("large")) {
  // 100,000 jobs at 70% load on 4 cores: the sampling error of the mean wait is about 1% (from
  // repeated runs of an independent FCFS recursion), so 3% is a margin of about 3 sigma.
  const int cores = 4, jobs = 100000;
  const double service_s = 1, load = 0.7;
  const double lambda = load * cores / service_s;
  json d = cpu_farm(cores, jobs, "1s");
  d["workload"]["submit"] = {{"pattern", "poisson"}, {"mean_interval", std::to_string(1 / lambda) + "s"}};
  const auto r = test::simulate_isolated(test::parse(d));
  REQUIRE(r.jobs.size() == static_cast<std::size_t>(jobs));
  double waited = 0;
  const int skipped = 1000;  // the empty start
  for (std::size_t j = skipped; j < r.jobs.size(); ++j) waited += r.jobs[j].start_s - r.jobs[j].submit_s;
  const double expected = md_c_mean_wait(lambda, service_s, cores);
  // A direct FCFS simulation (Kiefer-Wolfowitz recursion) of 5 x 100,000 jobs measures 0.1892 +- 0.0007 s.
  CHECK(expected == doctest::Approx(0.1897).epsilon(0.001));
  MESSAGE("M/D/4 at load 0.7: simulated mean wait " << waited / (jobs - skipped) << " s, exact " << expected << " s");
  CHECK(waited / (jobs - skipped) == doctest::Approx(expected).epsilon(0.03));
}

TEST_CASE("the batch system resubmits a failed job up to `resubmit` times") {
  json d = test::failure_farm(3, "per_job");
  d["platform"]["worker_pools"][0]["nodes"] = 1;
  d["platform"]["servers"] = json::array({d["platform"]["servers"][0]});
  d["platform"]["servers"][0]["failures"] = {{"at", {"0s"}}};  // never up
  d["workload"].erase("start");
  d["workload"]["jobs"] = 1;
  d["workload"]["submit"] = {{"pattern", "all_at_once"}};
  d["workload"]["resubmit"] = 2;
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  REQUIRE(r.jobs.size() == 3);
  CHECK(r.jobs[0].outcome == JobOutcome::Resubmitted);
  CHECK(r.jobs[1].outcome == JobOutcome::Resubmitted);
  CHECK(r.jobs[2].outcome == JobOutcome::Failed);
  for (int run = 0; run < 3; ++run) {
    const JobRecord& j = r.jobs[static_cast<std::size_t>(run)];
    CHECK(j.attempt == run + 1);
    // Each run: 10 ms of CPU, then its request is refused at once.
    CHECK(j.start_s == doctest::Approx(0.010 * run).epsilon(1e-6));
    CHECK(j.end_s - j.start_s == doctest::Approx(0.010).epsilon(1e-4));
  }
  CHECK(r.failures.value().jobs_failed == 3);
}
