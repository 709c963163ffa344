#pragma once
// The scenario's /perf_analyzer: a perf_analyzer-like load against one model, instead of grid jobs.
#include <vector>

#include "models/io/json/json_reader.hpp"
#include "models/scenario/model_spec.hpp"
#include "models/scenario/perf_load.hpp"

namespace sonicsim {

// `models` resolves the model name.
PerfAnalyzerLoad read_perf_analyzer(const JsonNode& node, const std::vector<ModelSpec>& models);

}  // namespace sonicsim
