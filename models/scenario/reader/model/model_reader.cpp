#include "models/scenario/reader/model/model_reader.hpp"

#include <string>

#include "models/scenario/device_naming.hpp"
#include "models/scenario/reader/model/model_triton_reader.hpp"
#include "models/scenario/reader/request_path_reader.hpp"

namespace sonicsim {
namespace {

// Bytes per item: a bare number, as always, or, where the scenario leaves it out, from the model's
// tensors (inline "input"/"output", or its config.pbtxt). Only a model whose input bytes come from
// its tensors can have a variable dim (a padded or ragged layout); with bare input bytes its
// requests are fixed-size, as before tensors were read.
void read_model_bytes(const JsonNode& node, ModelSpec& model) {
  const bool input_from_shapes = !node.find("input_bytes_per_item");
  const auto bytes_of = [&](const char* key, const ItemBytes* from_shapes) {
    if (auto bare = node.find(key)) return ItemBytes{bare->bytes(), 0, {}, true};
    if (!from_shapes || !from_shapes->given)
      node.fail(std::string("expected \"") + key +
                "\", or the model's tensors (\"input\" and \"output\" here, or in "
                "its config.pbtxt) to compute it from");
    if (!from_shapes->unknown.empty()) throw InputError(from_shapes->unknown);
    if (from_shapes->variable() && !input_from_shapes)
      node.at("input_bytes_per_item")
          .fail(
              "the model's outputs have a variable (-1) dim: its bytes must come from its "
              "tensors too (drop \"input_bytes_per_item\")");
    return *from_shapes;
  };
  const ItemBytes input = bytes_of("input_bytes_per_item", model.shapes ? &model.shapes->input : nullptr);
  const ItemBytes output = bytes_of("output_bytes_per_item", model.shapes ? &model.shapes->output : nullptr);
  // A request carries at least its header; SimGrid never completes a transfer of 0 bytes between hosts.
  if (!(input.fixed_bytes > 0 || input.per_element_bytes > 0)) {
    if (auto bare = node.find("input_bytes_per_item")) bare->fail("expected a positive data size");
    node.fail("expected input tensors of a positive size");
  }
  model.input_bytes_per_item = input.fixed_bytes;
  model.input_bytes_per_element = input.per_element_bytes;
  model.output_bytes_per_item = output.fixed_bytes;
  model.output_bytes_per_element = output.per_element_bytes;
  if (model.shapes && input_from_shapes) model.layout = model.shapes->layout;
}

ModelSpec read_model(const std::string& name, const JsonNode& node, const Platform& platform, LatencyContext& latency) {
  node.allow_only({"input_bytes_per_item", "output_bytes_per_item", "max_batch_size", "instances_per_device",
                   "instances_per_gpu", "triton_config", "dynamic_batching", "instance_group", "batcher_wakeup",
                   "batcher_payloads", "kernel_latency", "kernel_latency_by_device", "kernel_latency_by_gpu", "input",
                   "output", "staging"});
  ModelSpec model;
  model.name = name;
  if (node.find("triton_config"))
    for (const char* key : {"input", "output"})
      if (auto conflicting = node.find(key))
        conflicting->fail(std::string("\"") + key +
                          "\" cannot be used with \"triton_config\": the file gives the tensors");
  read_model_triton_settings(node, platform, model);
  read_model_bytes(node, model);
  if (auto staging = node.find("staging")) model.staging = read_staging(*staging);
  if (auto k = node.find("kernel_latency")) {
    KernelTime time = read_kernel_latency(*k, latency);
    model.kernel_latency = std::move(time.latency);
    model.kernel_spread = std::move(time.spread);
  }
  if (auto by_gpu = either_name(node, "kernel_latency_by_device", "kernel_latency_by_gpu", false)) {
    for (const std::string& gpu : by_gpu->keys()) {
      KernelTime time = read_kernel_latency(by_gpu->at(gpu), latency);
      model.kernel_latency_by_gpu.emplace(gpu, std::move(time.latency));
      if (!time.file.empty()) model.latency_file_by_gpu.emplace(gpu, std::move(time.file));
      if (time.spread) model.kernel_spread_by_gpu.emplace(gpu, std::move(*time.spread));
    }
  }
  if (!model.kernel_latency && model.kernel_latency_by_gpu.empty())
    node.fail("expected \"kernel_latency\" or \"kernel_latency_by_device\" (\"kernel_latency_by_gpu\") for model \"" +
              name + "\"");
  check_cpu_instance_latency(node, model);
  return model;
}

}  // namespace

std::vector<ModelSpec> read_models(const JsonNode& node, const Platform& platform, LatencyContext& latency) {
  std::vector<ModelSpec> models;
  for (const std::string& name : node.keys()) models.push_back(read_model(name, node.at(name), platform, latency));
  return models;
}

}  // namespace sonicsim
