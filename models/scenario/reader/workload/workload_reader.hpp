#pragma once
// The scenario's /workload: the jobs (how many, their start or submit pattern, their events or
// duration) and the modules each event runs.
#include <vector>

#include "models/io/json/json_reader.hpp"
#include "models/scenario/model_spec.hpp"
#include "models/scenario/workload.hpp"

namespace sonicsim {

// `models` resolves the inference modules' model names. A relative trace file is taken from the
// scenario file's directory.
Workload read_workload(const JsonNode& node, const std::vector<ModelSpec>& models);

}  // namespace sonicsim
