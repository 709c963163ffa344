#pragma once
// One model of the scenario's /models: what its requests carry, how Triton schedules it, and its
// kernel latency on each device type.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/scenario/request_path.hpp"
#include "models/triton/model_config.hpp"
#include "models/workload/kernel_latency.hpp"
#include "models/workload/kernel_spread.hpp"
#include "models/workload/tensor_bytes.hpp"

namespace sonicsim {

struct ModelSpec {
  std::string name;
  double input_bytes_per_item = 0;
  double output_bytes_per_item = 0;
  // Models with a variable (-1) dim: bytes per element of it, and how their requests batch; the
  // kernel latency is then a function of the elements in a batch instead of its items.
  double input_bytes_per_element = 0;
  double output_bytes_per_element = 0;
  TensorLayout layout = TensorLayout::Fixed;
  std::optional<TensorBytes> shapes;  // from the model's input/output tensors, where given
  // Compute Input / Compute Output around each execution's kernel; absent: none (exec = compute).
  std::optional<StagingSpec> staging;
  // The model's Triton configuration, normalised as Triton does (NormalizeModelConfig): the one copy
  // of its max_batch_size, scheduler (dynamic_batching absent: the default scheduler) and instance
  // groups. Its instance_groups are empty where the scenario gave none: instances_per_gpu places them.
  triton::ModelConfig triton;
  int instances_per_gpu = 1;  // used when triton.instance_groups is empty: this many on every GPU
  triton::BatcherWakeup batcher_wakeup = triton::BatcherWakeup::Idealised;
  triton::BatcherPayloads batcher_payloads = triton::BatcherPayloads::Grow;
  std::string triton_config_path;               // the config.pbtxt these settings came from, if any
  std::optional<KernelLatency> kernel_latency;  // for GPU types not listed below
  std::map<std::string, KernelLatency> kernel_latency_by_gpu;
  std::map<std::string, std::string> latency_file_by_gpu;  // the calibration file of an entry above, as named
  // The spread of single executions around a latency above, where its entry gives one (absent:
  // every execution takes exactly tau(b)).
  std::optional<KernelSpread> kernel_spread;                 // of kernel_latency
  std::map<std::string, KernelSpread> kernel_spread_by_gpu;  // of kernel_latency_by_gpu's entries

  // The tensors one request carries in and out; 0 where the model lists none (bytes per item only).
  int input_tensors() const { return shapes ? shapes->input.tensors : 0; }
  int output_tensors() const { return shapes ? shapes->output.tensors : 0; }
  // The latency model for a GPU type; the scenario parser guarantees one exists for every served type.
  const KernelLatency& latency_for(const std::string& gpu_type) const {
    const auto it = kernel_latency_by_gpu.find(gpu_type);
    return it != kernel_latency_by_gpu.end() ? it->second : *kernel_latency;
  }
  // The spread of the latency latency_for(gpu_type) selects; null where it has none.
  const KernelSpread* spread_for(const std::string& gpu_type) const {
    if (kernel_latency_by_gpu.count(gpu_type)) {
      const auto it = kernel_spread_by_gpu.find(gpu_type);
      return it != kernel_spread_by_gpu.end() ? &it->second : nullptr;
    }
    return kernel_spread ? &*kernel_spread : nullptr;
  }
};

// The index of the model named `name` in `models`; -1 if there is none.
inline int model_index(const std::vector<ModelSpec>& models, const std::string& name) {
  for (std::size_t i = 0; i < models.size(); ++i)
    if (models[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace sonicsim
