#pragma once
// A model's kernel latency: {"type": "affine" | "table" | "knee" | "calibrated", ...}.
#include <optional>
#include <string_view>

#include "models/io/json/json_reader.hpp"
#include "models/workload/kernel_latency.hpp"

namespace sonicsim {

// The type whose latency comes from a calibration's model file (sonicsim calibrate).
inline constexpr std::string_view kCalibratedLatency = "calibrated";

// What reading a kernel latency needs from the rest of the scenario, and what it tells back.
struct LatencyContext {
  std::optional<double> quantile;  // /simulation/latency_quantile
  int calibrated_count = 0;        // "calibrated" latencies read, so an unused quantile is an error
};

// A relative model file path is taken from the scenario file's directory.
KernelLatency read_kernel_latency(const JsonNode& node, LatencyContext& context);

}  // namespace sonicsim
