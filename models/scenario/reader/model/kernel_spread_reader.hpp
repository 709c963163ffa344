#pragma once
// A kernel latency's "spread": {"distribution": "lognormal" | "gamma", "cv": 0.05} (one cv for every
// batch size), "cv": [{"batch": 1, "cv": 0.2}, {"batch": 256, "cv": 0.01}] (per batch size), or
// "none" (every execution takes exactly tau(b), also where a calibrated file has a spread).
#include <optional>

#include "models/io/json/json_reader.hpp"
#include "models/workload/kernel_spread.hpp"

namespace sonicsim {

// nullopt for "none".
std::optional<KernelSpread> read_kernel_spread(const JsonNode& node);

}  // namespace sonicsim
