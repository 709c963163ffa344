// The scenario's "perf_analyzer" section: exactly one of it and "workload", and its own errors
// name their JSON path.
#include <doctest/doctest.h>

#include "models/io/input_error.hpp"
#include "tests/support/input_failure.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using nlohmann::json;

TEST_CASE("perf scenario: exactly one of workload and perf_analyzer; the load's own errors name the path") {
  json both = test::perf_scenario({{"model", "m"}, {"concurrency", {1}}});
  both["workload"] = test::base_scenario()["workload"];
  CHECK_THROWS_WITH_AS(test::parse(both), doctest::Contains("exactly one of \"workload\""), InputError);
  CHECK_THROWS_WITH_AS(test::parse(test::perf_scenario({{"model", "nope"}, {"concurrency", {1}}})),
                       doctest::Contains("/perf_analyzer/model"), InputError);
  CHECK_THROWS_WITH_AS(test::parse(test::perf_scenario({{"model", "m"}, {"concurrency", {1}}, {"request_rate", {5}}})),
                       doctest::Contains("exactly one of \"concurrency\" and \"request_rate\""), InputError);
  CHECK_THROWS_WITH_AS(test::parse(test::perf_scenario({{"model", "m"}, {"concurrency", {0}}})),
                       doctest::Contains("/perf_analyzer/concurrency/0"), InputError);
  CHECK_THROWS_WITH_AS(
      test::parse(test::perf_scenario({{"model", "m"}, {"concurrency", {1}}, {"request_distribution", "poisson"}})),
      doctest::Contains("request_rate loads only"), InputError);
}

TEST_CASE("perf scenario: warm-up and windows within the longest run (1e8 s), the error at the key that sets them") {
  // 10 windows of 1e7 s: exactly the longest run; a second of warm-up more is past it.
  const json exactly =
      test::perf_scenario({{"model", "m"}, {"concurrency", {1}}, {"windows", 10}, {"measurement_interval", "1e7s"}});
  CHECK(test::parse(exactly).perf_analyzer->end_s() == 1e8);
  json past = exactly;
  past["perf_analyzer"]["warmup"] = "1s";
  CHECK(test::failure_of([&] { test::parse(past); }).where == "/perf_analyzer/windows");
  const json many = test::perf_scenario(
      {{"model", "m"}, {"concurrency", {1}}, {"windows", 2'000'000'000}, {"measurement_interval", "1s"}});
  CHECK(test::failure_of([&] { test::parse(many); }).where == "/perf_analyzer/windows");
  // The default 3 windows of 5e7 s: the interval is the key the scenario sets.
  const json long_interval =
      test::perf_scenario({{"model", "m"}, {"concurrency", {1}}, {"measurement_interval", "5e7s"}});
  CHECK(test::failure_of([&] { test::parse(long_interval); }).where == "/perf_analyzer/measurement_interval");
}

TEST_CASE("perf scenario: client_threads is a count of at least 1 for concurrency loads; client_gap a duration") {
  const json threads = test::perf_scenario({{"model", "m"}, {"concurrency", {8}}, {"client_threads", 2}});
  CHECK(test::parse(threads).perf_analyzer->client_threads == 2);
  CHECK(test::parse(test::perf_scenario({{"model", "m"}, {"concurrency", {8}}})).perf_analyzer->client_threads == 0);
  CHECK_THROWS_WITH_AS(test::parse(test::perf_scenario({{"model", "m"}, {"concurrency", {8}}, {"client_threads", 0}})),
                       doctest::Contains("/perf_analyzer/client_threads"), InputError);
  CHECK_THROWS_WITH_AS(
      test::parse(test::perf_scenario({{"model", "m"}, {"request_rate", {10}}, {"client_threads", 4}})),
      doctest::Contains("concurrency loads only"), InputError);
  const json gap = test::perf_scenario({{"model", "m"}, {"concurrency", {8}}, {"client_gap", "2ms"}});
  CHECK(test::parse(gap).perf_analyzer->client_gap_s == 2e-3);
  CHECK_THROWS_WITH_AS(test::parse(test::perf_scenario({{"model", "m"}, {"concurrency", {8}}, {"client_gap", "-1ms"}})),
                       doctest::Contains("/perf_analyzer/client_gap"), InputError);
}

TEST_CASE("perf scenario: count windows take a request count from 1 to 1e7, and only with count_windows") {
  const json load = {{"model", "m"}, {"concurrency", {8}}, {"measurement_mode", "count_windows"}};
  const PerfAnalyzerLoad defaults = *test::parse(test::perf_scenario(load)).perf_analyzer;
  CHECK(defaults.measurement_mode == MeasurementMode::CountWindows);
  CHECK(defaults.measurement_request_count == 50);  // perf_analyzer's --measurement-request-count default
  json counted = load;
  counted["measurement_request_count"] = 500;
  CHECK(test::parse(test::perf_scenario(counted)).perf_analyzer->measurement_request_count == 500);
  counted["measurement_request_count"] = 10'000'001;
  CHECK_THROWS_WITH_AS(test::parse(test::perf_scenario(counted)),
                       doctest::Contains("/perf_analyzer/measurement_request_count: expected at most 10000000"),
                       InputError);
  // A level keeps every window's latencies: 3 windows of 10^7 are 3 x 10^7, over limits::kMaxRecordedRequests.
  counted["measurement_request_count"] = 10'000'000;
  CHECK_THROWS_WITH_AS(test::parse(test::perf_scenario(counted)),
                       doctest::Contains("/perf_analyzer/measurement_request_count: a level keeps the latencies of "
                                         "its 3 windows of at least 10000000 requests each, 30000000 in all"),
                       InputError);
  counted["windows"] = 2;
  CHECK(test::parse(test::perf_scenario(counted)).perf_analyzer->measurement_request_count == 10'000'000);
  json many_windows = load;
  many_windows["windows"] = 400'001;  // with the default count of 50: 20,000,050
  CHECK_THROWS_WITH_AS(test::parse(test::perf_scenario(many_windows)),
                       doctest::Contains("/perf_analyzer/windows: a level keeps the latencies of its 400001 windows"),
                       InputError);
  json untimed = {{"model", "m"}, {"concurrency", {8}}, {"measurement_request_count", 500}};
  CHECK_THROWS_WITH_AS(test::parse(test::perf_scenario(untimed)), doctest::Contains("count_windows\" only"),
                       InputError);
  json unknown = load;
  unknown["measurement_mode"] = "windows";
  CHECK_THROWS_WITH_AS(test::parse(test::perf_scenario(unknown)), doctest::Contains("/perf_analyzer/measurement_mode"),
                       InputError);
}
