#include "analysis/outputs/sweep_table.hpp"

#include <cmath>
#include <cstdint>
#include <functional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "analysis/knee_search.hpp"
#include "analysis/outputs/output_file.hpp"
#include "analysis/summary/device_keys.hpp"

namespace sonicsim {
namespace {

// Cells are numbers as summary.json writes them (a double keeps its shortest exact form, "2.0"
// included); empty where summary.json has null or nothing.
std::string cell(double x) { return std::isfinite(x) ? nlohmann::json(x).dump() : ""; }
std::string cell(std::int64_t x) { return std::to_string(x); }
std::string cell(std::size_t x) { return std::to_string(x); }
template <class T>
std::string cell(const std::optional<T>& x) {
  return x ? cell(*x) : "";
}
// A metric of an optional section: empty without it.
template <class Section, class Metric>
std::string in(const std::optional<Section>& section, Metric metric) {
  return section ? metric(*section) : "";
}

struct Column {
  const char* name;  // a device_key() pattern
  std::function<std::string(const Summary&)> cell;
};

const std::vector<Column> kMetrics = {
    {"events", [](const Summary& s) { return cell(s.event_time.count); }},
    {"event_time_mean_s", [](const Summary& s) { return cell(s.event_time.mean); }},
    {"event_time_p50_s", [](const Summary& s) { return cell(s.event_time.p50); }},
    {"event_time_p90_s", [](const Summary& s) { return cell(s.event_time.p90); }},
    {"event_time_p99_s", [](const Summary& s) { return cell(s.event_time.p99); }},
    {"cpu_mean_s", [](const Summary& s) { return cell(s.breakdown.cpu_s); }},
    {"preprocess_mean_s", [](const Summary& s) { return cell(s.breakdown.preprocess_s); }},
    {"network_mean_s", [](const Summary& s) { return cell(s.breakdown.network_s); }},
    {"queue_mean_s", [](const Summary& s) { return cell(s.breakdown.queue_s); }},
    {"{d}_mean_s", [](const Summary& s) { return cell(s.breakdown.gpu_s); }},
    {"events_per_s", [](const Summary& s) { return cell(s.events_per_s); }},
    {"requests_per_s", [](const Summary& s) { return cell(s.requests_per_s); }},
    {"requests_rejected", [](const Summary& s) { return cell(s.requests_rejected); }},
    {"mean_batch_items", [](const Summary& s) { return cell(s.mean_batch_items); }},
    {"{d}_utilization", [](const Summary& s) { return cell(s.gpu_utilization); }},
    // The steady state: MSER-5's warm-up cut and the 95% intervals.
    {"warmup_cut_events", [](const Summary& s) { return cell(s.steady.warmup_cut_events); }},
    {"steady_event_time_mean_s",
     [](const Summary& s) { return in(s.steady.event_time_s, [](const auto& i) { return cell(i.mean); }); }},
    {"steady_event_time_half_width_s",
     [](const Summary& s) { return in(s.steady.event_time_s, [](const auto& i) { return cell(i.half_width); }); }},
    {"steady_events_per_s",
     [](const Summary& s) { return in(s.steady.events_per_s, [](const auto& i) { return cell(i.mean); }); }},
    {"steady_events_per_s_half_width",
     [](const Summary& s) { return in(s.steady.events_per_s, [](const auto& i) { return cell(i.half_width); }); }},
};

// Where Prometheus scraped the farm (a gate or an autoscaler): what it cost, and what the gate did.
// Where the scenario declares unknowns: the band of the mean per-event time (as plan reads it) and of
// the throughput over the design's runs at each point.
std::string band_cell(const Summary& s, const std::string& output, double OutputBand::*member) {
  if (!s.declared_unknowns) return "";
  for (const OutputBand& b : s.declared_unknowns->outputs)
    if (b.output == output) return cell(b.*member);
  return "";
}
const std::vector<Column> kBandMetrics = {
    {"band_event_time_median_s",
     [](const Summary& s) { return band_cell(s, "mean per-event time", &OutputBand::median); }},
    {"band_event_time_p5_s", [](const Summary& s) { return band_cell(s, "mean per-event time", &OutputBand::p5); }},
    {"band_event_time_p95_s", [](const Summary& s) { return band_cell(s, "mean per-event time", &OutputBand::p95); }},
    {"band_events_per_s_median", [](const Summary& s) { return band_cell(s, "throughput", &OutputBand::median); }},
    {"band_events_per_s_p5", [](const Summary& s) { return band_cell(s, "throughput", &OutputBand::p5); }},
    {"band_events_per_s_p95", [](const Summary& s) { return band_cell(s, "throughput", &OutputBand::p95); }},
    {"unknowns_runs",
     [](const Summary& s) { return in(s.declared_unknowns, [](const auto& u) { return cell(u.runs); }); }},
};

const std::vector<Column> kUsageMetrics = {
    {"{d}_hours", [](const Summary& s) { return in(s.usage, [](const auto& u) { return cell(u.gpu_hours); }); }},
    {"{d}_hours_per_1000_events",
     [](const Summary& s) { return in(s.usage, [](const auto& u) { return cell(u.gpu_hours_per_1000_events); }); }},
    {"cost_per_event",
     [](const Summary& s) { return in(s.usage, [](const auto& u) { return cell(u.cost_per_event); }); }},
    {"mean_ready_replicas",
     [](const Summary& s) { return in(s.autoscaling, [](const auto& a) { return cell(a.mean_ready_replicas); }); }},
    {"jobs_gated", [](const Summary& s) { return in(s.gate, [](const auto& g) { return cell(g.refused); }); }},
};

}  // namespace

std::string sweep_csv(const std::vector<std::string>& pointers, const std::vector<SweepPointResult>& points) {
  std::ostringstream out;
  out << "point";
  for (const auto& p : pointers) out << ',' << csv_field(p);
  out << ",status";
  bool scraped = false;    // the usage columns, only where some point has them: other sweeps keep their columns
  bool uncertain = false;  // the band columns, likewise only where some point has them
  for (const SweepPointResult& p : points) scraped = scraped || (p.summary && p.summary->usage);
  for (const SweepPointResult& p : points) uncertain = uncertain || (p.summary && p.summary->declared_unknowns);
  DeviceNaming naming = DeviceNaming::Gpu;  // every point runs the same scenario
  for (const SweepPointResult& p : points)
    if (p.summary) naming = p.summary->device_naming;
  std::vector<const Column*> metrics;
  for (const Column& c : kMetrics) metrics.push_back(&c);
  if (scraped)
    for (const Column& c : kUsageMetrics) metrics.push_back(&c);
  if (uncertain)
    for (const Column& c : kBandMetrics) metrics.push_back(&c);
  for (const Column* c : metrics) out << ',' << device_key(c->name, naming);
  out << ",busiest_link,busiest_link_utilization,error\n";
  for (std::size_t i = 0; i < points.size(); ++i) {
    const SweepPointResult& p = points[i];
    out << i;
    for (const auto& v : p.values) out << ',' << csv_field(v);
    out << ',' << (p.summary ? "ok" : p.error.empty() ? "missing" : "failed");
    for (const Column* c : metrics) out << ',' << (p.summary ? c->cell(*p.summary) : "");
    std::string link_name, link_utilization;
    if (p.summary && !p.summary->links.empty()) {
      const BusiestLink link = busiest_link(*p.summary);
      link_name = link.name;
      link_utilization = cell(link.utilization);
    }
    out << ',' << csv_field(link_name) << ',' << link_utilization << ',' << csv_field(p.error) << '\n';
  }
  return out.str();
}

}  // namespace sonicsim
