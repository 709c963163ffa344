// The scenario's Triton keys: triton_config (a config.pbtxt) or the same settings inline
// (dynamic_batching, instance_group), their errors at their JSON pointer, and the request
// parameters inference modules give Triton.
#include <doctest/doctest.h>

#include <string>

#include "models/scenario/reader/scenario_reader.hpp"
#include "models/triton/model_config.hpp"
#include "tests/support/input_failure.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using namespace sonicsim::triton;
using nlohmann::json;
using test::Failure;
using test::failure_of;
using test::write_pbtxt;

namespace {

const std::string triton_data_dir = SONICSIM_TEST_DATA_DIR "/triton";

Failure scenario_failure(const json& document, const std::string& file = "test.json") {
  return failure_of([&] { parse_scenario(document, file); });
}

// The base scenario with two GPUs per server and a "cpu" kernel latency, serving `model`.
json scenario_for(const std::string& model) {
  json d = test::base_scenario();
  d["platform"]["servers"][0]["gpus_per_server"] = 2;
  d["platform"]["servers"][0]["models"] = {model};
  json spec = d["models"]["m"];
  spec["kernel_latency_by_gpu"] = {{"cpu", {{"type", "affine"}, {"intercept", "5ms"}, {"per_item", "1ms"}}}};
  d["models"] = {{model, spec}};
  d["workload"]["modules"][1]["model"] = model;
  return d;
}

// scenario_for("resnet50_onnx") with its scheduling read from the §8.3 example's config.pbtxt.
json resnet_from_file() {
  json d = scenario_for("resnet50_onnx");
  auto& model = d["models"]["resnet50_onnx"];
  model.erase("max_batch_size");
  model.erase("instances_per_gpu");
  model["triton_config"] = triton_data_dir + "/resnet50_onnx.pbtxt";
  return d;
}

// The §8.3 example's scheduling settings written inline, in Triton's JSON field names.
json resnet_inline() {
  return json::parse(R"({
    "max_batch_size": 64,
    "instance_group": [
      {"name": "gpu_pool", "kind": "KIND_GPU", "count": 2, "gpus": [0, 1]},
      {"kind": "KIND_CPU", "count": 1}
    ],
    "dynamic_batching": {
      "preferred_batch_size": [16, 32, 64],
      "max_queue_delay_microseconds": 2000,
      "preserve_ordering": false,
      "priority_levels": 2,
      "default_priority_level": 2,
      "default_queue_policy": {"timeout_action": "REJECT", "default_timeout_microseconds": 100000,
                               "allow_timeout_override": true, "max_queue_size": 512},
      "priority_queue_policy": {"1": {"timeout_action": "DELAY", "default_timeout_microseconds": 20000,
                                      "allow_timeout_override": false, "max_queue_size": 0}}
    }
  })");
}

}  // namespace

TEST_CASE("scenario: triton_config gives the same model as the same settings written inline") {
  const Scenario a = test::parse(resnet_from_file());

  json inline_settings = scenario_for("resnet50_onnx");
  auto& inline_model = inline_settings["models"]["resnet50_onnx"];
  inline_model.erase("instances_per_gpu");
  inline_model.update(resnet_inline());
  const Scenario b = test::parse(inline_settings);

  const ModelSpec& x = a.models.at(0);
  const ModelSpec& y = b.models.at(0);
  CHECK(x.triton_config_path == triton_data_dir + "/resnet50_onnx.pbtxt");
  CHECK(y.triton_config_path.empty());
  CHECK(x.triton.max_batch_size == 64);
  CHECK(x.triton.max_batch_size == y.triton.max_batch_size);
  CHECK(x.triton.instance_groups.size() == 2);
  CHECK(x.triton.instance_groups == y.triton.instance_groups);
  CHECK(x.triton.dynamic_batching.has_value());
  CHECK(x.triton.dynamic_batching == y.triton.dynamic_batching);
  CHECK(x.batcher_wakeup == BatcherWakeup::Idealised);
  CHECK(x.batcher_payloads == BatcherPayloads::Grow);
}

TEST_CASE("scenario: a relative triton_config is found from the scenario's directory") {
  json d = scenario_for("resnet50_onnx");
  auto& model = d["models"]["resnet50_onnx"];
  model.erase("instances_per_gpu");
  model["max_batch_size"] = 64;  // equal to the file's: allowed
  model["triton_config"] = "resnet50_onnx.pbtxt";
  const Scenario s = parse_scenario(d, triton_data_dir + "/scenario.json");
  CHECK(s.models.at(0).triton_config_path == triton_data_dir + "/resnet50_onnx.pbtxt");

  const Failure missing = scenario_failure(d, "elsewhere/scenario.json");
  CHECK(missing.where == "/models/resnet50_onnx/triton_config");
  CHECK(missing.message == "cannot open the Triton model configuration \"elsewhere/resnet50_onnx.pbtxt\"");
  model["triton_config"] = ".";  // a directory
  CHECK(scenario_failure(d, triton_data_dir + "/scenario.json").where == "/models/resnet50_onnx/triton_config");
}

TEST_CASE("scenario: without Triton keys a model keeps the default scheduler and instances_per_gpu") {
  const Scenario s = test::parse(test::base_scenario());
  const ModelSpec& m = s.models.at(0);
  CHECK(m.triton.max_batch_size == 1000);
  CHECK(m.instances_per_gpu == 1);
  CHECK(m.triton.instance_groups.empty());
  CHECK_FALSE(m.triton.dynamic_batching);
  CHECK(m.triton_config_path.empty());

  json d = test::base_scenario();
  d["models"]["m"]["dynamic_batching"] = json::object();  // Triton's `dynamic_batching { }`
  d["models"]["m"]["instances_per_gpu"] = 3;
  const Scenario batching = test::parse(d);
  REQUIRE(batching.models.at(0).triton.dynamic_batching);
  CHECK(batching.models.at(0).triton.dynamic_batching->preferred_batch_sizes == std::vector<int>{1000});
  CHECK(batching.models.at(0).triton.instance_groups.empty());
  CHECK(batching.models.at(0).instances_per_gpu == 3);
}

TEST_CASE("scenario: conflicting keys and bad inline values are errors at their JSON pointer") {
  const json with_file = resnet_from_file();
  CHECK(scenario_failure(with_file).where == "(no error)");

  struct Case {
    std::string key;
    json value;
    std::string where, message;
  };
  const std::string p = "/models/resnet50_onnx/";
  for (const Case& c : std::vector<Case>{
           {"max_batch_size", 32, p + "max_batch_size",
            "expected 64, the max_batch_size of \"" + triton_data_dir +
                "/resnet50_onnx.pbtxt\" (or no max_batch_size here), got 32"},
           {"instances_per_gpu", 2, p + "instances_per_gpu",
            "\"instances_per_gpu\" cannot be used with \"triton_config\": the file sets the scheduling and the "
            "instances"},
           {"dynamic_batching", json::object(), p + "dynamic_batching",
            "\"dynamic_batching\" cannot be used with \"triton_config\": the file sets the scheduling and the "
            "instances"},
           {"instance_group", json::array(), p + "instance_group",
            "\"instance_group\" cannot be used with \"triton_config\": the file sets the scheduling and the instances"},
       }) {
    CAPTURE(c.key);
    json d = with_file;
    d["models"]["resnet50_onnx"][c.key] = c.value;
    const Failure f = scenario_failure(d);
    CHECK(f.where == c.where);
    CHECK(f.message == c.message);
  }

  json inline_base = test::base_scenario();
  inline_base["models"]["m"].erase("instances_per_gpu");
  // A group as Triton's JSON model configuration prints it: the fields that do not matter here pass.
  inline_base["models"]["m"]["instance_group"] = json::parse(R"([{"name": "m_0", "kind": "KIND_GPU", "count": 2,
      "gpus": [0], "profile": [], "passive": false, "host_policy": "", "secondary_devices": [],
      "rate_limiter": {"resources": [], "priority": 1}}])");
  CHECK(scenario_failure(inline_base).where == "(no error)");
  for (const Case& c : std::vector<Case>{
           {"instances_per_gpu", 2, "/models/m/instances_per_gpu",
            "\"instances_per_gpu\" cannot be used with \"instance_group\", which places the instances itself"},
           {"instance_group", json::parse(R"([{"kind": "KIND_TPU"}])"), "/models/m/instance_group/0/kind",
            "expected \"KIND_AUTO\", \"KIND_GPU\", \"KIND_CPU\" or \"KIND_MODEL\", got \"KIND_TPU\""},
           {"instance_group", json::parse(R"([{"count": 0}])"), "/models/m/instance_group/0/count",
            "expected an integer >= 1, got 0"},
           {"instance_group", json::parse(R"([{"gpu": [0]}])"), "/models/m/instance_group/0/gpu",
            "unknown key \"gpu\" (allowed here: name, kind, count, gpus, passive, rate_limiter, host_policy, profile, "
            "secondary_devices)"},
           {"instance_group", json::parse(R"([{"profile": [0]}])"), "/models/m/instance_group/0/profile/0",
            "expected a string, got number 0"},
           {"dynamic_batching", json::parse(R"({"max_queue_delay": "1ms"})"),
            "/models/m/dynamic_batching/max_queue_delay",
            "unknown key \"max_queue_delay\" (allowed here: preferred_batch_size, max_queue_delay_microseconds, "
            "preserve_ordering, priority_levels, default_priority_level, default_queue_policy, priority_queue_policy)"},
           {"dynamic_batching", json::parse(R"({"max_queue_delay_microseconds": 1.5})"),
            "/models/m/dynamic_batching/max_queue_delay_microseconds", "expected an integer, got number 1.5"},
           {"dynamic_batching", json::parse(R"({"preferred_batch_size": [4, 2000]})"),
            "/models/m/dynamic_batching/preferred_batch_size/1",
            "dynamic batching preferred size must be <= max batch size for m"},
           {"dynamic_batching", json::parse(R"({"priority_levels": 2, "default_priority_level": 1,
                                               "priority_queue_policy": {"first": {}}})"),
            "/models/m/dynamic_batching/priority_queue_policy/first",
            "expected a priority level (a whole number such as \"1\") as key, got \"first\""},
           {"dynamic_batching", json::parse(R"({"priority_levels": 2, "default_priority_level": 1,
                                               "priority_queue_policy": {"3": {}}})"),
            "/models/m/dynamic_batching/priority_queue_policy/3",
            "priority queue policy must have priority level in range [1, 2] for m"},
           {"dynamic_batching", json::parse(R"({"default_queue_policy": {"timeout_action": "DROP"}})"),
            "/models/m/dynamic_batching/default_queue_policy/timeout_action",
            "expected \"REJECT\" or \"DELAY\", got \"DROP\""},
           {"batcher_wakeup", "lazy", "/models/m/batcher_wakeup",
            "expected \"idealised\" or \"literal\", got \"lazy\""},
           {"batcher_payloads", "frozen", "/models/m/batcher_payloads",
            "expected \"grow\" or \"fixed\", got \"frozen\""},
           {"batcher_payloads", 1, "/models/m/batcher_payloads", "expected a string, got number 1"},
       }) {
    CAPTURE(c.value.dump());
    json d = inline_base;
    d["models"]["m"][c.key] = c.value;
    const Failure f = scenario_failure(d);
    CHECK(f.file == "test.json");
    CHECK(f.where == c.where);
    CHECK(f.message == c.message);
  }

  json literal = test::base_scenario();
  literal["models"]["m"]["batcher_wakeup"] = "literal";
  CHECK(test::parse(literal).models.at(0).batcher_wakeup == BatcherWakeup::Literal);
  json fixed = test::base_scenario();
  fixed["models"]["m"]["batcher_payloads"] = "fixed";
  CHECK(test::parse(fixed).models.at(0).batcher_payloads == BatcherPayloads::Fixed);
}

TEST_CASE("scenario: instances on the CPU need a \"cpu\" kernel latency") {
  json d = test::base_scenario();
  auto& model = d["models"]["m"];
  model.erase("instances_per_gpu");
  model.erase("kernel_latency");
  model["kernel_latency_by_gpu"] = {{"T4", {{"type", "affine"}, {"intercept", "1ms"}, {"per_item", "10us"}}}};
  model["instance_group"] = json::parse(R"([{"kind": "KIND_GPU"}, {"name": "host", "kind": "KIND_CPU", "count": 4}])");
  const Failure f = scenario_failure(d);
  CHECK(f.where == "/models/m");
  CHECK(f.message ==
        "instance group \"host\" has kind KIND_CPU: its instances run on the server's CPU, so expected a "
        "\"cpu\" entry in \"kernel_latency_by_gpu\" or a \"kernel_latency\"");

  model["instance_group"][1]["passive"] = true;  // passive instances never run
  CHECK(scenario_failure(d).where == "(no error)");
  model["instance_group"][1]["passive"] = false;
  model["kernel_latency_by_gpu"]["cpu"] = {{"type", "affine"}, {"intercept", "5ms"}, {"per_item", "1ms"}};
  const Scenario s = test::parse(d);
  CHECK(s.models.at(0).triton.instance_groups.at(1) == InstanceGroup{"host", InstanceKind::Cpu, 4, {}, false});
  CHECK(kernel_latency_s(s.models.at(0).latency_for("cpu"), 1) == doctest::Approx(0.006));
}

TEST_CASE("scenario: listed GPUs must exist on every server group serving the model") {
  json d = test::base_scenario();  // one GPU per server
  d["models"]["m"].erase("instances_per_gpu");
  d["models"]["m"]["instance_group"] = json::parse(R"([{"kind": "KIND_GPU", "gpus": [0]}, {"gpus": [0, 1]}])");
  Failure f = scenario_failure(d);
  CHECK(f.where == "/models/m/instance_group/1/gpus/1");
  CHECK(f.message ==
        "instance group m_1 of model m specifies invalid or unsupported gpu id 1 (server group \"s\" has "
        "1 GPU per server, ids 0 to 0)");
  d["platform"]["servers"][0]["gpus_per_server"] = 2;
  const Scenario s = test::parse(d);
  CHECK(s.models.at(0).triton.instance_groups.at(1) == InstanceGroup{"m_1", InstanceKind::Gpu, 1, {0, 1}, false});

  // A config.pbtxt: the error names the file and its field path.
  const std::string path =
      write_pbtxt("gpus", "max_batch_size: 8\ninstance_group [ { kind: KIND_GPU gpus: [ 0, 4 ] } ]");
  json with_file = test::base_scenario();
  with_file["models"]["m"].erase("instances_per_gpu");
  with_file["models"]["m"].erase("max_batch_size");
  with_file["models"]["m"]["triton_config"] = path;
  f = scenario_failure(with_file);
  CHECK(f.file == path);
  CHECK(f.where == "instance_group[0].gpus[1]");
  CHECK(f.message.find("specifies invalid or unsupported gpu id 4") != std::string::npos);
}

TEST_CASE("scenario: inference modules take a Triton priority and request timeout") {
  json d = test::base_scenario();
  auto& module = d["workload"]["modules"][1];
  module["priority"] = 2;
  module["timeout"] = "20ms";
  const Scenario parsed = test::parse(d);
  const auto& m = std::get<InferenceModule>(parsed.workload.modules.at(1));
  CHECK(m.priority == 2);
  CHECK(m.timeout_s == doctest::Approx(0.02));
  const Scenario base = test::parse(test::base_scenario());
  const auto& defaults = std::get<InferenceModule>(base.workload.modules.at(1));
  CHECK(defaults.priority == 0);
  CHECK(defaults.timeout_s == 0);

  module["priority"] = -1;
  CHECK(scenario_failure(d).where == "/workload/modules/1/priority");
  module["priority"] = 1;
  module["timeout"] = 20000;
  const Failure f = scenario_failure(d);
  CHECK(f.where == "/workload/modules/1/timeout");
  CHECK(f.message.find("expected a duration") != std::string::npos);
}
