#pragma once
// The Triton side of a scenario's model: max_batch_size, the instances, the scheduler and its
// settings, taken from a config.pbtxt ("triton_config") or from keys written inline, validated
// and normalised as Triton would for the servers that serve the model (scenarios/README.md,
// "Triton configuration").
#include "models/io/json/json_reader.hpp"
#include "models/scenario/model_spec.hpp"
#include "models/scenario/platform.hpp"

namespace sonicsim {

// Reads max_batch_size, instances_per_gpu, triton_config, dynamic_batching, instance_group and
// batcher_wakeup from the model object `node` into `model` (whose name is set). A relative
// triton_config path is taken from the scenario file's directory. The platform's groups that serve
// the model decide what Triton's normalisation makes of it (KIND_AUTO, the listed GPUs).
void read_model_triton_settings(const JsonNode& node, const Platform& platform, ModelSpec& model);

// Instances on the server's CPU (KIND_CPU, KIND_MODEL) need a kernel latency for GPU type "cpu":
// a "cpu" entry in kernel_latency_by_gpu, or kernel_latency. Call once the latencies are read.
void check_cpu_instance_latency(const JsonNode& node, const ModelSpec& model);

}  // namespace sonicsim
