#pragma once
// What `sonicsim validate` compares the logs with: the simulation's side, from a run it simulates
// now (in a child process, with a progress line on a terminal) or from the files a run wrote
// (recorded_run.hpp).
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/records.hpp"
#include "analysis/validation/site_logs.hpp"

namespace sonicsim::cli {

using Overrides = std::vector<std::pair<std::string, std::string>>;

struct SimulatedSide {
  std::vector<validation::LoggedEvent> events;  // every event that started after the warm-up cut
  std::vector<double> job_throughputs;          // events/s of every job that ended having run its events
  double end_s = 0;                             // the run's end, s
  // Triton's counters at the end, summed over servers and models (Triton's statistics API).
  double successes = 0, inferences = 0, executions = 0, queue_ns = 0;
  double gpu_utilization = 0;             // mean over the devices, 0..1
  std::vector<TimeseriesRow> timeseries;  // one row per Prometheus scrape
};

// Simulates the grid-job scenario at `path` with `overrides`.
SimulatedSide simulate_side(const std::string& path, const Overrides& overrides);

// A perf_analyzer scenario: each load level simulated in its own process; per level its load
// ("level"), its perf_analyzer row ("row") and the latencies (s) of the requests answered inside
// the windows ("latencies_s").
nlohmann::json simulate_perf_levels(const std::string& path, const Overrides& overrides);

}  // namespace sonicsim::cli
