#pragma once
// Measured against simulated: one row per metric with its error and whether it is within its
// tolerance. Relative errors are (simulated - measured) / measured; the KS statistic is compared
// as it is, and the Wasserstein-1 distance relative to the measured mean.
#include <map>
#include <string>
#include <vector>

#include "analysis/validation/site_logs.hpp"

namespace sonicsim::validation {

struct Tolerances {
  double relative = 0.10;  // default for every relative error
  double ks = 0.20;        // default for KS statistics
  std::map<std::string, double> by_metric;  // metric id -> tolerance, overriding the defaults
};

struct ValidationRow {
  std::string id;     // e.g. "event_time_p90": the key of a tolerance
  std::string label;  // e.g. "event time p90 (s)"
  double measured = 0, simulated = 0;
  double error = 0;   // relative error, or the KS statistic / relative W1 distance
  double tolerance = 0;
  bool pass = false;
};

// Rows for a distribution of values in `unit`: "ID_mean", one "ID_pNN" per quantile (0.1 -> p10),
// "ID_ks" (the KS statistic) and "ID_wasserstein" (Wasserstein-1 relative to the measured mean).
std::vector<ValidationRow> compare_distribution(const std::string& id, const std::string& label, const std::string& unit,
                                                const std::vector<double>& quantiles,
                                                const std::vector<double>& measured,
                                                const std::vector<double>& simulated, const Tolerances& tolerances);

// Rows for a time distribution ("event_time" or "job_time"): mean, p50, p90, p99, KS, Wasserstein-1.
std::vector<ValidationRow> compare_times(const std::string& id, const std::string& label,
                                         const std::vector<double>& measured, const std::vector<double>& simulated,
                                         const Tolerances& tolerances);

ValidationRow compare_value(const std::string& id, const std::string& label, double measured, double simulated,
                            const Tolerances& tolerances);

// Throughput, mean batch size, queue time per request, GPU utilisation.
std::vector<ValidationRow> compare_triton(const TritonWindow& measured, const TritonWindow& simulated,
                                          const Tolerances& tolerances);

// Events per second over a log's span: count / (last end - first start).
double events_per_s(const std::vector<LoggedEvent>& events);

std::string format_rows(const std::vector<ValidationRow>& rows);

}  // namespace sonicsim::validation
