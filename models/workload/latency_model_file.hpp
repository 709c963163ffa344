#pragma once
// The kernel-latency model file written by `sonicsim calibrate` and referenced by a scenario
// ("kernel_latency": {"type": "calibrated", "file": ...}). Only what a simulation needs is read
// back: each fitted form's curve and its bootstrap uncertainty band, and the spread of single
// executions where calibrate fitted one (--spread; files without one keep loading).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/workload/kernel_latency.hpp"
#include "models/workload/kernel_spread.hpp"

namespace sonicsim {

inline constexpr const char* kLatencyModelFormat = "sonicsim latency model v1";

// Pointwise quantiles of tau(b) over bootstrap refits: latency_s[level][i] is the `levels[level]`
// quantile of tau(batches[i]).
struct LatencyBand {
  std::vector<double> levels;   // strictly increasing, in (0, 1)
  std::vector<double> batches;  // strictly increasing
  std::vector<std::vector<double>> latency_s;
};

struct CalibratedForm {
  KernelLatency curve;
  std::optional<LatencyBand> band;
};

struct LatencyModelFile {
  std::string path;
  std::string selected;                         // the form used when a scenario names none
  std::map<std::string, CalibratedForm> forms;  // "table", "affine", "knee"
  std::optional<KernelSpread> spread;           // the executions' spread around the curve, if fitted
};

// Throws InputError naming the file and the JSON pointer of anything malformed.
LatencyModelFile read_latency_model_file(const std::string& path);
LatencyModelFile parse_latency_model_file(const std::string& text, const std::string& path);

// The q-quantile curve of a band, as a table over the band's batch sizes. Between two stored
// levels the latency is interpolated linearly in q. q must lie within [levels.front(), levels.back()].
TableLatency band_quantile(const LatencyBand& band, double q);

}  // namespace sonicsim
