// Request bytes from a model's tensor shapes, and Triton's batching of requests whose items vary in
// size: padded (a variable dim without allow_ragged_batch: one shape per batch) and ragged (any
// sizes per batch, unpadded); the kernel's time is a function of the elements in the batch.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/records.hpp"
#include "models/closed_form/analytic.hpp"
#include "tests/support/records_json.hpp"
#include "tests/support/support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

// ParticleNet AK4's inputs as seed 000 lists them (per jet; N, the batch, is the jets), float32.
json particlenet_inputs() {
  const auto tensor = [](const char* name, std::vector<int> dims) {
    return json{{"name", name}, {"data_type", "TYPE_FP32"}, {"dims", dims}};
  };
  return json::array({tensor("pf_points", {2, 100}), tensor("pf_features", {20, 100}), tensor("pf_mask", {1, 100}),
                      tensor("sv_points", {2, 10}), tensor("sv_features", {11, 10}), tensor("sv_mask", {1, 10})});
}

// A point-cloud model: per item, 8 features for each of a variable number of points (4 bytes each)
// and a 2-float header; 3 scores out. tau = 1 ms + 10 us per element (point) in the batch.
json point_cloud_scenario(bool ragged) {
  json d = test::base_scenario();
  auto& m = d["models"]["m"];
  m.erase("input_bytes_per_item");
  m.erase("output_bytes_per_item");
  m["input"] = {{{"name", "points"}, {"data_type", "TYPE_FP32"}, {"dims", {-1, 8}}, {"allow_ragged_batch", ragged}},
                {{"name", "header"}, {"data_type", "TYPE_FP32"}, {"dims", {2}}}};
  m["output"] = {{{"name", "scores"}, {"data_type", "TYPE_FP32"}, {"dims", {3}}}};
  m["max_batch_size"] = 8;
  m["dynamic_batching"] = {{"preferred_batch_size", {8}}, {"max_queue_delay_microseconds", 2000}};
  d["platform"]["worker_pools"][0]["nodes"] = 8;
  d["platform"]["placement"] = "spread";
  d["workload"]["jobs"] = 8;
  d["workload"]["events_per_job"] = 25;
  d["workload"]["modules"][0]["time"] = "0s";
  auto& ml = d["workload"]["modules"][1];
  ml["preprocess"] = "0s";
  ml["items_per_event"] = 1;
  ml["items_per_request"] = 1;
  ml["elements_per_item"] = {{"distribution", "empirical"}, {"samples", {10, 20, 40}}};
  d["simulation"]["outputs"] = {"requests", "batches"};
  return d;
}

constexpr double kHeaderBytes = 2 * 4, kPointBytes = 8 * 4;
double elements_of(const RequestRecord& r) { return (r.input_bytes - r.items * kHeaderBytes) / kPointBytes; }

// Per executed batch: its requests' element counts, and its kernel time.
std::map<std::int64_t, std::pair<std::vector<double>, double>> batches_of(const SimulationResults& r) {
  std::map<std::int64_t, std::pair<std::vector<double>, double>> out;
  for (const BatchRecord& b : r.batches) out[b.id].second = b.end_s - b.start_s;
  for (const RequestRecord& q : r.requests)
    if (q.batch >= 0) out[q.batch].first.push_back(elements_of(q));
  return out;
}

}  // namespace

TEST_CASE("bytes per item come from the tensors where the scenario gives no number") {
  json d = test::base_scenario();
  auto& m = d["models"]["m"];
  m.erase("input_bytes_per_item");
  m["input"] = particlenet_inputs();
  // (2 + 20 + 1) x 100 + (2 + 11 + 1) x 10 = 2440 floats = 9760 B per jet.
  Scenario s = test::parse(d);
  CHECK(s.models[0].input_bytes_per_item == 9760);
  CHECK(s.models[0].output_bytes_per_item == 400);  // still the bare number
  CHECK(s.models[0].layout == TensorLayout::Fixed);
  // The §8.3 ResNet-50 config.pbtxt: input FP32 [3, 224, 224], output FP32 [1000].
  json r = test::base_scenario();
  auto& rm = r["models"]["m"];
  for (const char* key : {"input_bytes_per_item", "output_bytes_per_item", "max_batch_size", "instances_per_gpu"}) rm.erase(key);
  rm["triton_config"] = std::string(SONICSIM_TEST_DATA_DIR) + "/triton/resnet50_onnx.pbtxt";
  d["models"] = {{"resnet50_onnx", rm}};
  d["platform"]["servers"][0]["models"] = {"resnet50_onnx"};
  d["workload"]["modules"][1]["model"] = "resnet50_onnx";
  d["workload"]["modules"][1]["items_per_request"] = 64;
  d["platform"]["servers"][0]["gpus_per_server"] = 2;
  s = test::parse(d);
  CHECK(s.models[0].input_bytes_per_item == 3 * 224 * 224 * 4);
  CHECK(s.models[0].output_bytes_per_item == 1000 * 4);
}

TEST_CASE("ragged: requests of any element counts batch together, and the kernel takes the elements' sum") {
  const SimulationResults r = test::simulate_isolated(test::parse(point_cloud_scenario(true)));
  const auto batches = batches_of(r);
  REQUIRE(!batches.empty());
  bool mixed = false, timed_by_elements = true;
  for (const auto& [id, batch] : batches) {
    const auto& [elements, kernel_s] = batch;
    double sum = 0;
    for (double e : elements) sum += e;
    if (std::abs(kernel_s - (1e-3 + 10e-6 * sum)) > 1e-9) timed_by_elements = false;
    if (std::set<double>(elements.begin(), elements.end()).size() > 1) mixed = true;
  }
  CHECK(timed_by_elements);
  CHECK(mixed);
  // Unpadded: each request carries its own points, 10, 20 or 40 of them.
  for (const RequestRecord& q : r.requests) CHECK(std::set<double>{10, 20, 40}.count(elements_of(q)) == 1);
  CHECK(r.requests.size() == 200);
}

TEST_CASE("padded: a batch holds one shape; the kernel takes the padded elements") {
  json d = point_cloud_scenario(false);
  d["workload"]["modules"][1]["items_per_request"] = 2;
  d["workload"]["modules"][1]["items_per_event"] = 2;
  const SimulationResults r = test::simulate_isolated(test::parse(d));
  // A request of 2 items pads both to the larger: 2 x max(e1, e2) elements, a multiple of 2 x 10.
  std::set<double> shapes;
  for (const RequestRecord& q : r.requests) {
    const double per_item = elements_of(q) / q.items;
    CHECK(std::set<double>{10, 20, 40}.count(per_item) == 1);
    shapes.insert(per_item);
  }
  CHECK(shapes.size() == 3);
  bool one_shape = true, timed_by_elements = true;
  std::size_t largest_batch = 0;
  for (const auto& [id, batch] : batches_of(r)) {
    const auto& [elements, kernel_s] = batch;
    largest_batch = std::max(largest_batch, elements.size());
    double sum = 0;
    for (double e : elements) sum += e;
    if (std::set<double>(elements.begin(), elements.end()).size() != 1) one_shape = false;
    if (std::abs(kernel_s - (1e-3 + 10e-6 * sum)) > 1e-9) timed_by_elements = false;
  }
  CHECK(one_shape);
  CHECK(largest_batch >= 2);  // requests of one shape did batch
  CHECK(timed_by_elements);
  // The closed form: P(max of 2 <= m) = F(m)^2 with F = 1/3, 2/3, 1, so the padded shape is 10, 20,
  // 40 with probabilities 1/9, 3/9, 5/9; elements per request 2 E[M] = 2 (10 + 60 + 200) / 9.
  const AnalyticModel m = analytic_model(test::parse(d));
  const double mean_elements = 2 * (10 * 1.0 + 20 * 3.0 + 40 * 5.0) / 9;
  CHECK(m.gpu_s == doctest::Approx(1e-3 + 10e-6 * mean_elements));
  CHECK(m.transfer_s == doctest::Approx((2 * kHeaderBytes + kPointBytes * mean_elements + 2 * 12) / (1e9 / 8)));
}

TEST_CASE("tensor shapes refuse what they cannot describe") {
  const auto error_with = [](const std::function<void(json&)>& change) {
    json d = point_cloud_scenario(true);
    change(d);
    return test::input_error_of([&] { test::parse(d); });
  };
  CHECK(error_with([](json& d) { d["workload"]["modules"][1].erase("elements_per_item"); })
            .find("has a variable (-1) dim: expected \"elements_per_item\"") != std::string::npos);
  CHECK(error_with([](json& d) { d["models"]["m"]["input"][0]["dims"] = {-1, -1}; })
            .find("/models/m/input/0/dims/1: expected at most one variable (-1) dim per tensor") != std::string::npos);
  CHECK(error_with([](json& d) { d["models"]["m"]["input"][1]["data_type"] = "TYPE_STRING"; })
            .find("/models/m/input/1/data_type: expected a fixed-size Triton data type") != std::string::npos);
  CHECK(error_with([](json& d) {
          d["models"]["m"]["input"].erase(1);
          d["workload"]["modules"][1]["elements_per_item"] = {{"distribution", "uniform"}, {"min", 0}, {"max", 3}};
        }).find("an item of 0 elements would be a request of 0 bytes") != std::string::npos);
  CHECK(error_with([](json& d) { d["models"]["m"].erase("input"); })
            .find("expected \"input_bytes_per_item\", or the model's tensors") != std::string::npos);
  // A bare number keeps requests fixed-size: then an element count has nothing to count.
  CHECK(error_with([](json& d) { d["models"]["m"]["input_bytes_per_item"] = "1kB"; })
            .find("has no variable (-1) dim: its items have no element count") != std::string::npos);
}
