#pragma once
// The scenario's /models: per model, the bytes its requests carry, its Triton settings
// (model_triton_reader.hpp) and its kernel latencies (kernel_latency_reader.hpp).
#include <vector>

#include "models/io/json/json_reader.hpp"
#include "models/scenario/model_spec.hpp"
#include "models/scenario/platform.hpp"
#include "models/scenario/reader/model/kernel_latency_reader.hpp"

namespace sonicsim {

// The models in the order of their keys. `platform` decides how Triton normalises each for the
// groups that serve it; `latency` carries /simulation/latency_quantile in and counts the
// "calibrated" latencies read.
std::vector<ModelSpec> read_models(const JsonNode& node, const Platform& platform, LatencyContext& latency);

}  // namespace sonicsim
