#pragma once
// A model's kernel latency: {"type": "affine" | "table" | "knee" | "calibrated", ..., "spread": ...,
// "scale": ...}.
#include <optional>
#include <string_view>

#include "models/io/json/json_reader.hpp"
#include "models/workload/kernel_latency.hpp"
#include "models/workload/kernel_spread.hpp"

namespace sonicsim {

// The type whose latency comes from a calibration's model file (sonicsim calibrate).
inline constexpr std::string_view kCalibratedLatency = "calibrated";

// What reading a kernel latency needs from the rest of the scenario, and what it tells back.
struct LatencyContext {
  std::optional<double> quantile;  // /simulation/latency_quantile
  int calibrated_count = 0;        // "calibrated" latencies read, so an unused quantile is an error
};

// tau(b), and the spread of single executions around it: the entry's "spread"
// (kernel_spread_reader.hpp) or, for a calibrated latency without one, its file's (if any).
struct KernelTime {
  KernelLatency latency;
  std::optional<KernelSpread> spread;
  std::string file;  // a calibrated latency's model file, as the scenario names it
};

// A relative model file path is taken from the scenario file's directory. With "scale" (a number
// > 0), every latency of the curve is multiplied by it: a what-if on a faster or slower device.
KernelTime read_kernel_latency(const JsonNode& node, LatencyContext& context);

}  // namespace sonicsim
