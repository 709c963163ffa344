#pragma once
// The line `run` and `validate` keep on a terminal while a simulation runs: the simulated time
// reached, the events completed, the wall time spent and the time left, estimated from the share of
// the run's known bound (its duration or its jobs' events) done so far. Only on a terminal: files
// and pipes get nothing, and the results are the same either way (sim/simulation.hpp).
#include <chrono>
#include <string>

#include "cli/progress_line.hpp"
#include "sim/simulation.hpp"

namespace sonicsim::cli {

// The line's text after `elapsed_s` seconds of wall time.
std::string simulation_progress_text(const SimulationProgress& progress, double elapsed_s);

// Whether stderr is a terminal (where progress lines go).
bool stderr_is_terminal();

class SimulationProgressLine {
 public:
  explicit SimulationProgressLine(bool show) : line_(show), show_(show) {}
  // What simulate() calls; empty (nothing watched) when the line is not shown.
  ProgressObserver observer();
  // Erases the line, before the results are printed.
  void clear() { line_.clear(); }

 private:
  StatusLine line_;
  bool show_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace sonicsim::cli
