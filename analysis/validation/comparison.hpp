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
  double relative = 0.10;                   // default for every relative error
  double ks = 0.20;                         // default for KS statistics
  std::map<std::string, double> by_metric;  // metric id -> tolerance, overriding the defaults
};

struct ValidationRow {
  std::string id;     // e.g. "event_time_p90": the key of a tolerance
  std::string label;  // e.g. "event time p90 (s)"
  double measured = 0, simulated = 0;
  double error = 0;  // relative error, or the KS statistic / relative W1 distance
  double tolerance = 0;
  bool pass = false;
  // False for a statistic that says nothing about these data (a KS statistic where a distribution
  // is a point mass): shown as "n/a" with `note`, counted neither in nor outside its tolerance.
  bool applicable = true;
  std::string note;
};

// Rows for a distribution of values in `unit`: "ID_mean", one "ID_pNN" per quantile (0.1 -> p10),
// "ID_ks" (the KS statistic) and "ID_wasserstein" (Wasserstein-1 relative to the measured mean).
// Where either distribution is a point mass at `resolution` (its values span at most that much:
// the log's last digit), the KS statistic is not applicable: between two point masses it is 0 or 1
// whatever their distance, which the mean, the quantiles and Wasserstein-1 measure.
std::vector<ValidationRow> compare_distribution(const std::string& id, const std::string& label,
                                                const std::string& unit, const std::vector<double>& quantiles,
                                                const std::vector<double>& measured,
                                                const std::vector<double>& simulated, const Tolerances& tolerances,
                                                double resolution = 0);

// Rows for a time distribution ("event_time" or "job_time"): mean, p50, p90, p99, KS, Wasserstein-1.
std::vector<ValidationRow> compare_times(const std::string& id, const std::string& label,
                                         const std::vector<double>& measured, const std::vector<double>& simulated,
                                         const Tolerances& tolerances, double resolution = 0);

// Whether `values` span at most `resolution` (with room for floating-point rounding of differences).
bool point_mass(const std::vector<double>& values, double resolution);

// "all 7 metrics within their tolerance" or "2 of 7 metrics outside their tolerance", with
// " (1 not applicable)" where rows are not applicable.
std::string verdict_line(const std::vector<ValidationRow>& rows);

ValidationRow compare_value(const std::string& id, const std::string& label, double measured, double simulated,
                            const Tolerances& tolerances);

// Throughput, mean batch size, queue time per request, GPU utilisation.
std::vector<ValidationRow> compare_triton(const TritonWindow& measured, const TritonWindow& simulated,
                                          const Tolerances& tolerances);

// Events per second over a log's span: count / (last end - first start).
double events_per_s(const std::vector<LoggedEvent>& events);

std::string format_rows(const std::vector<ValidationRow>& rows);

}  // namespace sonicsim::validation
