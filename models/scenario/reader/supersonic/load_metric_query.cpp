#include "models/scenario/reader/supersonic/load_metric_query.hpp"

#include <string>

#include "models/scenario/reader/supersonic/values_fields.hpp"

namespace sonicsim::supersonic {
namespace {

// The forms, without spaces. S: "sum by (release)" or "sum"; L: a label matcher on the release,
// {release=~"..."} or {release="..."}, or none; W: the rate() window, the same in every rate().
struct Form {
  std::string_view pattern;
  ScalingMetric metric;
};
constexpr Form kForms[]{
    // The chart's default (_scaling-metric.tpl at e578801), and as docs/reference/supersonic.md §1.5 writes it.
    {"S(rate(nv_inference_queue_duration_usL[W]))/S((rate(nv_inference_exec_countL[W])*1000)+0.001)",
     ScalingMetric::SupersonicLoad},
    {"S(rate(nv_inference_queue_duration_usL[W]))/S(rate(nv_inference_exec_countL[W])*1000+0.001)",
     ScalingMetric::SupersonicLoad},
    // values-geddes-cms.yaml at e578801: the ratio per series, then summed.
    {"S(rate(nv_inference_queue_duration_usL[W])/(rate(nv_inference_exec_countL[W])*1000+0.001))",
     ScalingMetric::SupersonicLoadSummed},
    {"S(rate(nv_inference_queue_duration_usL[W])/((rate(nv_inference_exec_countL[W])*1000)+0.001))",
     ScalingMetric::SupersonicLoadSummed},
};

bool take(std::string_view& text, std::string_view prefix) {
  if (text.substr(0, prefix.size()) != prefix) return false;
  text.remove_prefix(prefix.size());
  return true;
}

// {release=~"..."} or {release="..."} (any value without a quote or a brace), or nothing.
bool take_label_matcher(std::string_view& text) {
  if (text.empty() || text[0] != '{') return true;
  if (!take(text, "{release=~\"") && !take(text, "{release=\"")) return false;
  const std::size_t end = text.find_first_of("\"{}");
  if (end == std::string_view::npos || text[end] != '"') return false;
  text.remove_prefix(end + 1);
  return take(text, "}");
}

std::optional<LoadMetricQuery> match(std::string_view text, std::string_view pattern, ScalingMetric metric) {
  std::optional<std::string_view> window;
  for (const char p : pattern) {
    if (p == 'S') {
      if (!take(text, "sumby(release)") && !take(text, "sum")) return std::nullopt;
    } else if (p == 'L') {
      if (!take_label_matcher(text)) return std::nullopt;
    } else if (p == 'W') {
      const std::size_t end = text.find(']');
      if (end == std::string_view::npos) return std::nullopt;
      const std::string_view w = text.substr(0, end);
      if (window && *window != w) return std::nullopt;  // two windows: not a form sonicsim computes
      window = w;
      text.remove_prefix(end);
    } else if (text.empty() || text[0] != p) {
      return std::nullopt;
    } else {
      text.remove_prefix(1);
    }
  }
  if (!text.empty() || !window) return std::nullopt;
  const auto seconds = parse_prometheus_duration_s(*window);
  if (!seconds || !(*seconds > 0) || *seconds > 1e8) return std::nullopt;
  return LoadMetricQuery{metric, *seconds};
}

}  // namespace

std::optional<LoadMetricQuery> recognise_load_metric(std::string_view query) {
  std::string text;
  for (const char c : query)
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') text += c;
  if (text.empty()) return LoadMetricQuery{};  // "": the chart writes its default, over 30 s
  for (const Form& form : kForms)
    if (auto found = match(text, form.pattern, form.metric)) return found;
  return std::nullopt;
}

}  // namespace sonicsim::supersonic
