#pragma once
// The runs of a design over a scenario's declared unknowns, for run, sweep and plan: batches of a
// Latin hypercube (models/scenario/unknowns/unknowns_design.hpp) until the watched output's band is
// steady (analysis/uncertainty_report.hpp), or exactly --samples runs. Every run has the scenario's
// own seed (common random numbers: the unknowns alone differ between runs), the design its own
// random stream.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/uncertainty_report.hpp"
#include "models/scenario/unknowns/unknowns_design.hpp"

namespace sonicsim::cli {

using Overrides = std::vector<std::pair<std::string, std::string>>;

struct DesignOptions {
  std::optional<std::size_t> samples;  // exactly this many runs, one Latin hypercube; else the rule
  std::size_t max_samples = 200;
  std::uint64_t seed = 0;  // the design's
};

// What one run of the design gives: its outputs, in the order named, or why it is unsound.
struct PointResult {
  std::vector<double> outputs;
  std::vector<std::string> unsound;
};

// Runs the design: `run` simulates a batch of points (their overrides) and returns their results.
// `outputs`: (name, unit) of what `run` returns; the band of outputs[0] is the rule's.
UnknownsSummary run_design(const std::vector<DeclaredUnknown>& unknowns, const DesignOptions& options,
                           const std::vector<std::pair<std::string, std::string>>& outputs,
                           const std::function<std::vector<PointResult>(const std::vector<Overrides>&)>& run);

// The overrides that give each unknown its value at a design point, or its nominal value.
Overrides point_overrides(const std::vector<DeclaredUnknown>& unknowns, const DesignPoint& point);
Overrides nominal_overrides(const std::vector<DeclaredUnknown>& unknowns);

// --samples and --max-samples, checked (an InputError-free boost::program_options::error).
DesignOptions design_options(const std::optional<std::size_t>& samples, const std::optional<std::size_t>& max_samples,
                             std::uint64_t seed);

}  // namespace sonicsim::cli
