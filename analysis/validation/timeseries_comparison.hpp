#pragma once
// A recorded farm's series over time (Prometheus exports) against the simulated timeseries.csv:
// per series the mean absolute error and the time-weighted mean; for the ready replicas, the share
// of time at each count and the lag from each load step to the first new ready replica.
#include <string>
#include <vector>

#include "analysis/records.hpp"
#include "analysis/validation/comparison.hpp"
#include "analysis/validation/prometheus_export.hpp"

namespace sonicsim::validation {

// `start_unix_s`: the Unix time of the simulation's t = 0. `load_steps_s`: simulated times of the
// load steps after which the lag to the first new ready replica is measured. Rows' ids:
// prom_COLUMN_mean, prom_COLUMN_mae, prom_ready_time_at_N, prom_ready_lag. Samples outside the
// run (before its t = 0, or after one scrape interval past its last scrape) are left out, and a
// sample's time is cut at the run's end; `notes` gets a line per file and side saying how many.
std::vector<ValidationRow> compare_timeseries(const std::vector<MeasuredColumn>& measured,
                                              const std::vector<TimeseriesRow>& simulated, double start_unix_s,
                                              const std::vector<double>& load_steps_s, const Tolerances& tolerances,
                                              std::vector<std::string>* notes = nullptr);

// Load steps of a simulated run: scrapes at which the jobs running rose by at least a quarter of
// the most that ran at once since the previous scrape.
std::vector<double> load_steps(const std::vector<TimeseriesRow>& simulated);

// The simulated value of `column` in a row, if it has one.
std::optional<double> simulated_value(const TimeseriesRow& row, const std::string& column);

}  // namespace sonicsim::validation
