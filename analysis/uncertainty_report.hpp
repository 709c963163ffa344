#pragma once
// What the runs of a design over declared unknowns say (models/scenario/unknowns/): each output's
// band and first-order indices (analysis/stats/uncertainty.hpp), as summary.json and the terminal
// give them, and the rule that says when more runs would not move a band.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/stats/uncertainty.hpp"
#include "analysis/summary/summary.hpp"
#include "models/scenario/unknowns/unknowns_design.hpp"

namespace sonicsim {

// One output of the design's runs: its value in each run, in the design's order.
struct DesignOutput {
  std::string output, unit;
  std::vector<double> values;
};

// `points` and each output's values: the sound runs only.
UnknownsSummary summarize_unknowns(const std::vector<DeclaredUnknown>& unknowns, const std::vector<DesignPoint>& points,
                                   const std::vector<DesignOutput>& outputs, const std::string& design,
                                   std::uint64_t design_seed, std::size_t batches, const std::string& stopped);

// The unknowns, then one line per output: median, the 90% band, and the unknowns that explain it.
std::string format_unknowns(const UnknownsSummary& unknowns);

// The stopping rule on a band: another batch moved each of its median and ends by at most 5% of its
// width (or 0.1% of the median, where the band is narrow).
bool band_steady(const stats::Band& before, const stats::Band& now);

}  // namespace sonicsim
