#pragma once
// The logs against the simulated side, one ValidationRow per metric: event and job times, per-job
// throughput, Triton's counters, Prometheus series over time, and perf_analyzer's levels.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/validation/comparison.hpp"
#include "cli/validate/simulated_side.hpp"
#include "cli/validate/validation_logs.hpp"

namespace sonicsim::cli {

// A measured load as the logs' tables print it and the rows' ids use it ("%g": 8, 0.5, 1e+06).
std::string load_label(double load);

struct TimeOptions {
  std::optional<double> start_unix_s;  // --prometheus-start
  std::vector<double> load_steps_s;    // --load-step
};

// Grid-job logs against a grid-job run (taken by value: its events are rounded to the logs'
// resolution in place).
std::vector<validation::ValidationRow> compare_with_run(const Logs& logs, SimulatedSide sim, const TimeOptions& times,
                                                        const validation::Tolerances& tolerances);

// perf_analyzer logs against simulate_perf_levels()'s levels.
std::vector<validation::ValidationRow> compare_with_perf_levels(const Logs& logs, const nlohmann::json& levels,
                                                                const validation::Tolerances& tolerances);

}  // namespace sonicsim::cli
