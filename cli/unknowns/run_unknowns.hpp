#pragma once
// `sonicsim run` on a scenario with declared unknowns: the design's runs (design_runs.hpp), in
// parallel processes, each output's band and indices on the terminal (and in summary.json's
// declared_unknowns section, or --bands FILE); then the nominal run, every unknown at its nominal
// value, as a plain run, with its outputs.
#include <string>
#include <vector>

#include "cli/unknowns/design_runs.hpp"

namespace sonicsim::cli {

struct UnknownsRunOptions {
  DesignOptions design;
  int parallel = 1;
  std::string output, perf_csv, bands;  // empty: not written
  bool quiet = false;
};

// Grid-job scenarios; returns the exit code.
int run_with_unknowns(const std::string& scenario_path, const Overrides& overrides,
                      const std::vector<DeclaredUnknown>& unknowns, const UnknownsRunOptions& options);

}  // namespace sonicsim::cli
