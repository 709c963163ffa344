#include "models/triton/model_config_json.hpp"

#include <limits>

namespace sonicsim::triton {
namespace {

constexpr Choice<TimeoutAction> kTimeoutActions[]{{"REJECT", TimeoutAction::Reject}, {"DELAY", TimeoutAction::Delay}};

double json_microseconds_s(const JsonNode& node) { return static_cast<double>(node.integer_at_least(0)) / 1e6; }

QueuePolicy read_json_policy(const JsonNode& node) {
  node.allow_only({"timeout_action", "default_timeout_microseconds", "allow_timeout_override", "max_queue_size"});
  QueuePolicy policy;
  if (auto action = node.find("timeout_action")) policy.timeout_action = action->choice(kTimeoutActions);
  if (auto t = node.find("default_timeout_microseconds")) policy.default_timeout_s = json_microseconds_s(*t);
  if (auto o = node.find("allow_timeout_override")) policy.allow_timeout_override = o->boolean();
  if (auto q = node.find("max_queue_size")) policy.max_queue_size = q->int_at_least(0);
  return policy;
}

// Keys of priority_queue_policy are priority levels written as strings, as in Triton's JSON.
int priority_level(const std::string& key, const JsonNode& entry) {
  const bool digits = !key.empty() && key.size() <= 9 && key.find_first_not_of("0123456789") == std::string::npos;
  if (!digits) entry.fail("expected a priority level (a whole number such as \"1\") as key, got \"" + key + "\"");
  return std::stoi(key);
}

DynamicBatchingConfig read_json_dynamic_batching(const JsonNode& node) {
  node.allow_only({"preferred_batch_size", "max_queue_delay_microseconds", "preserve_ordering", "priority_levels",
                   "default_priority_level", "default_queue_policy", "priority_queue_policy"});
  DynamicBatchingConfig batching;
  if (auto sizes = node.find("preferred_batch_size"))
    for (const JsonNode& size : sizes->elements())
      batching.preferred_batch_sizes.push_back(size.int_at_least(std::numeric_limits<int>::min()));
  if (auto delay = node.find("max_queue_delay_microseconds")) batching.max_queue_delay_s = json_microseconds_s(*delay);
  if (auto p = node.find("preserve_ordering")) batching.preserve_ordering = p->boolean();
  if (auto levels = node.find("priority_levels")) batching.priority_levels = levels->int_at_least(0);
  if (auto level = node.find("default_priority_level")) batching.default_priority_level = level->int_at_least(0);
  if (auto policy = node.find("default_queue_policy")) batching.default_queue_policy = read_json_policy(*policy);
  if (auto policies = node.find("priority_queue_policy"))
    for (const std::string& key : policies->keys()) {
      const JsonNode entry = policies->at(key);
      batching.priority_queue_policy[priority_level(key, entry)] = read_json_policy(entry);
    }
  return batching;
}

// Fields of Triton's instance group that do not change scheduling here, present in what
// `GET v2/models/<m>/config` returns: accepted so a group can be pasted whole, type-checked, ignored.
void check_ignored_group_fields(const JsonNode& node) {
  if (auto host_policy = node.find("host_policy")) host_policy->string();
  if (auto profiles = node.find("profile"))
    for (const JsonNode& profile : profiles->elements()) profile.string();
  if (auto devices = node.find("secondary_devices"))
    for (const JsonNode& device : devices->elements()) device.allow_only({"kind", "device_id"});
  if (auto limiter = node.find("rate_limiter")) limiter->allow_only({"resources", "priority"});
}

InstanceGroup read_instance_group(const JsonNode& node) {
  node.allow_only(
      {"name", "kind", "count", "gpus", "passive", "rate_limiter", "host_policy", "profile", "secondary_devices"});
  check_ignored_group_fields(node);
  InstanceGroup group;
  if (auto name = node.find("name")) group.name = name->string();
  if (auto kind = node.find("kind")) group.kind = kind->choice(kInstanceKinds);
  group.count = 0;  // unset: Triton's default, decided by normalisation
  if (auto count = node.find("count")) group.count = count->int_at_least(1);
  if (auto gpus = node.find("gpus"))
    for (const JsonNode& gpu : gpus->elements()) group.gpus.push_back(gpu.int_at_least(0));
  if (auto passive = node.find("passive")) group.passive = passive->boolean();
  return group;
}

TensorConfig read_json_tensor(const JsonNode& node, bool input) {
  if (input)
    node.allow_only({"name", "data_type", "dims", "allow_ragged_batch", "format"});
  else
    node.allow_only({"name", "data_type", "dims", "label_filename"});
  TensorConfig tensor;
  tensor.name = node.at("name").string();
  tensor.data_type = node.at("data_type").string();
  for (const JsonNode& dim : node.at("dims").elements()) tensor.dims.push_back(dim.integer_at_least(-1));
  if (input)
    if (auto ragged = node.find("allow_ragged_batch")) tensor.allow_ragged_batch = ragged->boolean();
  return tensor;
}

}  // namespace

void read_inline_triton_config(const JsonNode& model, ModelConfig& config) {
  if (auto inputs = model.find("input"))
    for (const JsonNode& input : inputs->non_empty_elements()) config.inputs.push_back(read_json_tensor(input, true));
  if (auto outputs = model.find("output"))
    for (const JsonNode& output : outputs->non_empty_elements())
      config.outputs.push_back(read_json_tensor(output, false));
  if (auto batching = model.find("dynamic_batching")) config.dynamic_batching = read_json_dynamic_batching(*batching);
  if (auto groups = model.find("instance_group"))
    for (const JsonNode& group : groups->elements()) config.instance_groups.push_back(read_instance_group(group));
}

}  // namespace sonicsim::triton
