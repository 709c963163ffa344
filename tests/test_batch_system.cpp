// Jobs from a batch system: the FIFO queue for cores, submission patterns and traces, and whole
// simulations against closed forms (D/D/S with all jobs at once; M/D/S waiting times).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "models/io/json_reader.hpp"
#include "models/jobs/batch_queue.hpp"
#include "models/jobs/job_submission.hpp"
#include "models/jobs/job_trace.hpp"
#include "tests/support/records_json.hpp"
#include "tests/support/support.hpp"

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
    for (int n = 0; n < states; ++n) change = std::max(change, std::abs(next[n] / total - p[n])), p[n] = next[n] / total;
    if (change < 1e-15) break;
  }
  double queued = 0;
  for (int n = c; n < states; ++n) queued += (n - c) * p[n];
  return queued / lambda;
}

}  // namespace

TEST_CASE("the batch queue hands out free cores in order, then serves waiting jobs first come, first served") {
  BatchQueue queue({10, 11});
  CHECK(queue.submit(0) == 10);
  CHECK(queue.submit(1) == 11);
  CHECK(queue.submit(2) == std::nullopt);
  CHECK(queue.submit(3) == std::nullopt);
  CHECK(queue.waiting() == 2);
  CHECK(queue.release(11) == 2);  // the longest-waiting job takes the freed core
  CHECK(queue.release(10) == 3);
  CHECK(queue.release(11) == std::nullopt);
  CHECK(queue.release(10) == std::nullopt);
  CHECK(queue.free_slots() == 2);
  CHECK(queue.submit(4) == 11);  // a freed core joins the back of the line
}

TEST_CASE("submit patterns give the start patterns' times; Poisson gaps have the stated mean") {
  Workload w;
  w.jobs = 5;
  w.events_per_job = 3;
  w.submit = StartWaves{2, 60};
  std::vector<double> times;
  for (const PlannedJob& job : plan_jobs(w, 1)) {
    times.push_back(job.submit_s);
    CHECK(job.events == 3);
  }
  CHECK(times == std::vector<double>{0, 0, 60, 60, 120});

  w.jobs = 200000;
  w.submit = SubmitPoisson{20};
  const std::vector<PlannedJob> jobs = plan_jobs(w, 1);
  CHECK(std::is_sorted(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) { return a.submit_s < b.submit_s; }));
  // The mean of n exponential gaps has relative standard deviation 1/sqrt(n) = 0.22%: 1% is 4.5 sigma.
  CHECK(jobs.back().submit_s / w.jobs == doctest::Approx(20).epsilon(0.01));
  CHECK(plan_jobs(w, 1).back().submit_s == jobs.back().submit_s);
  CHECK(plan_jobs(w, 2).back().submit_s != jobs.back().submit_s);
}

TEST_CASE("events per job drawn uniformly from a range or among measured counts") {
  Workload w;
  w.jobs = 60000;
  w.events_per_job = UniformCount{2, 4};
  std::vector<int> seen(5, 0);
  for (const PlannedJob& job : plan_jobs(w, 3)) ++seen.at(static_cast<std::size_t>(*job.events));
  CHECK(seen[0] + seen[1] == 0);
  for (int k = 2; k <= 4; ++k) CHECK(seen[k] == doctest::Approx(20000).epsilon(0.03));  // sd 0.6%
  w.events_per_job = EmpiricalCount{{7, 7, 100}};
  double total = 0;
  for (const PlannedJob& job : plan_jobs(w, 3)) total += *job.events;
  CHECK(total / w.jobs == doctest::Approx(38).epsilon(0.02));  // mean 38, sd of the mean 0.2 (0.5%)
  CHECK(mean_events(UniformCount{2, 4}) == 3);
  CHECK(most_events(EmpiricalCount{{7, 7, 100}}) == 100);
}

TEST_CASE("job traces: CSV with optional events, condor_history's QDate, sorted by submit time") {
  auto jobs = parse_job_trace("submit_s,events\n5,2\n0,\n2.5,7\n", "t.csv");
  REQUIRE(jobs.size() == 3);
  CHECK(jobs[0].submit_s == 0);
  CHECK(!jobs[0].events);
  CHECK(jobs[1].submit_s == 2.5);
  CHECK(jobs[1].events == 7);
  CHECK(jobs[2].events == 2);
  jobs = parse_job_trace(R"([{"ClusterId": 1, "QDate": 1700000100}, {"ClusterId": 2, "QDate": 1700000000}])", "h.json");
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].submit_s == 0);
  CHECK(jobs[1].submit_s == 100);

  const auto error = [](const std::string& text, const std::string& path) {
    return test::input_error_of([&] { parse_job_trace(text, path); });
  };
  CHECK(error("submit,events\n1,1\n", "t.csv") == "t.csv: line 1: expected a \"submit_s\" column (seconds from the start of the run)");
  CHECK(error("submit_s\n-1\n", "t.csv") == "t.csv: line 2, column \"submit_s\": expected a submit time from 0 to 1e8 seconds, got -1");
  CHECK(error("submit_s\nsoon\n", "t.csv") == "t.csv: line 2, column \"submit_s\": expected a number, got \"soon\"");
  CHECK(error("submit_s,events\n1,0\n", "t.csv") ==
        "t.csv: line 2, column \"events\": expected from 1 to 20000000 events, got 0");
  CHECK(error("submit_s\n", "t.csv") == "t.csv: rows: expected at least one job");
  CHECK(error(R"([{"ClusterId": 1}])", "h.json") == "h.json: /0: expected a \"QDate\" (the Unix time the job was submitted)");
}

TEST_CASE("the sample trace and the condor_history file that validate reads are traces") {
  const std::string logs = std::string(SONICSIM_TEST_DATA_DIR) + "/logs/";
  const auto csv = read_job_trace(logs + "job_trace.csv");
  REQUIRE(csv.size() == 6);
  CHECK(csv[1].submit_s == 0);
  CHECK(!csv[1].events);
  CHECK(csv[3].submit_s == 600.5);
  CHECK(csv[3].events == 180);
  const auto condor = read_job_trace(logs + "condor_history.json");
  REQUIRE(condor.size() == 3);  // every job queued, the removed one too
  CHECK(condor[0].submit_s == 0);
  CHECK(condor[2].submit_s == 5);
}

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
