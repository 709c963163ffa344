// Prometheus range-query exports (GET /api/v1/query_range's JSON) read into timeseries.csv's
// columns, and compared over time with simulated rows. Files are written here by hand.
#include <doctest/doctest.h>

#include <cmath>

#include "analysis/validation/metric_ids.hpp"
#include "analysis/validation/prometheus_export.hpp"
#include "analysis/validation/timeseries_comparison.hpp"
#include "tests/support/validation_rows.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using namespace sonicsim::validation;

namespace {

std::string matrix(const std::string& result) {
  return R"({"status":"success","data":{"resultType":"matrix","result":[)" + result + "]}}";
}

MeasuredColumn column_of(const std::string& text, const std::string& column) {
  return measured_column(parse_prometheus_export(text, "export.json"), column);
}

std::string export_error_of(const std::string& text, const std::string& column = "ready") {
  return test::input_error_of([&] { column_of(text, column); });
}

}  // namespace

TEST_CASE("a range query's matrix: labels, [time, \"value\"] pairs; Grafana's inspector wraps the same") {
  const std::string text =
      matrix(R"({"metric":{"__name__":"kube_deployment_status_replicas_ready","deployment":"triton"},
      "values":[[1700000000,"1"],[1700000005,"2"],[1700000010.5,"3"]]})");
  CHECK(is_prometheus_export(text));
  const PromExport e = parse_prometheus_export(text, "export.json");
  REQUIRE(e.series.size() == 1);
  CHECK(e.series[0].name == "kube_deployment_status_replicas_ready");
  CHECK(column_of_metric_name(e.series[0].name) == "ready");
  CHECK(e.series[0].t_s == std::vector<double>{1700000000, 1700000005, 1700000010.5});
  CHECK(e.series[0].values == std::vector<double>{1, 2, 3});
  const PromExport grafana =
      parse_prometheus_export(R"({"request":{"url":"api/v1/query_range"},"response":)" + text + "}", "g.json");
  CHECK(grafana.series[0].values == e.series[0].values);
}

TEST_CASE("a counter's rate between samples; a decrease is a restart from 0, as Prometheus's rate() reads it") {
  // nv_inference_request_success of one server: +50 per 5 s, the server restarts after 10 s
  // (counter 100 -> 20: 20 new requests), then +50 again.
  const MeasuredColumn c = column_of(matrix(R"({"metric":{"__name__":"nv_inference_request_success","pod":"a"},
      "values":[[0,"0"],[5,"50"],[10,"100"],[15,"20"],[20,"70"]]})"),
                                     "requests_per_s");
  CHECK(c.counter_resets == 1);
  REQUIRE(c.values.size() == 5);
  CHECK_FALSE(c.values[0]);  // a rate needs two samples
  CHECK(*c.values[1] == 10.0);
  CHECK(*c.values[2] == 10.0);
  CHECK(*c.values[3] == 4.0);  // 20 requests since the restart over 5 s
  CHECK(*c.values[4] == 10.0);
}

TEST_CASE("NaN samples and gaps are left out; a stale series stops counting; series are summed or averaged") {
  // Two pods' counters: b is stale after 10 s (its pod is gone: no more samples); at 15 s neither
  // has a sample (a gap in the scrapes); a's "NaN" at 25 s breaks its rate until two finite samples.
  const std::string text = matrix(R"({"metric":{"__name__":"nv_inference_request_success","pod":"a"},
        "values":[[0,"0"],[5,"10"],[10,"20"],[20,"40"],[25,"NaN"],[30,"60"],[35,"70"]]},
      {"metric":{"__name__":"nv_inference_request_success","pod":"b"},"values":[[0,"0"],[5,"30"],[10,"60"]]})");
  const MeasuredColumn c = column_of(text, "requests_per_s");
  CHECK(c.nan_samples == 1);
  CHECK(c.t_s == std::vector<double>{0, 5, 10, 20, 25, 30, 35});
  CHECK(*c.values[1] == 2.0 + 6.0);
  CHECK(*c.values[2] == 2.0 + 6.0);
  CHECK(*c.values[3] == 20.0 / 10);  // a alone, over the 10 s since its last sample
  CHECK_FALSE(c.values[4]);          // NaN
  CHECK_FALSE(c.values[5]);          // first finite sample after the NaN
  CHECK(*c.values[6] == 2.0);
  // GPU utilisation is the mean over the scraped GPUs; ready replicas are summed.
  const std::string gpus =
      matrix(R"({"metric":{"gpu":"0"},"values":[[0,"0.2"],[5,"0.4"]]},{"metric":{"gpu":"1"},"values":[[0,"0.6"]]})");
  CHECK(*column_of(gpus, "gpu_utilization").values[0] == doctest::Approx(0.4));
  CHECK(*column_of(gpus, "gpu_utilization").values[1] == doctest::Approx(0.4));
  const std::string pods =
      matrix(R"({"metric":{"deployment":"a"},"values":[[0,"2"]]},{"metric":{"deployment":"b"},"values":[[0,"3"]]})");
  CHECK(*column_of(pods, "ready").values[0] == 5);
}

TEST_CASE(
    "every sample within its column's range, the error naming the sample; NaN and Inf are left out, not refused") {
  const auto sample = [](const std::string& value, const std::string& name = "") {
    return matrix(R"({"metric":{"__name__":")" + name + R"("},"values":[[0,"1"],[5,")" + value + R"("]]})");
  };
  CHECK(
      export_error_of(sample("1e308")) ==
      "export.json: /data/result/0/values/1/1: expected a whole number of ready replicas from 0 to 10000, got 1e+308");
  CHECK(export_error_of(sample("1.5")).find("/values/1/1: expected a whole number of ready replicas") !=
        std::string::npos);
  CHECK(export_error_of(sample("-1")).find("/values/1/1: expected a whole number of ready replicas") !=
        std::string::npos);
  CHECK(column_of(sample("10000"), "ready").values[1] == 10000);
  CHECK(export_error_of(sample("1.01"), "gpu_utilization") ==
        "export.json: /data/result/0/values/1/1: expected a GPU utilisation from 0 to 1 (a fraction), got 1.01");
  CHECK(column_of(sample("1"), "gpu_utilization").values[1] == 1);
  CHECK(export_error_of(sample("-0.5"), "queue_ms").find("expected a queue time per request from 0 to 1e+11 ms") !=
        std::string::npos);
  CHECK(export_error_of(sample("2e12"), "metric").find("expected a load metric from 0 to 1e+12") != std::string::npos);
  CHECK(export_error_of(sample("2e9"), "requests_per_s").find("expected a request rate from 0 to 1e+09 requests/s") !=
        std::string::npos);
  // A counter: at least 0, and its rate within the request rate's range (5e9 more in 5 s: 1e9/s is the edge).
  const std::string counter = "nv_inference_request_success";
  CHECK(
      export_error_of(sample("-1", counter), "requests_per_s").find("/values/1/1: expected a counter of at least 0") !=
      std::string::npos);
  CHECK(*column_of(sample("5000000001", counter), "requests_per_s").values[1] == 1e9);
  CHECK(export_error_of(sample("6000000001", counter), "requests_per_s") ==
        "export.json: /data/result/0/values/1/1: expected at most 1e+09 requests/s since the previous sample, got "
        "1.2e+09 "
        "(6e+09 more in 5 s)");
  // Grafana's wrapper: the pointer is the file's.
  CHECK(test::input_error_of([&] {
          measured_column(parse_prometheus_export(R"({"response":)" + sample("7.5") + "}", "g.json"), "ready");
        }).find("g.json: /response/data/result/0/values/1/1: ") != std::string::npos);
  const MeasuredColumn nan = column_of(sample("NaN"), "ready");
  CHECK(nan.nan_samples == 1);
  CHECK_FALSE(nan.values[1]);
}

TEST_CASE("bad exports: one line naming the file, the JSON path and what was expected") {
  CHECK(export_error_of(R"({"status":"error","errorType":"bad_data","error":"x"})") ==
        "export.json: /status: expected \"success\", got \"error\" (a failed query)");
  CHECK(export_error_of(R"({"status":"success","data":{"resultType":"vector","result":[]}})") ==
        "export.json: /data/resultType: expected \"matrix\" (a range query, /api/v1/query_range), got \"vector\"");
  CHECK(export_error_of(matrix("")) ==
        "export.json: /data/result: expected at least one series (the query matched nothing)");
  CHECK(export_error_of(matrix(R"({"metric":{},"values":[[0,1]]})")) ==
        "export.json: /data/result/0/values/0/1: expected a sample value as a string (e.g. \"1.5\" or \"NaN\")");
  CHECK(export_error_of(matrix(R"({"metric":{},"values":[[0,"one"]]})"))
            .find("/values/0/1: expected a number, \"NaN\"") != std::string::npos);
  CHECK(export_error_of(matrix(R"({"metric":{},"values":[[5,"1"],[5,"2"]]})"))
            .find("/values/1/0: expected timestamps in increasing order") != std::string::npos);
  CHECK(export_error_of(matrix(R"({"metric":{},"values":[[0,"1","2"]]})")).find("/values/0: expected [UNIX_TIME") !=
        std::string::npos);
  CHECK(export_error_of(matrix(R"({"metric":[],"values":[]})")).find("/data/result/0/metric: expected an object") !=
        std::string::npos);
  CHECK(export_error_of(matrix(R"({"metric":{},"values":[["soon","1"]]})")).find("/values/0/0: ") != std::string::npos);
  CHECK(export_error_of(matrix(R"({"metric":{},"values":[]},{"metric":{},"values":[]})"), "metric")
            .find("/data/result: expected one series for \"metric\", got 2") != std::string::npos);
  CHECK(export_error_of(matrix(R"({"metric":{"__name__":"nv_inference_queue_duration_us"},"values":[]})"), "queue_ms")
            .find("is a counter; export the query") != std::string::npos);
  CHECK(export_error_of("[1, 2]").find("expected a JSON object") != std::string::npos);
}

namespace {

std::vector<TimeseriesRow> simulated_ready(const std::vector<int>& ready, const std::vector<std::int64_t>& jobs) {
  std::vector<TimeseriesRow> rows;
  for (std::size_t k = 0; k < ready.size(); ++k) {
    TimeseriesRow r;
    r.t_s = 5.0 * static_cast<double>(k);
    r.ready = ready[k];
    r.jobs_running = jobs[k];
    rows.push_back(r);
  }
  return rows;
}

MeasuredColumn measured_ready(const std::vector<int>& ready, double start) {
  MeasuredColumn m;
  m.column = "ready";
  for (std::size_t k = 0; k < ready.size(); ++k) {
    m.t_s.push_back(start + 5.0 * static_cast<double>(k));
    m.values.emplace_back(ready[k]);
  }
  return m;
}

}  // namespace

TEST_CASE("ready replicas over time: time-weighted mean, mean absolute error, time at each count, lag after a step") {
  // Jobs step from 0 to 40 at the 5 s scrape; the simulated farm has its second replica at 20 s,
  // the measured one at 30 s (both hold every value 5 s).
  const std::vector<std::int64_t> jobs = {0, 40, 40, 40, 40, 40, 40, 40};
  const auto sim = simulated_ready({1, 1, 1, 1, 2, 2, 2, 2}, jobs);
  CHECK(load_steps(sim) == std::vector<double>{0});
  const auto rows = compare_timeseries({measured_ready({1, 1, 1, 1, 1, 1, 2, 2}, 1e9)}, sim, 1e9, {5}, Tolerances{});
  CHECK(test::row_with_id(rows, "prom_ready_mean").measured == doctest::Approx(10.0 / 8));
  CHECK(test::row_with_id(rows, "prom_ready_mean").simulated == doctest::Approx(12.0 / 8));
  CHECK(test::row_with_id(rows, "prom_ready_mae").simulated == doctest::Approx(2.0 / 8));
  CHECK(test::row_with_id(rows, "prom_ready_mae").error == doctest::Approx((2.0 / 8) / (10.0 / 8)));
  CHECK(test::row_with_id(rows, "prom_ready_time_at_1").error == doctest::Approx(4.0 / 8 - 6.0 / 8));
  CHECK(test::row_with_id(rows, "prom_ready_lag").measured == 25);  // 30 s - the 5 s step
  CHECK(test::row_with_id(rows, "prom_ready_lag").simulated == 15);
  CHECK_FALSE(test::row_with_id(rows, "prom_ready_lag").pass);
  // The same series against itself: every error 0.
  for (const auto& r :
       compare_timeseries({measured_ready({1, 1, 1, 1, 2, 2, 2, 2}, 1e9)}, sim, 1e9, {5}, Tolerances{})) {
    CHECK_MESSAGE(is_known_metric(r.id), r.id);
    CHECK(r.error == 0);
    CHECK(r.pass);
  }
}

TEST_CASE("samples outside the run are left out with a note, and none lends its distance to the last one inside") {
  // Scrapes every 5 s from 0 to 35 s: the run's span ends at 40 s. Measured: 2 replicas for 0-35 s
  // (8 samples, 40 s), 1 at 40 s (on the end: it stands for no time), one sample at 1e8 s and one
  // 10 s before the run's t = 0. The sample at 35 s stood for the 1e8 s to the next one.
  const auto sim = simulated_ready({1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1});
  MeasuredColumn m = measured_ready({2, 2, 2, 2, 2, 2, 2, 2, 1}, 1000);
  m.path = "ready.json";
  m.t_s.push_back(1000 + 1e8);
  m.values.emplace_back(1);
  m.t_s.insert(m.t_s.begin(), 990);
  m.values.insert(m.values.begin(), 1);
  std::vector<std::string> notes;
  const auto rows = compare_timeseries({m}, sim, 1000, {}, Tolerances{}, &notes);
  CHECK(test::row_with_id(rows, "prom_ready_mean").measured == 2);
  CHECK(test::row_with_id(rows, "prom_ready_time_at_2").measured == 1);
  CHECK_FALSE(test::row_with_id(rows, "prom_ready_mean").pass);
  CHECK(notes == std::vector<std::string>{
                     "ready.json: 1 sample before the simulated run's t = 0 left out (t = 0 is Unix time 1000.000)",
                     "ready.json: 1 sample after the simulated run's end (40 s) left out, the last at 1e+08 s"});
  // Inside the run, a sample still stands for the time to the next one: 1 at 10 s holds for 20 s.
  MeasuredColumn gap = measured_ready({1, 1, 2, 1}, 0);
  gap.t_s = {0, 10, 30, 35};
  const auto gap_rows = compare_timeseries({gap}, sim, 0, {}, Tolerances{});
  CHECK(test::row_with_id(gap_rows, "prom_ready_mean").measured ==
        doctest::Approx((1 * 10 + 1 * 20 + 2 * 5 + 1 * 5) / 40.0));
}
