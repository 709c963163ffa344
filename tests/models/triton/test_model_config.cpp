// Triton model configuration: config.pbtxt parsing, Triton's normalisation defaults and its
// validation messages.
#include <doctest/doctest.h>

#include <string>

#include "models/triton/config_pbtxt.hpp"
#include "models/triton/model_config.hpp"
#include "tests/support/input_failure.hpp"

using namespace sonicsim;
using namespace sonicsim::triton;
using test::Failure;
using test::failure_of;
using test::write_pbtxt;

namespace {

const std::string config_data_dir = SONICSIM_TEST_DATA_DIR "/triton";

Failure pbtxt_failure(const std::string& text, const std::string& model = "m") {
  const std::string path = write_pbtxt("case", text);
  return failure_of([&] { read_triton_config(path, model); });
}

// Protobuf's parser reports some errors at the token after the culprit (the ":" after an unknown
// field name), so only the line is checked exactly.
bool at_line(const Failure& f, int line) { return f.where.rfind("line " + std::to_string(line) + ", column ", 0) == 0; }

}  // namespace

TEST_CASE("the reference example config.pbtxt reads into SI units and normalises as Triton does") {
  ModelConfig config = read_triton_config(config_data_dir + "/resnet50_onnx.pbtxt", "resnet50_onnx");
  CHECK(config.name == "resnet50_onnx");
  CHECK(config.backend == "onnxruntime");
  CHECK(config.max_batch_size == 64);
  REQUIRE(config.instance_groups.size() == 2);
  CHECK(config.instance_groups[1].count == 1);
  CHECK(config.instance_groups[1].name.empty());  // as written
  normalize_model_config(config, 2);

  REQUIRE(config.dynamic_batching);
  const DynamicBatchingConfig& d = *config.dynamic_batching;
  CHECK(d.preferred_batch_sizes == std::vector<int>{16, 32, 64});
  CHECK(d.max_queue_delay_s == doctest::Approx(0.002));
  CHECK_FALSE(d.preserve_ordering);
  CHECK(d.priority_levels == 2);
  CHECK(d.default_priority_level == 2);
  CHECK(d.default_queue_policy == QueuePolicy{TimeoutAction::Reject, 0.1, true, 512});
  REQUIRE(d.priority_queue_policy.size() == 1);
  CHECK(d.priority_queue_policy.at(1) == QueuePolicy{TimeoutAction::Delay, 0.02, false, 0});
  CHECK(d.policy_for(2) == d.default_queue_policy);
  CHECK_FALSE(d.prefetching());

  CHECK(config.instance_groups[0] == InstanceGroup{"gpu_pool", InstanceKind::Gpu, 2, {0, 1}, false});
  CHECK(config.instance_groups[1] == InstanceGroup{"resnet50_onnx_1", InstanceKind::Cpu, 1, {}, false});
}

TEST_CASE("fields Triton accepts but sonicsim does not model are parsed and ignored") {
  ModelConfig config = read_triton_config(config_data_dir + "/every_section.pbtxt", "tagger_trt");
  CHECK(config.backend == "tensorrt_plan");  // no backend: the platform
  normalize_model_config(config, 2);
  REQUIRE(config.instance_groups.size() == 2);
  CHECK(config.instance_groups[0] == InstanceGroup{"tagger_trt_0", InstanceKind::Gpu, 3, {1}, false});
  CHECK(config.instance_groups[1] == InstanceGroup{"standby", InstanceKind::Gpu, 1, {}, true});
  REQUIRE(config.dynamic_batching);
  CHECK(config.dynamic_batching->preferred_batch_sizes == std::vector<int>{64, 128});
  CHECK(config.dynamic_batching->max_queue_delay_s == doctest::Approx(500e-6));
  CHECK(config.dynamic_batching->priority_queue_policy.at(1).max_queue_size == 8);
  CHECK(config.dynamic_batching->priority_queue_policy.at(2).timeout_action == TimeoutAction::Delay);
  CHECK(config.dynamic_batching->priority_queue_policy.at(2).default_timeout_s == doctest::Approx(1.5e-3));
}

TEST_CASE("normalisation defaults") {
  SUBCASE("preferred sizes default to [max_batch_size], and stay empty without batching") {
    ModelConfig c{"m", "onnxruntime", 8, {}, DynamicBatchingConfig{}};
    normalize_model_config(c, 1);
    CHECK(c.dynamic_batching->preferred_batch_sizes == std::vector<int>{8});
    ModelConfig zero{"m", "onnxruntime", 0, {}, DynamicBatchingConfig{}};
    normalize_model_config(zero, 1);
    CHECK(zero.dynamic_batching->preferred_batch_sizes.empty());
    DynamicBatchingConfig sizes;
    sizes.preferred_batch_sizes = {2, 4};
    ModelConfig given{"m", "onnxruntime", 8, {}, sizes};
    normalize_model_config(given, 1);
    CHECK(given.dynamic_batching->preferred_batch_sizes == std::vector<int>{2, 4});
  }
  SUBCASE("no instance group: one group named after the model, count 1, KIND_AUTO -> KIND_GPU on every GPU") {
    ModelConfig c{"m", "onnxruntime", 8, {}, std::nullopt};
    normalize_model_config(c, 4);
    REQUIRE(c.instance_groups.size() == 1);
    CHECK(c.instance_groups[0] == InstanceGroup{"m", InstanceKind::Gpu, 1, {}, false});
    CHECK_FALSE(c.dynamic_batching);  // no dynamic_batching: the default scheduler
  }
  SUBCASE("KIND_AUTO -> KIND_CPU without GPUs; count 2 on the CPU for onnxruntime and tensorflow only") {
    for (const auto& expected : std::vector<std::pair<std::string, int>>{
             {"onnxruntime", 2}, {"tensorflow", 2}, {"tensorflow_savedmodel", 2}, {"pytorch", 1}, {"python", 1}}) {
      const std::string& backend = expected.first;  // a named variable: CAPTURE takes it by reference
      const int count = expected.second;
      CAPTURE(backend);
      ModelConfig c{"m", backend, 8, {}, std::nullopt};
      normalize_model_config(c, 0);
      CHECK(c.instance_groups[0] == InstanceGroup{"m", InstanceKind::Cpu, count, {}, false});
    }
  }
  SUBCASE("KIND_AUTO listing a GPU the server lacks -> KIND_CPU") {
    ModelConfig c{"m", "pytorch", 8, {InstanceGroup{"", InstanceKind::Auto, 0, {3}, false}}, std::nullopt};
    normalize_model_config(c, 2);
    CHECK(c.instance_groups[0].kind == InstanceKind::Cpu);
  }
  SUBCASE("unnamed groups are <model>_<index>; unset counts 1 on GPU, 2 on CPU for onnxruntime") {
    ModelConfig c{
        "m",
        "onnxruntime",
        8,
        {InstanceGroup{"", InstanceKind::Gpu, 0, {}, false}, InstanceGroup{"named", InstanceKind::Gpu, 3, {}, false},
         InstanceGroup{"", InstanceKind::Cpu, 0, {}, false}, InstanceGroup{"", InstanceKind::Model, 0, {}, false}},
        std::nullopt};
    normalize_model_config(c, 1);
    CHECK(c.instance_groups[0] == InstanceGroup{"m_0", InstanceKind::Gpu, 1, {}, false});
    CHECK(c.instance_groups[1] == InstanceGroup{"named", InstanceKind::Gpu, 3, {}, false});
    CHECK(c.instance_groups[2] == InstanceGroup{"m_2", InstanceKind::Cpu, 2, {}, false});
    CHECK(c.instance_groups[3] == InstanceGroup{"m_3", InstanceKind::Model, 1, {}, false});
  }
}

TEST_CASE("validation errors carry Triton's message, the file and the field path") {
  const std::string head = "name: \"m\"\nbackend: \"onnxruntime\"\nmax_batch_size: 8\n";
  struct Case {
    std::string text, where, message;
  };
  const std::vector<Case> cases = {
      {"dynamic_batching { preferred_batch_size: [ 4, 0 ] }", "dynamic_batching.preferred_batch_size[1]",
       "dynamic batching preferred size must be positive for m"},
      {"dynamic_batching { preferred_batch_size: [ 4, -2 ] }", "dynamic_batching.preferred_batch_size[1]",
       "dynamic batching preferred size must be positive for m"},
      {"dynamic_batching { preferred_batch_size: [ 4, 16 ] }", "dynamic_batching.preferred_batch_size[1]",
       "dynamic batching preferred size must be <= max batch size for m"},
      {"dynamic_batching { priority_levels: 2 }", "dynamic_batching.default_priority_level",
       "default priority level must be in range [1, 2] for m"},
      {"dynamic_batching { priority_levels: 2 default_priority_level: 3 }", "dynamic_batching.default_priority_level",
       "default priority level must be in range [1, 2] for m"},
      {"dynamic_batching { priority_levels: 2 default_priority_level: 1 priority_queue_policy { key: 3 value {} } }",
       "dynamic_batching.priority_queue_policy[3]",
       "priority queue policy must have priority level in range [1, 2] for m"},
      {"dynamic_batching { priority_levels: 2 default_priority_level: 1 priority_queue_policy { key: 0 value {} } }",
       "dynamic_batching.priority_queue_policy[0]",
       "priority queue policy must have priority level in range [1, 2] for m"},
      {"dynamic_batching { preserve_ordering: true priority_levels: 2 default_priority_level: 1 }",
       "dynamic_batching.priority_levels", "Only one priority level is allowed when 'preserve_ordering' is true for m"},
      {"dynamic_batching { preserve_ordering: true default_queue_policy { timeout_action: DELAY "
       "default_timeout_microseconds: 10 } }",
       "dynamic_batching.default_queue_policy.timeout_action",
       "Queue policy can not have DELAY as timeout action when 'preserve_ordering' is true for m"},
      {"dynamic_batching { preserve_ordering: true priority_levels: 1 default_priority_level: 1 priority_queue_policy "
       "{ key: 1 value { timeout_action: DELAY default_timeout_microseconds: 10 } } }",
       "dynamic_batching.priority_queue_policy[1].timeout_action",
       "Queue policy can not have DELAY as timeout action when 'preserve_ordering' is true for m"},
      {"instance_group [ { kind: KIND_GPU }, { kind: KIND_CPU count: -1 } ]", "instance_group[1].count",
       "instance group m_1 of model m must specify 'count' >= 1"},
      {"instance_group [ { name: \"cpus\" kind: KIND_CPU gpus: [ 0 ] } ]", "instance_group[0].gpus",
       "instance group cpus of model m has kind KIND_CPU but specifies one or more GPUs"},
      {"instance_group [ { kind: KIND_MODEL gpus: [ 0 ] } ]", "instance_group[0].gpus",
       "instance group m_0 of model m has kind KIND_MODEL but specifies one or more GPUs"},
      {"sequence_batching { max_sequence_idle_microseconds: 5000000 }", "sequence_batching",
       "the sequence batcher is not simulated (only Triton's default scheduler and the dynamic batcher are)"},
      {"ensemble_scheduling { step [ { model_name: \"a\" model_version: -1 } ] }", "ensemble_scheduling",
       "ensemble models are not simulated (only single models with Triton's default scheduler or the dynamic "
       "batcher are)"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const Failure f = pbtxt_failure(head + c.text);
    CHECK(f.where == c.where);
    CHECK(f.message == c.message);
    CHECK(f.file.find("case.pbtxt") != std::string::npos);
  }
  // max_batch_size is checked before anything else.
  const Failure negative = pbtxt_failure("name: \"m\"\nmax_batch_size: -1\ndynamic_batching { }");
  CHECK(negative.where == "max_batch_size");
  CHECK(negative.message == "'max_batch_size' must be non-negative value for m");
  // Within range, priority levels and DELAY without a timeout are fine with preserve_ordering.
  CHECK(pbtxt_failure(head + "dynamic_batching { preserve_ordering: true priority_levels: 1 default_priority_level: 1 "
                             "default_queue_policy { timeout_action: DELAY } }")
            .where == "(no error)");
}

TEST_CASE("the model name in the file must be the model's") {
  const Failure f = pbtxt_failure("name: \"other\"\nmax_batch_size: 8", "m");
  CHECK(f.where == "name");
  CHECK(f.message.find("\"other\" differs from the model it configures, \"m\"") != std::string::npos);
  CHECK(pbtxt_failure("max_batch_size: 8", "m").where == "(no error)");  // no name: the model's
}

TEST_CASE("text-format errors give the line and column") {
  SUBCASE("a field not in Triton's schema, at any depth") {
    const Failure f =
        pbtxt_failure("name: \"m\"\nmax_batch_size: 8\ndynamic_batching {\n  prefered_batch_size: [ 4 ]\n}\n");
    CHECK(at_line(f, 4));
    CHECK(f.message == "Message type \"inference.ModelDynamicBatching\" has no field named \"prefered_batch_size\".");
    const Failure deep = pbtxt_failure("optimization { cuda { graph: true } }");
    CHECK(at_line(deep, 1));
    CHECK(deep.message.find("has no field named \"graph\"") != std::string::npos);
    CHECK(at_line(pbtxt_failure("max_batch_size: 8\nmax_queue_delay_microseconds: 100"), 2));
  }
  SUBCASE("a syntax error") {
    const Failure f = pbtxt_failure("name: \"m\"\nmax_batch_size: 8\ninstance_group [ { count: 2 ]\n");
    CHECK(f.where == "line 3, column 29");  // the "]" where a "}" was expected
    CHECK_FALSE(f.message.empty());
  }
  SUBCASE("an unknown enum value, a wrong type, a repeated singular field") {
    CHECK(at_line(pbtxt_failure("instance_group [ { kind: KIND_TPU } ]"), 1));
    CHECK(at_line(pbtxt_failure("max_batch_size: \"8\""), 1));
    CHECK(at_line(pbtxt_failure("max_batch_size: 8\nmax_batch_size: 16"), 2));
  }
  SUBCASE("a missing file") {
    const Failure f = failure_of([] { read_triton_config("/nonexistent/config.pbtxt", "m"); });
    CHECK(f.file == "/nonexistent/config.pbtxt");
    CHECK(f.message == "cannot open the file (No such file or directory)");
  }
}

TEST_CASE("the map and list spellings of the text format are accepted") {
  const std::string path = write_pbtxt("spellings", R"(
    max_batch_size: 16
    dynamic_batching {
      preferred_batch_size: 4
      preferred_batch_size: 8
      priority_levels: 2
      default_priority_level: 1
      priority_queue_policy: [ { key: 2 value: { max_queue_size: 3 } } ]
      default_queue_policy < timeout_action: REJECT >
    }
    instance_group { count: 2 } instance_group { kind: KIND_CPU })");
  ModelConfig c = read_triton_config(path, "m");
  CHECK(c.dynamic_batching->preferred_batch_sizes == std::vector<int>{4, 8});
  CHECK(c.dynamic_batching->priority_queue_policy.at(2).max_queue_size == 3);
  CHECK(c.instance_groups.size() == 2);
}

TEST_CASE("GPUs listed by instance groups must exist on the server") {
  ModelConfig c{
      "m",
      "onnxruntime",
      8,
      {InstanceGroup{"ok", InstanceKind::Gpu, 1, {0, 1}, false}, InstanceGroup{"g", InstanceKind::Auto, 1, {2}, false}},
      std::nullopt};
  const ConfigSource source{"c.pbtxt", std::nullopt};
  CHECK_NOTHROW(validate_instance_gpus(c, 3, source, "here"));
  const Failure f = failure_of([&] { validate_instance_gpus(c, 2, source, "two GPUs"); });
  CHECK(f.where == "instance_group[1].gpus[0]");
  CHECK(f.message == "instance group g of model m specifies invalid or unsupported gpu id 2 (two GPUs)");
  const Failure none = failure_of([&] { validate_instance_gpus(c, 0, source, "no GPU"); });
  CHECK(none.where == "instance_group[0].kind");
  CHECK(none.message == "instance group ok of model m has kind KIND_GPU but no GPUs are available (no GPU)");
}
