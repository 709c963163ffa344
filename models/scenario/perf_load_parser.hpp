#pragma once
#include <vector>

#include "models/io/json_reader.hpp"
#include "models/scenario/perf_load.hpp"
#include "models/scenario/scenario.hpp"

namespace sonicsim {

// The scenario's "perf_analyzer" object; `models` resolves the model name.
PerfAnalyzerLoad parse_perf_analyzer(const JsonNode& node, const std::vector<ModelSpec>& models);

}  // namespace sonicsim
