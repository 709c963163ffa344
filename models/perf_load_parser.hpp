#pragma once
#include <vector>

#include "models/json_reader.hpp"
#include "models/perf_load.hpp"
#include "models/scenario.hpp"

namespace sonicsim {

// The scenario's "perf_analyzer" object; `models` resolves the model name.
PerfAnalyzerLoad parse_perf_analyzer(const JsonNode& node, const std::vector<ModelSpec>& models);

}  // namespace sonicsim
