#pragma once
// One of /workload/modules: a CPU module, or an inference module with its client's settings.
#include <vector>

#include "models/io/json/json_reader.hpp"
#include "models/scenario/model_spec.hpp"
#include "models/scenario/workload.hpp"

namespace sonicsim {

// `models` resolves an inference module's model name to its index.
Module read_module(const JsonNode& node, const std::vector<ModelSpec>& models);

}  // namespace sonicsim
