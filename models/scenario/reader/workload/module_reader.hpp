#pragma once
// One of /workload/modules: a CPU module, or an inference module with its client's settings.
#include <optional>
#include <string>
#include <vector>

#include "models/io/json/json_reader.hpp"
#include "models/scenario/model_spec.hpp"
#include "models/scenario/workload.hpp"

namespace sonicsim {

// `models` resolves an inference module's model name to its index.
Module read_module(const JsonNode& node, const std::vector<ModelSpec>& models);

// An inference module given as a name, a model and its client's keys (an inference module's keys
// without type, name and model) in `request`. A "cpu_fallback" in `request` replaces `cpu_fallback`.
InferenceModule read_inference_request(const JsonNode& request, std::string name, const JsonNode& model,
                                       const std::vector<ModelSpec>& models, std::optional<Distribution> cpu_fallback);

}  // namespace sonicsim
