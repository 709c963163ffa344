#include "analysis/validation/prometheus_export.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include "models/io/json/json_reader.hpp"
#include "models/io/limits.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim::validation {
namespace {

// A sample value: Prometheus writes them as JSON strings, since JSON has no NaN or Inf ("NaN",
// "+Inf", "-Inf"; HTTP API docs, "Expression query result formats").
double sample_value(const JsonNode& node) {
  if (!node.raw().is_string()) node.fail("expected a sample value as a string (e.g. \"1.5\" or \"NaN\")");
  const std::string text = node.string();
  if (text == "NaN") return NAN;
  if (text == "+Inf" || text == "Inf") return INFINITY;
  if (text == "-Inf") return -INFINITY;
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    node.fail("expected a number, \"NaN\", \"+Inf\" or \"-Inf\", got \"" + text + "\"");
  return value;
}

bool is_counter(const std::string& name) {
  return name.ends_with("_total") || name == "nv_inference_request_success" || name == "nv_inference_count" ||
         name == "nv_inference_exec_count" || name == "nv_inference_queue_duration_us";
}

// How a column combines several series at one time.
enum class Combine { Sum, Mean, One };

Combine combine_of(const std::string& column) {
  if (column == "ready" || column == "requests_per_s") return Combine::Sum;
  if (column == "gpu_utilization") return Combine::Mean;
  return Combine::One;
}

// What one sample of a column may be: a value outside is no measurement of it (a replica count
// of 1e308 read as "-9223372036854775808 ready"), and sums of such values leave a double's range.
struct ColumnRange {
  const char* what;  // "a whole number of ready replicas", ...
  double max;
  const char* unit;  // after the bound, e.g. " requests/s"
  bool whole = false;
};

ColumnRange range_of(const std::string& column) {
  if (column == "ready")  // one deployment's pods: at most a server group's servers
    return {"a whole number of ready replicas", static_cast<double>(limits::kMaxServersPerGroup), "", true};
  if (column == "requests_per_s") return {"a request rate", 1e9, " requests/s"};
  if (column == "gpu_utilization") return {"a GPU utilisation", 1, " (a fraction)"};
  if (column == "queue_ms") return {"a queue time per request", limits::kMaxDurationS * 1e3, " ms"};
  return {"a load metric", 1e12, " (the largest threshold a scenario takes)"};
}

[[noreturn]] void sample_error(const std::string& path, const PromSeries& s, std::size_t k,
                               const std::string& message) {
  throw InputError(path, s.values_pointer + "/" + std::to_string(k) + "/1", message);
}

void check_in_range(const std::string& path, const PromSeries& s, std::size_t k, const ColumnRange& range, double v) {
  if (v >= 0 && v <= range.max && (!range.whole || v == std::floor(v))) return;
  sample_error(path, s, k, printf_string("expected %s from 0 to %g%s, got %g", range.what, range.max, range.unit, v));
}

}  // namespace

const std::vector<std::string>& prometheus_columns() {
  static const std::vector<std::string> columns = {"ready", "metric", "requests_per_s", "queue_ms", "gpu_utilization"};
  return columns;
}

std::string column_of_metric_name(const std::string& name) {
  if (name == "kube_deployment_status_replicas_ready" || name == "kube_deployment_status_replicas_available")
    return "ready";
  if (name == "nv_inference_request_success") return "requests_per_s";
  if (name == "nv_gpu_utilization") return "gpu_utilization";
  return "";
}

bool is_prometheus_export(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string::npos && text[first] == '{' && text.find("\"resultType\"") != std::string::npos;
}

// The response of GET /api/v1/query_range (https://prometheus.io/docs/prometheus/latest/querying/api/,
// "Range queries" and "Range vectors"): {"status": "success", "data": {"resultType": "matrix",
// "result": [{"metric": {LABEL: VALUE, ...}, "values": [[UNIX_TIME, "VALUE"], ...]}, ...]}}.
// Grafana's query inspector wraps the same response as {"request": ..., "response": RESPONSE}.
PromExport parse_prometheus_export(const std::string& text, const std::string& path) {
  const nlohmann::json document = parse_json_text(text, path);
  const JsonNode top(document, "", path);
  if (!top.raw().is_object()) top.fail("expected a JSON object (a Prometheus query_range response)");
  const JsonNode root = top.has("response") && !top.has("data") ? top.at("response") : top;
  const std::string status = root.at("status").string();
  if (status != "success") root.at("status").fail("expected \"success\", got \"" + status + "\" (a failed query)");
  const JsonNode data = root.at("data");
  const std::string type = data.at("resultType").string();
  if (type != "matrix")
    data.at("resultType").fail("expected \"matrix\" (a range query, /api/v1/query_range), got \"" + type + "\"");
  PromExport out{path, {}};
  for (const JsonNode& r : data.at("result").elements()) {
    PromSeries s;
    s.values_pointer = r.at("values").pointer();
    const JsonNode labels = r.at("metric");
    if (!labels.raw().is_object()) labels.fail("expected an object of labels");
    if (auto name = labels.find("__name__")) s.name = name->string();
    for (const JsonNode& sample : r.at("values").elements()) {
      const auto pair = sample.elements();
      if (pair.size() != 2) sample.fail("expected [UNIX_TIME, \"VALUE\"]");
      const double t = pair[0].number_in(0, limits::kMaxLogTimeS);
      if (!s.t_s.empty() && t <= s.t_s.back()) pair[0].fail("expected timestamps in increasing order");
      s.t_s.push_back(t);
      s.values.push_back(sample_value(pair[1]));
    }
    out.series.push_back(std::move(s));
  }
  if (out.series.empty()) data.at("result").fail("expected at least one series (the query matched nothing)");
  return out;
}

MeasuredColumn measured_column(const PromExport& file, const std::string& column) {
  MeasuredColumn out{column, file.path, {}, {}, 0, 0};
  const Combine combine = combine_of(column);
  const ColumnRange range = range_of(column);
  if (combine == Combine::One && file.series.size() > 1)
    throw InputError(file.path, "/data/result",
                     "expected one series for \"" + column + "\", got " + std::to_string(file.series.size()) +
                         " (aggregate them in the query, e.g. max or avg)");
  // Per series, its values at its timestamps: a counter's per-second rate since its previous sample.
  std::map<double, std::pair<double, int>> at;  // time -> sum of finite values, series counted
  std::vector<double> grid;
  for (std::size_t i = 0; i < file.series.size(); ++i) {
    const PromSeries& s = file.series[i];
    const bool counter = is_counter(s.name);
    if (counter && column != "requests_per_s")
      throw InputError(file.path, "/data/result/" + std::to_string(i) + "/metric/__name__",
                       "\"" + s.name + "\" is a counter; export the query that gives \"" + column + "\" instead");
    double previous_t = NAN, previous_v = NAN;
    for (std::size_t k = 0; k < s.t_s.size(); ++k) {
      grid.push_back(s.t_s[k]);
      double v = s.values[k];
      if (!std::isfinite(v)) {
        ++out.nan_samples;
        previous_t = NAN;  // a counter's rate needs two finite samples in a row
        continue;
      }
      if (counter) {
        const double count = v;
        if (count < 0) sample_error(file.path, s, k, printf_string("expected a counter of at least 0, got %g", count));
        if (std::isnan(previous_t)) {
          previous_t = s.t_s[k], previous_v = count;
          continue;
        }
        // A decrease is a restart from 0: all of `count` is new (Prometheus: promql/functions.go,
        // extrapolatedRate, which adds the previous value back at each decrease; we do not
        // extrapolate to the window's edges, the samples are the window).
        double increase = count - previous_v;
        if (count < previous_v) {
          increase = count;
          ++out.counter_resets;
        }
        v = increase / (s.t_s[k] - previous_t);
        if (v > range.max)
          sample_error(file.path, s, k,
                       printf_string("expected at most %g%s since the previous sample, got %g (%g more in %g s)",
                                     range.max, range.unit, v, increase, s.t_s[k] - previous_t));
        previous_t = s.t_s[k], previous_v = count;
      } else {
        check_in_range(file.path, s, k, range, v);
      }
      auto& [sum, n] = at[s.t_s[k]];
      sum += v;
      ++n;
    }
  }
  std::sort(grid.begin(), grid.end());
  grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
  for (double t : grid) {
    out.t_s.push_back(t);
    const auto it = at.find(t);
    if (it == at.end()) {
      out.values.push_back(std::nullopt);
      continue;
    }
    const auto [sum, n] = it->second;
    out.values.push_back(combine == Combine::Mean ? sum / n : sum);
  }
  return out;
}

}  // namespace sonicsim::validation
