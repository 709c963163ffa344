#pragma once
// The scenario's /costs: prices for `plan`'s cost per event.
#include "models/io/json/json_reader.hpp"
#include "models/scenario/costs.hpp"

namespace sonicsim {

Costs read_costs(const JsonNode& node);

}  // namespace sonicsim
