#include "models/triton/model_config.hpp"

#include "models/io/input_error.hpp"
#include "models/io/limits.hpp"

namespace sonicsim::triton {
namespace {

std::string group_name(const ModelConfig& config, std::size_t index) {
  const std::string& name = config.instance_groups[index].name;
  return name.empty() ? config.name + "_" + std::to_string(index) : name;
}

std::string group_prefix(const ModelConfig& config, std::size_t index) {
  return "instance group " + group_name(config, index) + " of model " + config.name;
}

// Triton reads the backend after auto-completion, which derives it from the platform.
bool uses_two_cpu_instances(const std::string& backend) {
  return backend == "onnxruntime" || backend == "onnxruntime_onnx" || backend == "tensorflow" ||
         backend == "tensorflow_savedmodel" || backend == "tensorflow_graphdef";
}

void validate_dynamic_batching(const ModelConfig& config, const DynamicBatchingConfig& batching,
                               const ConfigSource& source) {
  const std::string model = " for " + config.name;
  for (std::size_t i = 0; i < batching.preferred_batch_sizes.size(); ++i) {
    const int size = batching.preferred_batch_sizes[i];
    if (size <= 0)
      source.fail({"dynamic_batching", "preferred_batch_size", i},
                  "dynamic batching preferred size must be positive" + model);
    if (size > config.max_batch_size)
      source.fail({"dynamic_batching", "preferred_batch_size", i},
                  "dynamic batching preferred size must be <= max batch size" + model);
  }
  const int levels = batching.priority_levels;
  if (levels != 0) {
    const std::string range = "[1, " + std::to_string(levels) + "]";
    if (batching.default_priority_level < 1 || batching.default_priority_level > levels)
      source.fail({"dynamic_batching", "default_priority_level"},
                  "default priority level must be in range " + range + model);
    for (const auto& [level, policy] : batching.priority_queue_policy)
      if (level < 1 || level > levels)
        source.fail({"dynamic_batching", "priority_queue_policy", level},
                    "priority queue policy must have priority level in range " + range + model);
  }
  if (batching.preserve_ordering) {
    if (levels > 1)
      source.fail({"dynamic_batching", "priority_levels"},
                  "Only one priority level is allowed when 'preserve_ordering' is true" + model);
    const std::string delay =
        "Queue policy can not have DELAY as timeout action when 'preserve_ordering' is true" + model;
    auto delays = [](const QueuePolicy& p) {
      return p.default_timeout_s != 0 && p.timeout_action == TimeoutAction::Delay;
    };
    if (delays(batching.default_queue_policy))
      source.fail({"dynamic_batching", "default_queue_policy", "timeout_action"}, delay);
    for (const auto& [level, policy] : batching.priority_queue_policy)
      if (delays(policy)) source.fail({"dynamic_batching", "priority_queue_policy", level, "timeout_action"}, delay);
  }
}

// Bounds of sonicsim's own (models/io/limits.hpp), beyond Triton's rules: sizes it can simulate.
void check_simulated_sizes(const ModelConfig& config, const ConfigSource& source) {
  if (config.max_batch_size > limits::kMaxBatchSize)
    source.fail({"max_batch_size"}, "sonicsim simulates a max_batch_size of at most " +
                                        std::to_string(limits::kMaxBatchSize) + ", got " +
                                        std::to_string(config.max_batch_size));
  for (std::size_t i = 0; i < config.instance_groups.size(); ++i)
    if (config.instance_groups[i].count > limits::kMaxInstancesPerGroup)
      source.fail({"instance_group", i, "count"},
                  "sonicsim simulates at most " + std::to_string(limits::kMaxInstancesPerGroup) +
                      " instances per group (per GPU), got " + std::to_string(config.instance_groups[i].count));
  if (!config.dynamic_batching) return;
  const DynamicBatchingConfig& batching = *config.dynamic_batching;
  if (batching.priority_levels > limits::kMaxPriorityLevels)
    source.fail({"dynamic_batching", "priority_levels"},
                "sonicsim simulates at most " + std::to_string(limits::kMaxPriorityLevels) + " priority levels, got " +
                    std::to_string(batching.priority_levels));
  if (batching.max_queue_delay_s > limits::kMaxDurationS)
    source.fail({"dynamic_batching", "max_queue_delay_microseconds"}, "expected at most 1e14 (1e8 s)");
  const auto check_policy = [&](const QueuePolicy& policy, std::initializer_list<FieldStep> field) {
    if (policy.default_timeout_s > limits::kMaxDurationS) source.fail(field, "expected at most 1e14 (1e8 s)");
  };
  check_policy(batching.default_queue_policy,
               {"dynamic_batching", "default_queue_policy", "default_timeout_microseconds"});
  for (const auto& [level, policy] : batching.priority_queue_policy)
    check_policy(policy, {"dynamic_batching", "priority_queue_policy", level, "default_timeout_microseconds"});
}

}  // namespace

std::string kind_name(InstanceKind kind) { return std::string(choice_name(kInstanceKinds, kind)); }

std::string ConfigSource::path(std::initializer_list<FieldStep> steps) const {
  std::string out = json_pointer.value_or("");
  for (const FieldStep& step : steps) {
    const std::string text = step.is_index ? std::to_string(step.index) : step.name;
    if (json_pointer) {
      out.append("/").append(text);
    } else if (step.is_index) {
      out.append("[").append(text).append("]");
    } else {
      if (!out.empty()) out.append(".");
      out.append(text);
    }
  }
  return out;
}

void ConfigSource::fail(std::initializer_list<FieldStep> steps, const std::string& message) const {
  throw InputError(file, path(steps), message);
}

void validate_model_config(const ModelConfig& config, const ConfigSource& source) {
  if (config.max_batch_size < 0)
    source.fail({"max_batch_size"}, "'max_batch_size' must be non-negative value for " + config.name);
  if (config.dynamic_batching) validate_dynamic_batching(config, *config.dynamic_batching, source);
  check_simulated_sizes(config, source);
  for (std::size_t i = 0; i < config.instance_groups.size(); ++i) {
    const InstanceGroup& group = config.instance_groups[i];
    // Triton replaces a count below 1 by the default; 0 is what an unset count reads as, but a
    // negative count is a mistake worth reporting.
    if (group.count < 0)
      source.fail({"instance_group", i, "count"}, group_prefix(config, i) + " must specify 'count' >= 1");
    if ((group.kind == InstanceKind::Cpu || group.kind == InstanceKind::Model) && !group.gpus.empty())
      source.fail({"instance_group", i, "gpus"},
                  group_prefix(config, i) + " has kind " + kind_name(group.kind) + " but specifies one or more GPUs");
  }
}

void validate_instance_gpus(const ModelConfig& config, int gpu_count, const ConfigSource& source,
                            const std::string& server) {
  for (std::size_t i = 0; i < config.instance_groups.size(); ++i) {
    const InstanceGroup& group = config.instance_groups[i];
    if (group.kind != InstanceKind::Gpu && group.kind != InstanceKind::Auto) continue;
    if (group.kind == InstanceKind::Gpu && gpu_count == 0)
      source.fail({"instance_group", i, "kind"},
                  group_prefix(config, i) + " has kind KIND_GPU but no GPUs are available (" + server + ")");
    for (std::size_t j = 0; j < group.gpus.size(); ++j) {
      const int gpu = group.gpus[j];
      if (gpu < 0 || gpu >= gpu_count)
        source.fail({"instance_group", i, "gpus", j}, group_prefix(config, i) +
                                                          " specifies invalid or unsupported gpu id " +
                                                          std::to_string(gpu) + " (" + server + ")");
    }
  }
}

std::vector<int> normalized_preferred_sizes(int max_batch_size, std::vector<int> preferred) {
  if (preferred.empty() && max_batch_size > 0) preferred.push_back(max_batch_size);
  return preferred;
}

void normalize_model_config(ModelConfig& config, int gpu_count) {
  if (config.dynamic_batching)
    config.dynamic_batching->preferred_batch_sizes =
        normalized_preferred_sizes(config.max_batch_size, std::move(config.dynamic_batching->preferred_batch_sizes));

  if (config.instance_groups.empty()) {
    InstanceGroup group;
    group.name = config.name;  // Triton names the group it adds after the model, without an index
    group.count = 0;
    config.instance_groups.push_back(group);
  }
  for (std::size_t i = 0; i < config.instance_groups.size(); ++i) {
    config.instance_groups[i].name = group_name(config, i);
    InstanceGroup& group = config.instance_groups[i];
    if (group.kind == InstanceKind::Auto) {
      bool listed_gpus_exist = gpu_count > 0;
      for (const int gpu : group.gpus) listed_gpus_exist = listed_gpus_exist && gpu >= 0 && gpu < gpu_count;
      group.kind = listed_gpus_exist ? InstanceKind::Gpu : InstanceKind::Cpu;
    }
    if (group.count < 1)
      group.count = group.kind == InstanceKind::Cpu && uses_two_cpu_instances(config.backend) ? 2 : 1;
  }
}

}  // namespace sonicsim::triton
