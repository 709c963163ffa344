// Site log readers on realistic sample files (tests/data/logs), including malformed ones.
#include <doctest/doctest.h>

#include <functional>

#include "analysis/validation/comparison.hpp"
#include "analysis/validation/perf_profile.hpp"
#include "analysis/validation/site_logs.hpp"
#include "models/io/input_error.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using namespace sonicsim::validation;

namespace {

std::string logs(const std::string& name) { return std::string(SONICSIM_TEST_DATA_DIR) + "/logs/" + name; }

}  // namespace

TEST_CASE("an event log with ISO 8601 times and UTC offsets") {
  const auto events = read_event_log(logs("events_iso.csv"));
  REQUIRE(events.size() == 3);
  CHECK(events[0].job == "grid-0001");
  CHECK(events[0].time_s() == doctest::Approx(122.5));
  CHECK(events[1].start_s == events[0].end_s);
  CHECK(events[2].cpu_type == "Intel Xeon Gold 6130");
  CHECK(events[2].time_s() == doctest::Approx(122));
  // 14:00:10+02:00 is 12:00:10Z, ten seconds after the first event began.
  CHECK(events[2].start_s - events[0].start_s == doctest::Approx(10));
  // Three events between 12:00:00 and 12:04:05.
  CHECK(events_per_s(events) == doctest::Approx(3.0 / 245));
}

TEST_CASE("malformed event logs name the line and the column") {
  CHECK(test::input_error_of([] {
          read_event_log(logs("events_bad_time.csv"));
        }).find("events_bad_time.csv: line 3, column \"start\": expected an ISO 8601 time") != std::string::npos);
  CHECK(test::input_error_of([] { read_event_log(logs("condor_history.json")); }).find("condor_history.json") !=
        std::string::npos);
}

TEST_CASE(
    "event times within 1e11 s either side of 0, events within the longest run (1e8 s): beyond, differences overflow") {
  const std::string header = "job,event,start_s,end_s\n";
  // 1e11 is a Unix time in the year 5138; an event from -1e11 to -1e11 + 1e8 s is one of the longest.
  const auto edge = parse_event_log(header + "1,0,99999999999,1e11\n2,0,-1e11,-99900000000\n", "edge.csv");
  CHECK(edge[0].time_s() == 1);
  CHECK(edge[1].time_s() == 1e8);
  const auto error = [&](const std::string& row) {
    return test::input_error_of([&] { parse_event_log(header + row, "t.csv"); });
  };
  CHECK(error("1,0,0,1.7e308\n").find("t.csv: line 2, column \"end_s\": expected a time of at most 1e+11 s") !=
        std::string::npos);
  CHECK(error("1,0,-1e308,1\n").find("t.csv: line 2, column \"start_s\": expected a time of at least -1e+11 s") !=
        std::string::npos);
  CHECK(error("1,0,0,100000000.5\n").find("t.csv: line 2, column \"end_s\": expected an event of at most 1e+08 s") !=
        std::string::npos);
  // ISO 8601 times reach the year 9999, past the bound.
  CHECK(test::input_error_of([] {
          parse_event_log("job,event,start,end\n1,0,2022-05-01T12:00:00Z,9999-12-31T23:59:59Z\n", "iso.csv");
        }).find("iso.csv: line 2, column \"end\": expected a time of at most 1e+11 s") != std::string::npos);
}

TEST_CASE("condor_history: dates within 1e11 s and wall times within the longest run (1e8 s)") {
  const auto error = [](const std::string& ad) {
    return test::input_error_of([&] { parse_condor_history("[" + ad + "]", "c.json"); });
  };
  CHECK(error(R"({"ClusterId": 1, "CompletionDate": 1.7e308, "RemoteWallClockTime": 1})")
            .find("c.json: /0/CompletionDate: ") != std::string::npos);
  CHECK(error(R"({"ClusterId": 1, "CompletionDate": 20, "RemoteWallClockTime": 1.7e308})")
            .find("c.json: /0/RemoteWallClockTime: ") != std::string::npos);
  CHECK(error(R"({"ClusterId": 1, "CompletionDate": 2e8, "JobCurrentStartDate": 1})")
            .find("c.json: /0: expected a wall-clock time from 0 to 1e+08 s") != std::string::npos);
  CHECK(parse_condor_history(R"([{"ClusterId": 1, "CompletionDate": 1e11, "RemoteWallClockTime": 1e8}])", "c.json")[0]
            .wall_s == 1e8);
}

TEST_CASE("condor_history -json: wall time, CPU time, skipping unfinished jobs") {
  const auto jobs = read_condor_history(logs("condor_history.json"));
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].id == "4242.0");
  CHECK(jobs[0].wall_s == 1230);
  CHECK(jobs[0].cpu_s == 1162);
  CHECK(jobs[0].machine == "slot1_3@wn-042.example.org");
  // No RemoteWallClockTime: CompletionDate - JobCurrentStartDate.
  CHECK(jobs[1].wall_s == 1651407680 - 1651406420);
  CHECK(test::input_error_of([] {
          read_condor_history(logs("condor_history_bad.json"));
        }).find("condor_history_bad.json: /0/RemoteWallClockTime: expected a number") != std::string::npos);
}

TEST_CASE("Triton Prometheus scrapes: deltas of the cumulative counters give rates and per-request means") {
  const auto a = read_prometheus_scrape(logs("triton_metrics_0.txt"), 100.0);
  const auto b = read_prometheus_scrape(logs("triton_metrics_1.txt"), 160.0);
  CHECK(a.success == 1000);
  CHECK(*a.gpu_utilization == doctest::Approx(0.6));
  const TritonWindow w = triton_window({b, a});  // any order
  CHECK(w.seconds == 60);
  CHECK(w.requests_per_s == doctest::Approx(600.0 / 60));
  CHECK(w.inferences_per_s == doctest::Approx(1015800.0 / 60));
  CHECK(w.mean_batch == doctest::Approx(1015800.0 / 300));
  CHECK(w.queue_per_request_s == doctest::Approx(1.8 / 600));
  CHECK(*w.gpu_utilization == doctest::Approx((0.6 + 0.85) / 2));
}

TEST_CASE("Prometheus samples with timestamps need no scrape time; without, they do") {
  const auto a = read_prometheus_scrape(logs("triton_metrics_stamped_0.txt"), std::nullopt);
  const auto b = read_prometheus_scrape(logs("triton_metrics_stamped_1.txt"), std::nullopt);
  CHECK(triton_window({a, b}).requests_per_s == doctest::Approx(2.0));
  CHECK(test::input_error_of([] {
          read_prometheus_scrape(logs("triton_metrics_0.txt"), std::nullopt);
        }).find("@SECONDS") != std::string::npos);
  CHECK(test::input_error_of([] {
          read_prometheus_scrape(logs("triton_metrics_bad.txt"), 1.0);
        }).find("triton_metrics_bad.txt: line 1: expected a finite, non-negative sample value") != std::string::npos);
  CHECK_THROWS_AS(triton_window({a}), InputError);
}

TEST_CASE("comparison rows: relative errors, KS and Wasserstein, tolerances by metric") {
  Tolerances t;
  t.by_metric["event_time_p99"] = 0.5;
  const auto rows = compare_times("event_time", "event time", {10, 20, 30, 40}, {11, 22, 33, 44}, t);
  REQUIRE(rows.size() == 6);
  CHECK(rows[0].id == "event_time_mean");
  CHECK(rows[0].error == doctest::Approx(0.1));  // 27.5 vs 25
  CHECK(rows[3].tolerance == 0.5);
  CHECK(rows[4].id == "event_time_ks");
  CHECK(rows[4].error == doctest::Approx(0.25));      // F differs by 1/4 between 10-11, 20-22, ...
  CHECK(rows[5].error == doctest::Approx(2.5 / 25));  // W1 = mean shift 2.5 s, over the 25 s mean
  CHECK(rows[5].pass);                                // 0.1 <= 0.1
  CHECK_FALSE(compare_value("x", "x", 100, 121, t).pass);
}

TEST_CASE("perf_analyzer's JSON profile: latencies of the requests answered inside the windows") {
  const auto experiments = validation::read_perf_profile(logs("perf_profile.json"));
  REQUIRE(experiments.size() == 2);
  CHECK(experiments[0].mode == "concurrency");
  CHECK(experiments[0].value == 1);
  // The first response (at +2 ms) is inside the windows (+1 ms ... +7 ms), as are the next two; the
  // fourth request was never answered.
  REQUIRE(experiments[0].latencies_s.size() == 3);
  CHECK(experiments[0].latencies_s[0] == doctest::Approx(2e-3));
  CHECK(experiments[0].latencies_s[2] == doctest::Approx(2.2e-3));
  CHECK(experiments[1].latencies_s == std::vector<double>{3e-3, 4e-3});
}

TEST_CASE("a malformed profile export names the JSON pointer") {
  CHECK(test::input_error_of([] {
          validation::read_perf_profile(logs("perf_profile_bad.json"));
        }).find("perf_profile_bad.json: /experiments/0/requests/0/response_timestamps/0: expected a response after") !=
        std::string::npos);
}
