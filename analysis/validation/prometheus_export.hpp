#pragma once
// Prometheus range-query exports: the JSON that /api/v1/query_range returns (and Grafana's query
// inspector shows under "response"), read into the farm's series over time, one timeseries.csv
// column each, so that a recorded farm can be compared with a simulated one.
#include <optional>
#include <string>
#include <vector>

namespace sonicsim::validation {

// The timeseries.csv columns an export can stand for.
const std::vector<std::string>& prometheus_columns();

// One series of a range query: its labels' __name__ ("" for an expression) and its samples in time
// order; a "NaN" sample is kept as NaN.
struct PromSeries {
  std::string name;
  std::vector<double> t_s;     // Unix time, s
  std::vector<double> values;  // as the export writes them
  std::string values_pointer;  // JSON pointer of its "values", for errors naming a sample
};

struct PromExport {
  std::string path;
  std::vector<PromSeries> series;
};

// Whether `text` looks like a range-query export (a JSON object with "resultType").
bool is_prometheus_export(const std::string& text);
PromExport parse_prometheus_export(const std::string& text, const std::string& path);

// A column measured over time on the export's evaluation grid (every timestamp any series has):
// value[k] is empty where no series has a finite sample (a gap, a NaN, or every series stale).
struct MeasuredColumn {
  std::string column;  // "ready", "metric", ...
  std::string path;
  std::vector<double> t_s;  // Unix time, s
  std::vector<std::optional<double>> values;
  int nan_samples = 0;     // "NaN", "+Inf" or "-Inf" samples left out
  int counter_resets = 0;  // counter decreases read as restarts from 0
};

// The column `column` from an export: its series combined as the column is defined (ready and
// requests/s summed over series, GPU utilisation averaged, the metric and the queue time from one
// series). A counter (a name ending in _total, or Triton's nv_inference_request_success) is
// turned into its per-second rate between consecutive samples, a decrease counted as a restart
// from 0, as Prometheus's rate() does. Every finite sample must be in the column's range (a whole
// number of ready replicas up to 10,000, a utilisation from 0 to 1, ...; a counter at least 0 and
// its rate within the requests/s range): otherwise an InputError naming the sample's JSON pointer.
MeasuredColumn measured_column(const PromExport& file, const std::string& column);

// The column a series name is documented to be ("" if none): kube-state-metrics' ready replicas,
// Triton's success counter, its GPU utilisation gauge.
std::string column_of_metric_name(const std::string& name);

}  // namespace sonicsim::validation
