#include "analysis/validation/metric_ids.hpp"

#include <charconv>
#include <cmath>

#include "analysis/validation/prometheus_export.hpp"

namespace sonicsim::validation {
namespace {

// The rows of compare_distribution for `id` at `quantiles` ("p50"...): mean, quantiles, KS, W1.
void distribution_ids(std::vector<std::string>& ids, const std::string& id, const std::vector<std::string>& quantiles) {
  ids.push_back(id + "_mean");
  for (const std::string& q : quantiles) ids.push_back(id + "_" + q);
  ids.push_back(id + "_ks");
  ids.push_back(id + "_wasserstein");
}

// compare_perf's rows per load level: "perf_" + load + one of these.
const std::vector<std::string>& perf_level_suffixes() {
  static const std::vector<std::string> suffixes = {"inferences_per_s", "p50",         "p99",
                                                    "latency_mean",     "latency_p50", "latency_p90",
                                                    "latency_p99",      "latency_ks",  "latency_wasserstein"};
  return suffixes;
}

}  // namespace

const std::vector<std::string>& known_metric_ids() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> v;
    distribution_ids(v, "event_time", {"p50", "p90", "p99"});
    v.push_back("events_per_s");
    distribution_ids(v, "job_time", {"p50", "p90", "p99"});
    distribution_ids(v, "job_throughput", {"p10", "p50", "p90"});
    for (const char* id : {"requests_per_s", "inferences_per_s", "mean_batch", "queue_per_request", "gpu_utilization"})
      v.push_back(id);
    for (const std::string& column : prometheus_columns()) {
      v.push_back("prom_" + column + "_mean");
      v.push_back("prom_" + column + "_mae");
    }
    v.push_back("prom_ready_lag");
    return v;
  }();
  return ids;
}

bool is_known_metric(const std::string& id) {
  for (const std::string& known : known_metric_ids())
    if (id == known) return true;
  if (id.starts_with("prom_ready_time_at_")) {
    const std::string level = id.substr(19);
    return !level.empty() && level.size() <= 6 && level.find_first_not_of("0123456789") == std::string::npos;
  }
  if (!id.starts_with("perf_")) return false;
  for (const std::string& suffix : perf_level_suffixes()) {
    if (id.size() <= 5 + suffix.size() + 1 || !id.ends_with("_" + suffix)) continue;
    const std::string load = id.substr(5, id.size() - 5 - suffix.size() - 1);
    double value = 0;
    const auto [end, error] = std::from_chars(load.data(), load.data() + load.size(), value);
    if (error == std::errc() && end == load.data() + load.size() && std::isfinite(value) && value > 0) return true;
  }
  return false;
}

std::string known_metric_list() {
  std::string list;
  for (const std::string& id : known_metric_ids()) list += (list.empty() ? "" : ", ") + id;
  list += ", prom_ready_time_at_N";
  for (const std::string& suffix : perf_level_suffixes()) list += ", perf_LOAD_" + suffix;
  return list;
}

}  // namespace sonicsim::validation
