#pragma once
// `validate --run DIR`: the simulated side read from the files a run wrote (sonicsim run SCENARIO
// --output DIR) instead of simulated again. Only the files the logs need are read, a row at a time.
#include <string>

#include "cli/validate/simulated_side.hpp"
#include "models/scenario/scenario.hpp"

namespace sonicsim::cli {

// What the logs need of the run's files beyond summary.json (which holds Triton's counters).
struct RunNeeds {
  bool events = false;      // events.csv: event logs and condor_history
  bool jobs = false;        // jobs.csv: per-job throughput logs
  bool timeseries = false;  // timeseries.csv: Prometheus exports
};

// The run must be of `scenario` (with validate's --set): summary.json's scenario name, seed and
// latency quantile must be the scenario's. summary.json holds no digest of the scenario, so a run
// made with other --set values for anything else is not told apart. A file the logs need that the
// run did not write is an InputError naming it and the /simulation/outputs entry that writes it.
SimulatedSide read_recorded_run(const std::string& dir, const Scenario& scenario, const RunNeeds& needs);

}  // namespace sonicsim::cli
