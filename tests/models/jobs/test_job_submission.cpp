// Jobs from a batch system: the FIFO queue for cores, submission patterns, events per job, traces.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "models/io/input_error.hpp"
#include "models/jobs/batch_queue.hpp"
#include "models/jobs/job_submission.hpp"
#include "models/jobs/job_trace.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using nlohmann::json;

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
  CHECK(error("submit,events\n1,1\n", "t.csv") ==
        "t.csv: line 1: expected a \"submit_s\" column (seconds from the start of the run)");
  CHECK(error("submit_s\n-1\n", "t.csv") ==
        "t.csv: line 2, column \"submit_s\": expected a submit time from 0 to 1e8 seconds, got -1");
  CHECK(error("submit_s\nsoon\n", "t.csv") == "t.csv: line 2, column \"submit_s\": expected a number, got \"soon\"");
  CHECK(error("submit_s,events\n1,0\n", "t.csv") ==
        "t.csv: line 2, column \"events\": expected from 1 to 20000000 events, got 0");
  CHECK(error("submit_s\n", "t.csv") == "t.csv: rows: expected at least one job");
  CHECK(error(R"([{"ClusterId": 1}])", "h.json") ==
        "h.json: /0: expected a \"QDate\" (the Unix time the job was submitted)");
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
