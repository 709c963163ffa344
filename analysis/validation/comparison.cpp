#include "analysis/validation/comparison.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/stats/distribution_distance.hpp"
#include "analysis/stats/statistics.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim::validation {
namespace {

double tolerance_for(const Tolerances& t, const std::string& id, double fallback) {
  const auto it = t.by_metric.find(id);
  return it != t.by_metric.end() ? it->second : fallback;
}

ValidationRow row(const std::string& id, const std::string& label, double measured, double simulated, double error,
                  double tolerance) {
  return ValidationRow{id, label, measured, simulated, error, tolerance, std::abs(error) <= tolerance, true, ""};
}

}  // namespace

ValidationRow compare_value(const std::string& id, const std::string& label, double measured, double simulated,
                            const Tolerances& t) {
  const double error = measured != 0 ? (simulated - measured) / measured : (simulated == 0 ? 0.0 : INFINITY);
  return row(id, label, measured, simulated, error, tolerance_for(t, id, t.relative));
}

bool point_mass(const std::vector<double>& values, double resolution) {
  if (values.empty()) return false;
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  const double rounding = 1e-9 * std::max(std::abs(*low), std::abs(*high));
  return *high - *low <= resolution + rounding;
}

std::vector<ValidationRow> compare_distribution(const std::string& id, const std::string& label,
                                                const std::string& unit, const std::vector<double>& quantiles,
                                                const std::vector<double>& measured,
                                                const std::vector<double>& simulated, const Tolerances& t,
                                                double resolution) {
  const stats::Description m = stats::describe(measured), s = stats::describe(simulated);
  std::vector<double> measured_sorted = measured, simulated_sorted = simulated;
  std::sort(measured_sorted.begin(), measured_sorted.end());
  std::sort(simulated_sorted.begin(), simulated_sorted.end());
  std::vector<ValidationRow> rows = {compare_value(id + "_mean", label + " mean (" + unit + ")", m.mean, s.mean, t)};
  for (double q : quantiles) {
    const std::string p = printf_string("p%g", 100 * q);
    rows.push_back(compare_value(id + "_" + p, label + " " + p + " (" + unit + ")",
                                 stats::quantile_sorted(measured_sorted, q),
                                 stats::quantile_sorted(simulated_sorted, q), t));
  }
  const double ks = stats::ks_statistic(measured, simulated);
  rows.push_back(row(id + "_ks", label + " KS statistic", 0, ks, ks, tolerance_for(t, id + "_ks", t.ks)));
  const bool measured_point = point_mass(measured, resolution), simulated_point = point_mass(simulated, resolution);
  if (measured_point || simulated_point) {
    rows.back().applicable = false;
    rows.back().pass = true;
    rows.back().note = std::string(measured_point && simulated_point ? "both are"
                                   : measured_point                  ? "the log is"
                                                                     : "the simulation is") +
                       " a point mass at the log's resolution";
  }
  const double w1 = stats::wasserstein1(measured, simulated);
  // Relative to the measured mean; a mean or distance that left a double's range is no pass.
  const double relative_w1 = !std::isfinite(m.mean) || !std::isfinite(w1) ? NAN : m.mean > 0 ? w1 / m.mean : 0;
  rows.push_back(row(id + "_wasserstein", label + " Wasserstein-1 (" + unit + ")", 0, w1, relative_w1,
                     tolerance_for(t, id + "_wasserstein", t.relative)));
  return rows;
}

std::vector<ValidationRow> compare_times(const std::string& id, const std::string& label,
                                         const std::vector<double>& measured, const std::vector<double>& simulated,
                                         const Tolerances& t, double resolution) {
  return compare_distribution(id, label, "s", {0.50, 0.90, 0.99}, measured, simulated, t, resolution);
}

std::vector<ValidationRow> compare_triton(const TritonWindow& m, const TritonWindow& s, const Tolerances& t) {
  std::vector<ValidationRow> rows = {
      compare_value("requests_per_s", "Triton requests/s", m.requests_per_s, s.requests_per_s, t),
      compare_value("inferences_per_s", "Triton inferences/s", m.inferences_per_s, s.inferences_per_s, t),
      compare_value("mean_batch", "mean batch size (items)", m.mean_batch, s.mean_batch, t),
      compare_value("queue_per_request", "queue time per request (s)", m.queue_per_request_s, s.queue_per_request_s, t),
  };
  if (m.gpu_utilization && s.gpu_utilization)
    rows.push_back(compare_value("gpu_utilization", "GPU utilisation", *m.gpu_utilization, *s.gpu_utilization, t));
  return rows;
}

double events_per_s(const std::vector<LoggedEvent>& events) {
  double first = INFINITY, last = -INFINITY;
  for (const auto& e : events) first = std::min(first, e.start_s), last = std::max(last, e.end_s);
  return last > first ? static_cast<double>(events.size()) / (last - first) : 0;
}

std::string format_rows(const std::vector<ValidationRow>& rows) {
  std::string out =
      printf_string("%-36s %14s %14s %10s %10s  %s\n", "metric", "measured", "simulated", "error", "tolerance", "");
  for (const auto& r : rows) {
    const bool distance = r.id.ends_with("_ks") || r.id.ends_with("_wasserstein") || r.id.ends_with("_mae");
    const std::string measured = distance ? "" : printf_string("%.6g", r.measured);
    if (!r.applicable) {
      out += printf_string("%-36s %14s %14s %10s %10s  %s\n", r.label.c_str(), measured.c_str(), "n/a", "", "",
                           r.note.c_str());
      continue;
    }
    out += printf_string("%-36s %14s %14.6g %9.2f%% %9.2f%%  %s\n", r.label.c_str(), measured.c_str(), r.simulated,
                         100 * r.error, 100 * r.tolerance, r.pass ? "ok" : "FAIL");
  }
  return out;
}

std::string verdict_line(const std::vector<ValidationRow>& rows) {
  std::size_t applicable = 0, failed = 0;
  for (const auto& r : rows) {
    applicable += r.applicable ? 1 : 0;
    failed += r.applicable && !r.pass ? 1 : 0;
  }
  const std::string not_applicable =
      applicable < rows.size() ? " (" + std::to_string(rows.size() - applicable) + " not applicable)" : "";
  return (failed ? std::to_string(failed) + " of " + std::to_string(applicable) + " metrics outside their tolerance"
                 : "all " + std::to_string(applicable) + " metrics within their tolerance") +
         not_applicable + "\n";
}

}  // namespace sonicsim::validation
