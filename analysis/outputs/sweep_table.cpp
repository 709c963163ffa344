#include "analysis/outputs/sweep_table.hpp"

#include <sstream>

#include "analysis/outputs/output_file.hpp"
#include "analysis/summary/summary.hpp"

namespace sonicsim {
namespace {

using nlohmann::json;

// (column, JSON pointer into summary.json); "{d}" is the scenario's name for its accelerators,
// "gpu" or "device".
const std::vector<std::pair<const char*, const char*>> kMetrics = {
    {"events", "/events/count"},
    {"event_time_mean_s", "/events/time_s/mean"},
    {"event_time_p50_s", "/events/time_s/p50"},
    {"event_time_p90_s", "/events/time_s/p90"},
    {"event_time_p99_s", "/events/time_s/p99"},
    {"cpu_mean_s", "/events/breakdown_mean_s/cpu"},
    {"preprocess_mean_s", "/events/breakdown_mean_s/preprocess"},
    {"network_mean_s", "/events/breakdown_mean_s/network"},
    {"queue_mean_s", "/events/breakdown_mean_s/queue"},
    {"{d}_mean_s", "/events/breakdown_mean_s/{d}"},
    {"events_per_s", "/throughput/events_per_s"},
    {"requests_per_s", "/throughput/requests_per_s"},
    {"requests_rejected", "/requests/rejected"},
    {"mean_batch_items", "/batches/mean_items"},
    {"{d}_utilization", "/{d}/utilization"},
    // The steady state: MSER-5's warm-up cut and the 95% intervals (summary.json "steady_state").
    {"warmup_cut_events", "/steady_state/warmup_cut/events"},
    {"steady_event_time_mean_s", "/steady_state/event_time_s/mean"},
    {"steady_event_time_half_width_s", "/steady_state/event_time_s/half_width_95"},
    {"steady_events_per_s", "/steady_state/events_per_s/mean"},
    {"steady_events_per_s_half_width", "/steady_state/events_per_s/half_width_95"},
};

// Where Prometheus scraped the farm (a gate or an autoscaler): what it cost, and what the gate did.
const std::vector<std::pair<const char*, const char*>> kUsageMetrics = {
    {"{d}_hours", "/usage/{d}_hours"},
    {"{d}_hours_per_1000_events", "/usage/{d}_hours_per_1000_events"},
    {"cost_per_event", "/usage/cost_per_event"},
    {"mean_ready_replicas", "/autoscaling/mean_ready_replicas"},
    {"jobs_gated", "/gate/jobs_refused"},
};

std::string named(std::string text, const DeviceWords& words) {
  for (std::size_t at; (at = text.find("{d}")) != std::string::npos;) text.replace(at, 3, words.key);
  return text;
}

std::string number(const json& value) { return value.is_null() ? "" : value.dump(); }

}  // namespace

std::string sweep_csv(const std::vector<std::string>& pointers, const std::vector<SweepPointResult>& points) {
  std::ostringstream out;
  out << "point";
  for (const auto& p : pointers) out << ',' << csv_field(p);
  out << ",status";
  bool scraped = false;  // the usage columns, only where some point has them: other sweeps keep their columns
  for (const SweepPointResult& p : points) scraped = scraped || (p.summary && p.summary->contains("usage"));
  DeviceWords words = device_words(DeviceNaming::Gpu);  // every point runs the same scenario
  for (const SweepPointResult& p : points)
    if (p.summary) words = device_words_of(*p.summary);
  std::vector<std::pair<std::string, std::string>> metrics;
  for (const auto& [column, pointer] : kMetrics) metrics.emplace_back(named(column, words), named(pointer, words));
  if (scraped)
    for (const auto& [column, pointer] : kUsageMetrics) metrics.emplace_back(named(column, words), named(pointer, words));
  for (const auto& [column, unused] : metrics) out << ',' << column;
  out << ",busiest_link,busiest_link_utilization,error\n";
  for (std::size_t i = 0; i < points.size(); ++i) {
    const SweepPointResult& p = points[i];
    out << i;
    for (const auto& v : p.values) out << ',' << csv_field(v);
    out << ',' << (p.summary ? "ok" : p.error.empty() ? "missing" : "failed");
    for (const auto& [column, pointer] : metrics)
      out << ',' << (p.summary ? number(p.summary->value(json::json_pointer(pointer), json())) : "");
    std::string link_name, link_utilization;
    if (p.summary && p.summary->contains("links")) {
      double best = -1;
      for (const auto& link : (*p.summary)["links"])
        if (link["utilization"].get<double>() > best) {
          best = link["utilization"].get<double>();
          link_name = link["name"].get<std::string>();
          link_utilization = link["utilization"].dump();
        }
    }
    out << ',' << csv_field(link_name) << ',' << link_utilization << ',' << csv_field(p.error) << '\n';
  }
  return out.str();
}

}  // namespace sonicsim
