// Request bytes from a model's tensor shapes, and what shapes the scenario refuses.
#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "models/closed_form/analytic.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

// ParticleNet AK4's inputs as docs/reference/published-results.md §3 lists them (per jet; N, the batch, is the jets),
// float32.
json particlenet_inputs() {
  const auto tensor = [](const char* name, std::vector<int> dims) {
    return json{{"name", name}, {"data_type", "TYPE_FP32"}, {"dims", dims}};
  };
  return json::array({tensor("pf_points", {2, 100}), tensor("pf_features", {20, 100}), tensor("pf_mask", {1, 100}),
                      tensor("sv_points", {2, 10}), tensor("sv_features", {11, 10}), tensor("sv_mask", {1, 10})});
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
  for (const char* key : {"input_bytes_per_item", "output_bytes_per_item", "max_batch_size", "instances_per_gpu"})
    rm.erase(key);
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

TEST_CASE("tensor shapes refuse what they cannot describe") {
  const auto error_with = [](const std::function<void(json&)>& change) {
    json d = test::point_cloud_scenario(true);
    change(d);
    return test::input_error_of([&] { test::parse(d); });
  };
  CHECK(error_with([](json& d) {
          d["workload"]["modules"][1].erase("elements_per_item");
        }).find("has a variable (-1) dim: expected \"elements_per_item\"") != std::string::npos);
  CHECK(error_with([](json& d) {
          d["models"]["m"]["input"][0]["dims"] = {-1, -1};
        }).find("/models/m/input/0/dims/1: expected at most one variable (-1) dim per tensor") != std::string::npos);
  CHECK(error_with([](json& d) {
          d["models"]["m"]["input"][1]["data_type"] = "TYPE_STRING";
        }).find("/models/m/input/1/data_type: expected a fixed-size Triton data type") != std::string::npos);
  CHECK(error_with([](json& d) {
          d["models"]["m"]["input"].erase(1);
          d["workload"]["modules"][1]["elements_per_item"] = {{"distribution", "uniform"}, {"min", 0}, {"max", 3}};
        }).find("an item of 0 elements would be a request of 0 bytes") != std::string::npos);
  CHECK(error_with([](json& d) {
          d["models"]["m"].erase("input");
        }).find("expected \"input_bytes_per_item\", or the model's tensors") != std::string::npos);
  // A bare number keeps requests fixed-size: then an element count has nothing to count.
  CHECK(error_with([](json& d) {
          d["models"]["m"]["input_bytes_per_item"] = "1kB";
        }).find("has no variable (-1) dim: its items have no element count") != std::string::npos);
}
