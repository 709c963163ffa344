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

// The design over a grid-job scenario's unknowns (each run in its own process, `parallel` at once):
// the bands of the per-event time (as plan reads it), its p90, the throughput, the devices'
// utilisation and the busiest link's.
UnknownsSummary grid_design(const std::string& scenario_path, const Overrides& overrides,
                            const std::vector<DeclaredUnknown>& unknowns, const DesignOptions& design, int parallel,
                            bool quiet);

// Grid-job scenarios and perf_analyzer loads; returns the exit code.
int run_with_unknowns(const std::string& scenario_path, const Overrides& overrides,
                      const std::vector<DeclaredUnknown>& unknowns, const UnknownsRunOptions& options);

}  // namespace sonicsim::cli
