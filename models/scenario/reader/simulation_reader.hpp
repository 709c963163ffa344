#pragma once
// The scenario's /simulation: seed, network model, stack size, outputs, latency quantile and
// stopping rule.
#include "models/io/json/json_reader.hpp"
#include "models/scenario/simulation_options.hpp"

namespace sonicsim {

SimulationOptions read_simulation(const JsonNode& node);

}  // namespace sonicsim
