// The per-job throughput log (one events/s value per line, as the CMS Mini-AOD SONIC tests wrote
// it), the simulated jobs' throughput from their records, and the rows that compare the two.
#include <doctest/doctest.h>

#include <algorithm>

#include "analysis/validation/job_throughput.hpp"
#include "tests/support/validation_rows.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using namespace sonicsim::validation;

namespace {

std::string throughput_error_of(const std::string& text) {
  return test::input_error_of([&] { parse_job_throughput_log(text, "rates.txt"); });
}

}  // namespace

TEST_CASE("a per-job throughput log: one value per line, blank lines and # comments skipped") {
  // As in slurm_splitServer_JustAK4_noRagged_Nov9/Synchro_100_1gpu_PT.txt (its first two values),
  // with a provenance header, a blank line, CRLF line ends and surrounding spaces.
  const std::string text = "# source: x\n4.456871557653153\r\n\n  4.654706520753866 \n+3.5\n1e0\n";
  CHECK(is_job_throughput_log(text));
  const auto values = parse_job_throughput_log(text, "rates.txt");
  REQUIRE(values.size() == 4);
  CHECK(values[0] == 4.456871557653153);
  CHECK(values[1] == 4.654706520753866);
  CHECK(values[2] == 3.5);
  CHECK(values[3] == 1.0);
}

TEST_CASE("the first value line decides whether a text is a per-job throughput log") {
  CHECK(is_job_throughput_log("\n\n# a header\n3.9\n"));
  CHECK(is_job_throughput_log("nan\n"));    // a number to from_chars: read as such a log, then refused
  CHECK(is_job_throughput_log("1e400\n"));  // out of range, still a number
  CHECK(is_job_throughput_log("-4\n"));
  CHECK_FALSE(is_job_throughput_log("job,event,start_s,end_s\n0,0,1,2\n"));
  CHECK_FALSE(is_job_throughput_log("4.5,3.2\n"));  // two cells: no
  CHECK_FALSE(is_job_throughput_log("4.5 evt/s\n"));
  CHECK_FALSE(is_job_throughput_log("# only a comment\n\n"));
  CHECK_FALSE(is_job_throughput_log(""));
}

TEST_CASE("bad values in a per-job throughput log name their line") {
  CHECK(throughput_error_of("4.1\n\n-3.9\n") ==
        "rates.txt: line 3: expected a positive number of events per second (a job "
        "that completed no event has no throughput), got \"-3.9\"");
  CHECK(throughput_error_of("4.1\n0\n").find("rates.txt: line 2: expected a positive number") == 0);
  CHECK(throughput_error_of("4.1\nnan\n") ==
        "rates.txt: line 2: expected a finite number of events per second, got \"nan\"");
  CHECK(throughput_error_of("4.1\ninf\n") ==
        "rates.txt: line 2: expected at most 1e+09 events per second, got \"inf\"");
  CHECK(throughput_error_of("1e400\n") == "rates.txt: line 1: expected at most 1e+09 events per second, got \"1e400\"");
  CHECK(throughput_error_of("4.1\n2e9\n").find("rates.txt: line 2: expected at most 1e+09") == 0);
  CHECK(throughput_error_of("4.1\nfour\n").find("rates.txt: line 2: expected one number per line") == 0);
  CHECK(throughput_error_of("4.1\n4.2 4.3\n").find("rates.txt: line 2: expected one number per line") == 0);
  CHECK(throughput_error_of("# nothing\n\n") == "rates.txt: rows: expected at least one job's events per second");
}

TEST_CASE("a job's throughput is its events over its wall time; only jobs done with events count") {
  std::vector<JobRecord> jobs(5);
  jobs[0] = {0, 0, 0, 25, -1, 100, JobOutcome::Done, 1};   // 100 events in 25 s: 4 events/s
  jobs[1] = {1, 0, 10, 30, -1, 50, JobOutcome::Done, 1};   // started at 10 s: 50 / 20 = 2.5
  jobs[2] = {2, 0, 0, 12, -1, 30, JobOutcome::Failed, 1};  // failed: no throughput in a log
  jobs[3] = {3, 0, 0, 0, -1, 0, JobOutcome::Running, 1};   // still running at the end
  jobs[4] = {4, 0, 5, 5, -1, 0, JobOutcome::Done, 1};      // no event: no throughput
  const auto rates = job_throughputs(jobs);
  REQUIRE(rates.size() == 2);
  CHECK(rates[0] == 4.0);
  CHECK(rates[1] == 2.5);
}

TEST_CASE("comparing per-job throughputs: mean, p10, p50, p90, KS and Wasserstein-1") {
  // Measured 1..10 events/s; simulated the same values 5% higher.
  std::vector<double> measured, simulated;
  for (int i = 1; i <= 10; ++i) measured.push_back(i), simulated.push_back(1.05 * i);
  const auto rows = compare_job_throughputs(measured, simulated, Tolerances{});
  REQUIRE(rows.size() == 6);
  CHECK(rows[0].id == "job_throughput_mean");
  CHECK(rows[0].label == "job throughput mean (events/s)");
  CHECK(test::row_with_id(rows, "job_throughput_mean").measured == doctest::Approx(5.5));
  // Type-7 quantiles of 1..10: p10 = 1 + 0.9 = 1.9, p50 = 5.5, p90 = 9.1.
  CHECK(test::row_with_id(rows, "job_throughput_p10").measured == doctest::Approx(1.9));
  CHECK(test::row_with_id(rows, "job_throughput_p50").measured == doctest::Approx(5.5));
  CHECK(test::row_with_id(rows, "job_throughput_p90").measured == doctest::Approx(9.1));
  CHECK(test::row_with_id(rows, "job_throughput_p90").simulated == doctest::Approx(1.05 * 9.1));
  CHECK(test::row_with_id(rows, "job_throughput_p90").error == doctest::Approx(0.05));
  CHECK(test::row_with_id(rows, "job_throughput_p90").pass);  // 5% against the default 10%
  // On [k, 1.05 k) the measured CDF is k/10 and the simulated (k - 1)/10, and elsewhere they agree:
  // sup |F - G| = 0.1.
  CHECK(test::row_with_id(rows, "job_throughput_ks").error == doctest::Approx(0.1));
  // Wasserstein-1 of a sample against itself scaled by 1.05: the mean of 0.05 i = 0.275, over 5.5.
  CHECK(test::row_with_id(rows, "job_throughput_wasserstein").simulated == doctest::Approx(0.275));
  CHECK(test::row_with_id(rows, "job_throughput_wasserstein").error == doctest::Approx(0.05));
  Tolerances tight;
  tight.by_metric["job_throughput_p50"] = 0.04;
  CHECK_FALSE(test::row_with_id(compare_job_throughputs(measured, simulated, tight), "job_throughput_p50").pass);
}

TEST_CASE("the committed CMS per-job logs read as per-job throughput logs, header and all") {
  // 180 ParticleNet AK4 jobs on one T4 (yongbinfeng/SONIC_miniAOD_paper_2022@d1f5d28). Mean and
  // median as Python's statistics module gives them (/tmp/research-30-data/sonic_jobs_summary.csv
  // of the issue-30 survey, to 4 decimals): 3.7731 and 3.7664 events/s; 92.2% of the jobs below the
  // CPU-only 3.88 events/s.
  const std::string dir = std::string(SONICSIM_SCENARIOS_DIR) + "/validation/data/cms-miniaod/jobs/";
  const auto values = read_job_throughput_log(dir + "JustAK4_noRagged_Nov9/Synchro_180_1gpu_PT.txt");
  REQUIRE(values.size() == 180);
  const auto rows = compare_job_throughputs(values, values, Tolerances{});
  CHECK(test::row_with_id(rows, "job_throughput_mean").measured == doctest::Approx(3.7731).epsilon(2e-5));
  CHECK(test::row_with_id(rows, "job_throughput_p50").measured == doctest::Approx(3.7664).epsilon(2e-5));
  CHECK(std::count_if(values.begin(), values.end(), [](double v) { return v < 3.88; }) == 166);  // 0.922 x 180
  // The AK8 scan at N = 180: 179 values and one blank line in the source, which the reader skips.
  CHECK(read_job_throughput_log(dir + "JustAK8_noRagged_Nov9/Synchro_180_1gpu_PT.txt").size() == 179);
}
