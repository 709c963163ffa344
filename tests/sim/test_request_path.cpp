// The request path beside the kernel (scenarios/README.md, "The request path"): the frontend's cost
// per request, per tensor and per byte for the clients' protocol, and the instance's Compute Input /
// Compute Output staging, against closed forms computed here from the settings.
#include <doctest/doctest.h>

#include <cmath>
#include <map>

#include "analysis/outputs/perf_report.hpp"
#include "analysis/summary/summary.hpp"
#include "cli/processes/isolated_run.hpp"
#include "models/closed_form/analytic.hpp"
#include "sim/perf_simulation.hpp"
#include "tests/support/records_json.hpp"
#include "tests/support/simulation_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

using test::kBottleneck;
using test::kOneWayLatency;

using test::kTimeEpsilon;
using test::tau;

// base_scenario()'s model given by its tensors: 5 inputs of 100 FP32 (2000 B per item in all) and 2
// outputs of 50 FP32 (400 B per item).
constexpr int kInputTensors = 5, kOutputTensors = 2;
constexpr double kInputBytesPerItem = 5 * 100 * 4, kOutputBytesPerItem = 2 * 50 * 4;
json with_tensors(json d) {
  json& m = d["models"]["m"];
  m.erase("input_bytes_per_item");
  m.erase("output_bytes_per_item");
  m["input"] = json::array();
  for (int i = 0; i < kInputTensors; ++i)
    m["input"].push_back({{"name", "in" + std::to_string(i)}, {"data_type", "TYPE_FP32"}, {"dims", {100}}});
  m["output"] = json::array();
  for (int i = 0; i < kOutputTensors; ++i)
    m["output"].push_back({{"name", "out" + std::to_string(i)}, {"data_type", "TYPE_FP32"}, {"dims", {50}}});
  d["simulation"]["outputs"] = {"requests"};
  return d;
}

// Parse: 1 ms + 0.2 ms per input tensor + bytes at 0.8 Gbps (100 MB/s); serialise: 0.5 ms + 0.1 ms
// per output tensor + bytes at 0.4 Gbps (50 MB/s).
const json kCost = {{"per_request", "1ms"},    {"per_input_tensor", "0.2ms"},  {"input_bandwidth", "0.8Gbps"},
                    {"per_response", "0.5ms"}, {"per_output_tensor", "0.1ms"}, {"output_bandwidth", "0.4Gbps"}};
double parse_tensors_s(double bytes) { return 1e-3 + kInputTensors * 0.2e-3 + bytes / 100e6; }
double serialise_tensors_s(double bytes) { return 0.5e-3 + kOutputTensors * 0.1e-3 + bytes / 50e6; }

json with_tensor_frontend(json d, const json& frontend) {
  d["platform"]["servers"][0]["frontend"] = frontend;
  return d;
}

// Gather 10 us per request + bytes at 8 Gbps (1 GB/s); scatter 5 us per request + bytes at 16 Gbps
// (2 GB/s); copies to the device at 80 Gbps pinned (10 GB/s) or 24 Gbps pageable (3 GB/s), back at
// 40 Gbps pinned (5 GB/s) or 16 Gbps pageable (2 GB/s).
json staging(const std::string& memory) {
  return {{"per_request", "10us"},
          {"gather_bandwidth", "8Gbps"},
          {"per_response", "5us"},
          {"scatter_bandwidth", "16Gbps"},
          {"memory", memory},
          {"host_to_device", {{"pinned", "80Gbps"}, {"pageable", "24Gbps"}}},
          {"device_to_host", {{"pinned", "40Gbps"}, {"pageable", "16Gbps"}}}};
}
// A batch of `requests` requests carrying `in` and `out` bytes in all.
double compute_input_s(int requests, double in, bool pinned) {
  return requests * 10e-6 + (pinned ? in / 1e9 + in / 10e9 : in / 3e9);
}
double compute_output_s(int requests, double out, bool pinned) {
  return requests * 5e-6 + (pinned ? out / 2e9 + out / 5e9 : out / 2e9);
}

// One job sends its event's requests one after the other (base_scenario: 300, 300, 300, 100 items).
void check_each_request(const SimulationResults& r, double (*parse)(double), double (*serialise)(double)) {
  REQUIRE(r.requests.size() == 4);
  for (const RequestRecord& q : r.requests) {
    CHECK(q.enqueued_s - q.arrived_s == doctest::Approx(parse(q.input_bytes)).epsilon(kTimeEpsilon));
    CHECK(q.responded_s - q.exec_end_s == doctest::Approx(serialise(q.output_bytes)).epsilon(kTimeEpsilon));
  }
}

// Every date of the two runs' requests is the same, to the bit.
void check_same_dates(const SimulationResults& a, const SimulationResults& b) {
  REQUIRE(a.requests.size() == b.requests.size());
  for (std::size_t i = 0; i < a.requests.size(); ++i) {
    const RequestRecord &x = a.requests[i], &y = b.requests[i];
    CHECK(x.id == y.id);
    for (const auto date :
         {&RequestRecord::sent_s, &RequestRecord::arrived_s, &RequestRecord::enqueued_s, &RequestRecord::exec_start_s,
          &RequestRecord::exec_end_s, &RequestRecord::responded_s, &RequestRecord::received_s})
      CHECK(x.*date == y.*date);
  }
}

}  // namespace

TEST_CASE("an idle frontend parses a request of k tensors and b bytes in per_request + k per_tensor + b / bandwidth") {
  json frontend = kCost;
  frontend["threads"] = 2;
  const auto r =
      test::simulate_isolated(test::parse(with_tensor_frontend(with_tensors(test::base_scenario()), frontend)));
  check_each_request(r, parse_tensors_s, serialise_tensors_s);
  CHECK(r.requests.front().input_bytes == 300 * kInputBytesPerItem);
  CHECK(r.requests.front().output_bytes == 300 * kOutputBytesPerItem);
}

TEST_CASE("the clients' protocol picks its cost block; gRPC unless the workload names another") {
  json blocks = {{"threads", 2}, {"grpc", kCost}, {"http", {{"per_request", "3ms"}, {"per_input_tensor", "1ms"}}}};
  const json d = with_tensor_frontend(with_tensors(test::base_scenario()), blocks);
  check_each_request(test::simulate_isolated(test::parse(d)), parse_tensors_s, serialise_tensors_s);
  json http = d;
  http["workload"]["protocol"] = "http";
  check_each_request(
      test::simulate_isolated(test::parse(http)), [](double) { return 3e-3 + kInputTensors * 1e-3; },
      [](double) { return 0.0; });
}

TEST_CASE("flat keys cost what the same block of the clients' protocol does; zero new terms change nothing") {
  const json base = with_tensors(test::base_scenario());
  json flat = kCost;
  flat["threads"] = 2;
  const auto by_flat = test::simulate_isolated(test::parse(with_tensor_frontend(base, flat)));
  const auto by_block =
      test::simulate_isolated(test::parse(with_tensor_frontend(base, {{"threads", 2}, {"grpc", kCost}})));
  check_same_dates(by_flat, by_block);

  // The frontend of before (no per-tensor keys) and one whose new terms are zero, with an empty staging.
  json old_keys = {{"threads", 2}, {"per_request", "1ms"}, {"input_bandwidth", "0.8Gbps"}};
  json zero_new = old_keys;
  zero_new["per_input_tensor"] = "0s";
  zero_new["per_output_tensor"] = "0s";
  json staged = with_tensor_frontend(base, zero_new);
  staged["models"]["m"]["staging"] = json::object();
  const auto before = test::simulate_isolated(test::parse(with_tensor_frontend(base, old_keys)));
  const auto after = test::simulate_isolated(test::parse(staged));
  check_same_dates(before, after);
  CHECK(before.events.at(0).time_s() == after.events.at(0).time_s());
}

TEST_CASE("one request's execution is Compute Input + tau + Compute Output, pinned and pageable") {
  for (const bool pinned : {true, false}) {
    json d = with_tensors(test::base_scenario());
    d["models"]["m"]["staging"] = staging(pinned ? "pinned" : "pageable");
    const auto r = test::simulate_isolated(test::parse(d));
    REQUIRE(r.requests.size() == 4);
    for (const RequestRecord& q : r.requests) {
      const double items = q.input_bytes / kInputBytesPerItem;
      const double expected =
          compute_input_s(1, q.input_bytes, pinned) + tau(items) + compute_output_s(1, q.output_bytes, pinned);
      CHECK(q.exec_end_s - q.exec_start_s == doctest::Approx(expected).epsilon(kTimeEpsilon));
    }
  }
}

TEST_CASE("a batch of B requests gathers each: B per_request + bytes / gather + bytes / host-to-device") {
  // Three jobs on three nodes send one 100-item request each at time 0; they arrive together and
  // the dynamic batcher runs them as one batch of 3 requests.
  json d = test::three_requests_at_once(with_tensors(test::base_scenario()));
  d["models"]["m"]["dynamic_batching"] = json::object();
  d["models"]["m"]["staging"] = staging("pinned");
  const auto r = test::simulate_isolated(test::parse(d));
  REQUIRE(r.requests.size() == 3);
  const double in = 3 * 100 * kInputBytesPerItem, out = 3 * 100 * kOutputBytesPerItem;
  const double expected = compute_input_s(3, in, true) + tau(300) + compute_output_s(3, out, true);
  for (const RequestRecord& q : r.requests) {
    CHECK(q.batch == r.requests.front().batch);
    CHECK(q.exec_end_s - q.exec_start_s == doctest::Approx(expected).epsilon(kTimeEpsilon));
  }
}

namespace {

PerfRow perf_row_of(const json& document) {
  const Scenario scenario = test::parse(document);
  return json::parse(run_isolated([&]() { return json(perf_row(simulate_perf_level(scenario, 0))).dump(); }))
      .get<PerfRow>();
}

}  // namespace

TEST_CASE("perf_analyzer sees the staging as Server Compute Input and Output, the kernel as Compute Infer") {
  const int b = 10;
  json d = test::perf_scenario({{"model", "m"},
                                {"batch_size", b},
                                {"concurrency", {1}},
                                {"warmup", "1s"},
                                {"measurement_interval", "2s"},
                                {"windows", 3}});
  d = with_tensors(d);
  d["models"]["m"]["staging"] = staging("pageable");
  const PerfRow row = perf_row_of(d);
  const double in = b * kInputBytesPerItem, out = b * kOutputBytesPerItem;
  CHECK(std::abs(row.server_compute_input_us - std::llround(compute_input_s(1, in, false) * 1e6)) <= 1);
  CHECK(std::abs(row.server_compute_infer_us - std::llround(tau(b) * 1e6)) <= 1);
  CHECK(std::abs(row.server_compute_output_us - std::llround(compute_output_s(1, out, false) * 1e6)) <= 1);
  const double latency = 2 * kOneWayLatency + (in + out) / kBottleneck + compute_input_s(1, in, false) + tau(b) +
                         compute_output_s(1, out, false);
  CHECK(std::abs(row.p50_us - static_cast<std::int64_t>(latency * 1e6)) <= 1);
}

TEST_CASE("a saturated frontend of T threads serves T / (request cost + response cost) requests per second") {
  // 32 closed-loop clients of one item each; the dynamic batcher keeps the kernel (1 ms + 10 us per
  // item, one instance) and the network far from full: each request holds a handler thread for its
  // parsing and again for its response.
  for (const int threads : {1, 3}) {
    json d = test::perf_scenario({{"model", "m"},
                                  {"batch_size", 1},
                                  {"concurrency", {32}},
                                  {"warmup", "1s"},
                                  {"measurement_interval", "2s"},
                                  {"windows", 3}});
    json frontend = kCost;
    frontend["threads"] = threads;
    d = with_tensor_frontend(with_tensors(d), frontend);
    d["models"]["m"]["dynamic_batching"] = json::object();
    const double per_request_s = parse_tensors_s(kInputBytesPerItem) + serialise_tensors_s(kOutputBytesPerItem);
    const PerfRow row = perf_row_of(d);
    INFO("threads " << threads << ": " << row.inferences_per_s << " inferences/s");
    CHECK(row.inferences_per_s == doctest::Approx(threads / per_request_s).epsilon(0.01));
  }
}

TEST_CASE("the closed form includes the frontend's tensors and the staging: it equals a single job's run") {
  json d = with_tensor_frontend(with_tensors(test::base_scenario()), kCost);
  d["models"]["m"]["staging"] = staging("pinned");
  const Scenario s = test::parse(d);
  const AnalyticModel m = analytic_model(s);
  double expected_gpu = 0, expected_frontend = 0;
  for (int items : {300, 300, 300, 100}) {
    const double in = items * kInputBytesPerItem, out = items * kOutputBytesPerItem;
    expected_gpu += compute_input_s(1, in, true) + tau(items) + compute_output_s(1, out, true);
    expected_frontend += parse_tensors_s(in) + serialise_tensors_s(out);
  }
  CHECK(m.gpu_s == doctest::Approx(expected_gpu).epsilon(kTimeEpsilon));
  CHECK(m.frontend_s == doctest::Approx(expected_frontend).epsilon(kTimeEpsilon));
  const auto r = test::simulate_isolated(s);
  CHECK(r.events.at(0).time_s() == doctest::Approx(m.ideal_s()).epsilon(1e-6));
}
