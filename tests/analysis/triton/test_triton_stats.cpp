// Triton's statistics attribution (docs/reference/triton.md §1, §10): every request of a batch is charged
// the whole batch's compute time, Prometheus truncates each request's durations to whole µs, and
// inference_count counts max(1, request batch).
#include <doctest/doctest.h>

#include <string>

#include "analysis/records.hpp"
#include "analysis/summary/summary.hpp"
#include "analysis/summary/summary_json.hpp"
#include "analysis/triton/statistics_api.hpp"
#include "analysis/triton/triton_report.hpp"
#include "analysis/triton/triton_stats.hpp"

namespace sonicsim {
namespace {

// Entered Triton's scheduler at s (no frontend: arrival and enqueueing coincide).
RequestRecord arrived_at(double s, int items) {
  RequestRecord r;
  r.arrived_s = r.enqueued_s = s;
  r.items = items;
  return r;
}

// Two requests batched together on GPU 0: arrivals 1.0000004 s and 1.0020009 s, execution
// 1.003 s → 1.0105015 s (7.5015 ms).
TritonModelStats two_request_batch() {
  TritonModelStats m;
  m.instance_loaded(0);
  m.request_arrived();
  m.request_arrived();
  const RequestRecord a = arrived_at(1.0000004, 3), b = arrived_at(1.0020009, 0);
  m.execution_started(2);
  m.batch_executed(0, {&a, &b}, 4, {1.003, 1.003, 1.0105015, 1.0105015});
  return m;
}

}  // namespace

TEST_CASE("triton stats: compute charged per request, queue from each arrival, units max(1, batch)") {
  const TritonModelStats m = two_request_batch();
  CHECK(m.inference_count == 4);  // 3 + max(1, 0)
  CHECK(m.execution_count == 1);
  CHECK(m.success.count == 2);
  CHECK(m.compute_infer.count == 2);
  CHECK(m.compute_infer.ns == 2 * 7'501'500);  // the batch's 7.5015 ms, once per request
  CHECK(m.compute_input.ns == 0);
  CHECK(m.queue.ns == 2'999'600 + 999'100);  // 1.003 − 1.0000004 and 1.003 − 1.0020009
  CHECK(m.success.ns == 10'501'100 + 8'500'600);
  REQUIRE(m.batch_stats.count(4) == 1);
  CHECK(m.batch_stats.at(4).compute_infer.count == 1);  // batch_stats count executions, not requests
  CHECK(m.batch_stats.at(4).compute_infer.ns == 7'501'500);
  CHECK(m.pending == 0);
  CHECK(m.last_inference_s == doctest::Approx(1.0105015));
}

TEST_CASE("triton stats: Prometheus truncates every request's durations to whole microseconds") {
  const TritonModelStats m = two_request_batch();
  const TritonPromSeries& p = m.series.at(0);
  CHECK(p.request_success == 2);
  CHECK(p.inference_count == 4);
  CHECK(p.exec_count == 1);
  CHECK(p.queue_duration_us == 2999 + 999);           // not ⌊3998.7⌋ = 3998
  CHECK(p.compute_infer_duration_us == 7501 + 7501);  // not ⌊15003⌋ = 15003
  CHECK(p.request_duration_us == 10501 + 8500);
}

TEST_CASE("triton stats: a timed-out request is a failure on the model reporter and leaves the pending gauge") {
  TritonModelStats m;
  m.instance_loaded(0);
  m.request_arrived();
  m.request_arrived();
  const RequestRecord r = arrived_at(2.0, 1);
  m.request_failed(r, 2.25);
  CHECK(m.fail.count == 1);
  CHECK(m.fail.ns == 250'000'000);
  CHECK(m.failure_rejected == 1);
  CHECK(m.success.count == 0);
  CHECK(m.pending == 1);
  CHECK(m.series.at(0) == TritonPromSeries{});  // the instance series saw nothing
}

TEST_CASE("triton report: Prometheus text has Triton's names, gpu_uuid on GPU series only, all failure reasons") {
  SimulationResults r;
  r.header.server_names = {"gpu-0"};
  r.header.model_names = {"net"};
  TritonModelStats m = two_request_batch();
  m.instance_loaded(-1);  // a CPU instance
  const RequestRecord c = arrived_at(0.5, 1);
  m.request_arrived();
  m.execution_started(1);
  m.batch_executed(-1, {&c}, 1, {0.5, 0.5, 0.6, 0.6});
  r.triton = {m};
  Summary s;
  s.gpus = {{"gpu-0", 0, 0.25}};
  const std::string text = triton_prometheus_text(r, s, 0);

  const std::string gpu = "{model=\"net\",version=\"1\",gpu_uuid=\"" + simulated_gpu_uuid("gpu-0", 0) + "\"}";
  const std::string cpu = "{model=\"net\",version=\"1\"}";
  CHECK(text.find("# TYPE nv_inference_request_success counter\n") != std::string::npos);
  CHECK(text.find("nv_inference_request_success" + gpu + " 2\n") != std::string::npos);
  CHECK(text.find("nv_inference_request_success" + cpu + " 1\n") != std::string::npos);
  CHECK(text.find("nv_inference_count" + gpu + " 4\n") != std::string::npos);
  CHECK(text.find("nv_inference_exec_count" + cpu + " 1\n") != std::string::npos);
  CHECK(text.find("nv_inference_compute_infer_duration_us" + gpu + " 15002\n") != std::string::npos);
  CHECK(text.find("nv_inference_compute_infer_duration_us" + cpu + " 100000\n") != std::string::npos);
  for (const char* reason : {"REJECTED", "CANCELED", "BACKEND", "OTHER"})
    CHECK(text.find(std::string("nv_inference_request_failure{model=\"net\",version=\"1\",reason=\"") + reason +
                    "\"} 0\n") != std::string::npos);
  CHECK(text.find("nv_inference_pending_request_count" + cpu + " 0\n") != std::string::npos);
  // perf_analyzer's regex: exactly one gpu_uuid label and a plain decimal.
  CHECK(text.find("nv_gpu_utilization{gpu_uuid=\"" + simulated_gpu_uuid("gpu-0", 0) + "\"} 0.250000\n") !=
        std::string::npos);
}

TEST_CASE("triton report: statistics-API JSON per server and model") {
  SimulationResults r;
  r.header.server_names = {"gpu-0", "gpu-1"};
  r.header.model_names = {"net"};
  r.triton = {two_request_batch()};
  Summary s;
  s.triton = triton_statistics(r);
  REQUIRE(s.triton.size() == 2);
  CHECK(s.triton[0].models.size() == 1);
  CHECK(s.triton[0].models[0].last_inference_ms == 1010);  // ⌊1.0105015 s⌋ in ms
  const nlohmann::json j = summary_to_json(s).at("triton");
  REQUIRE(j.at("servers").size() == 2);
  const auto& entry = j.at("servers").at(0).at("model_stats").at(0);
  CHECK(entry.at("name") == "net");
  CHECK(entry.at("inference_count") == 4);
  CHECK(entry.at("inference_stats").at("compute_infer").at("ns") == 2 * 7'501'500);
  CHECK(entry.at("batch_stats").at(0).at("batch_size") == 4);
  CHECK(entry.at("inference_stats").at("cache_hit").at("count") == 0);
  CHECK(j.at("servers").at(1).at("model_stats").empty());
}

}  // namespace sonicsim
