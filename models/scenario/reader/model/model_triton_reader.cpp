#include "models/scenario/reader/model/model_triton_reader.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <utility>
#include <vector>

#include "models/io/json/choice.hpp"
#include "models/io/limits.hpp"
#include "models/scenario/device_naming.hpp"
#include "models/triton/config_pbtxt.hpp"
#include "models/triton/model_config_json.hpp"

namespace sonicsim {
namespace {

constexpr Choice<triton::BatcherWakeup> kBatcherWakeups[]{{"idealised", triton::BatcherWakeup::Idealised},
                                                          {"literal", triton::BatcherWakeup::Literal}};
constexpr Choice<triton::BatcherPayloads> kBatcherPayloads[]{{"grow", triton::BatcherPayloads::Grow},
                                                             {"fixed", triton::BatcherPayloads::Fixed}};

std::vector<const ServerGroup*> groups_serving(const Platform& platform, const std::string& model) {
  std::vector<const ServerGroup*> out;
  for (const ServerGroup& group : platform.servers)
    if (std::find(group.models.begin(), group.models.end(), model) != group.models.end()) out.push_back(&group);
  return out;
}

std::string gpus_description(const ServerGroup& group) {
  const int n = group.gpus_per_server;
  return "server group \"" + group.name + "\" has " + std::to_string(n) + (n == 1 ? " GPU" : " GPUs") +
         " per server, ids 0 to " + std::to_string(n - 1);
}

// The file wins: the scenario may not restate what it sets, except an equal max_batch_size.
triton::ModelConfig read_from_file(const JsonNode& node, const JsonNode& file_key, ModelSpec& model) {
  for (const char* key : {"dynamic_batching", "instance_group", "instances_per_device", "instances_per_gpu"})
    if (auto conflicting = node.find(key))
      conflicting->fail(std::string("\"") + key +
                        "\" cannot be used with \"triton_config\": the file sets the "
                        "scheduling and the instances");
  model.triton_config_path = path_beside(node.file(), file_key.string());
  const std::filesystem::path path = model.triton_config_path;
  if (!std::filesystem::is_regular_file(path) || !std::ifstream(path))
    file_key.fail("cannot open the Triton model configuration \"" + model.triton_config_path + "\"");
  triton::ModelConfig config = triton::read_triton_config(model.triton_config_path, model.name);
  if (auto mbs = node.find("max_batch_size")) {
    const int value = mbs->int_at_least(0);
    if (value != config.max_batch_size)
      mbs->fail("expected " + std::to_string(config.max_batch_size) + ", the max_batch_size of \"" +
                model.triton_config_path + "\" (or no max_batch_size here), got " + std::to_string(value));
  }
  return config;
}

triton::ModelConfig read_inline(const JsonNode& node, ModelSpec& model) {
  triton::ModelConfig config;
  config.name = model.name;
  config.max_batch_size = node.at("max_batch_size").int_at_least(1);  // bounded by validate_model_config
  if (node.find("instance_group")) {
    for (const char* key : {"instances_per_device", "instances_per_gpu"})
      if (auto conflicting = node.find(key))
        conflicting->fail(std::string("\"") + key +
                          "\" cannot be used with \"instance_group\", which places the "
                          "instances itself");
  } else {
    model.instances_per_gpu =
        either_name(node, "instances_per_device", "instances_per_gpu", true)->int_in(1, limits::kMaxInstancesPerGroup);
  }
  triton::read_inline_triton_config(node, config);
  triton::validate_model_config(config, triton::ConfigSource{node.file(), node.pointer()});
  return config;
}

}  // namespace

void read_model_triton_settings(const JsonNode& node, const Platform& platform, ModelSpec& model) {
  const auto file_key = node.find("triton_config");
  triton::ModelConfig config = file_key ? read_from_file(node, *file_key, model) : read_inline(node, model);
  const triton::ConfigSource source = file_key ? triton::ConfigSource{model.triton_config_path, std::nullopt}
                                               : triton::ConfigSource{node.file(), node.pointer()};

  const auto serving = groups_serving(platform, model.name);
  for (const ServerGroup* group : serving)
    triton::validate_instance_gpus(config, group->gpus_per_server, source, gpus_description(*group));
  // The listed GPUs exist on every serving server, so the fewest GPUs resolve KIND_AUTO as all
  // would. A model no server serves never runs; resolve it as if its listed GPUs existed.
  int gpu_count = std::numeric_limits<int>::max();
  for (const ServerGroup* group : serving) gpu_count = std::min(gpu_count, group->gpus_per_server);

  const bool instances_configured = file_key || node.find("instance_group");
  triton::normalize_model_config(config, gpu_count);
  // Without instance groups, instances_per_gpu places the instances, as before instance_group existed.
  if (!instances_configured) config.instance_groups.clear();
  if (!config.inputs.empty() || !config.outputs.empty()) model.shapes = tensor_bytes(config, source);
  model.triton = std::move(config);

  if (auto wakeup = node.find("batcher_wakeup")) model.batcher_wakeup = wakeup->choice(kBatcherWakeups);
  if (auto payloads = node.find("batcher_payloads")) model.batcher_payloads = payloads->choice(kBatcherPayloads);
}

void check_cpu_instance_latency(const JsonNode& node, const ModelSpec& model) {
  if (model.kernel_latency || model.kernel_latency_by_gpu.count("cpu")) return;
  for (const triton::InstanceGroup& group : model.triton.instance_groups)
    if (!group.passive && (group.kind == triton::InstanceKind::Cpu || group.kind == triton::InstanceKind::Model))
      node.fail("instance group \"" + group.name + "\" has kind " + triton::kind_name(group.kind) +
                ": its instances run on the server's CPU, so expected a \"cpu\" entry in \"kernel_latency_by_gpu\" "
                "or a \"kernel_latency\"");
}

}  // namespace sonicsim
