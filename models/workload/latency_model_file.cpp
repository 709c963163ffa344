#include "models/workload/latency_model_file.hpp"

#include <algorithm>
#include <cmath>

#include "models/io/json/json_reader.hpp"

namespace sonicsim {
namespace {

std::vector<double> increasing_numbers(const JsonNode& node, double min_exclusive, const char* what) {
  std::vector<double> out;
  for (const JsonNode& e : node.non_empty_elements()) {
    const double x = e.number();
    if (!(x > min_exclusive)) e.fail(std::string("expected ") + what);
    if (!out.empty() && x <= out.back()) e.fail(std::string("expected ") + what + " in strictly increasing order");
    out.push_back(x);
  }
  return out;
}

double positive_seconds(const JsonNode& node) {
  const double x = node.number();
  if (!(x > 0) || !std::isfinite(x)) node.fail("expected a positive number of seconds");
  return x;
}

LatencyBand read_band(const JsonNode& node) {
  node.allow_only({"method", "resamples", "seed", "levels", "batches", "latency_s"});
  LatencyBand band;
  band.levels = increasing_numbers(node.at("levels"), 0.0, "quantile levels in (0, 1)");
  if (band.levels.back() >= 1.0) node.at("levels").fail("expected quantile levels in (0, 1)");
  band.batches = increasing_numbers(node.at("batches"), 0.0, "positive batch sizes");
  const std::vector<JsonNode> rows = node.at("latency_s").elements();
  if (rows.size() != band.levels.size())
    node.at("latency_s")
        .fail("expected one row per level (" + std::to_string(band.levels.size()) + "), got " +
              std::to_string(rows.size()));
  for (const JsonNode& row : rows) {
    const std::vector<JsonNode> values = row.elements();
    if (values.size() != band.batches.size())
      row.fail("expected one latency per batch size (" + std::to_string(band.batches.size()) + "), got " +
               std::to_string(values.size()));
    std::vector<double>& out = band.latency_s.emplace_back();
    for (const JsonNode& v : values) out.push_back(positive_seconds(v));
  }
  return band;
}

KernelLatency read_curve(const std::string& form, const JsonNode& node) {
  if (form == "table") {
    node.allow_only({"points", "quality", "band"});
    TableLatency table;
    for (const JsonNode& point : node.at("points").non_empty_elements()) {
      point.allow_only({"batch", "latency_s"});
      const double batch = point.at("batch").number_positive();
      if (!table.points.empty() && batch <= table.points.back().first)
        point.at("batch").fail("expected batch sizes in strictly increasing order");
      table.points.emplace_back(batch, positive_seconds(point.at("latency_s")));
    }
    return table;
  }
  if (form == "affine") {
    node.allow_only({"intercept_s", "per_item_s", "quality", "band"});
    return AffineLatency{node.at("intercept_s").number(), node.at("per_item_s").number()};
  }
  node.allow_only({"flat_s", "knee_batch", "per_item_s", "quality", "band"});
  return KneeLatency{positive_seconds(node.at("flat_s")), node.at("knee_batch").number_positive(),
                     node.at("per_item_s").number_at_least(0)};
}

// {"distribution": "lognormal", "method": ..., "points": [{"batch": 1, "cv": 0.19, ...}, ...]}.
KernelSpread read_spread(const JsonNode& node) {
  node.allow_only({"distribution", "method", "points"});
  KernelSpread spread;
  spread.shape = node.at("distribution").choice(kSpreadShapes);
  for (const JsonNode& point : node.at("points").non_empty_elements()) {
    point.allow_only({"batch", "cv", "method", "input"});
    const double batch = point.at("batch").number_positive();
    if (!spread.cv_points.empty() && batch <= spread.cv_points.back().first)
      point.at("batch").fail("expected batch sizes in strictly increasing order");
    spread.cv_points.emplace_back(batch, point.at("cv").number_in(0, kMaxKernelCv));
  }
  return spread;
}

}  // namespace

LatencyModelFile read_latency_model_file(const std::string& path) {
  return parse_latency_model_file(read_input_file(path, kMaxConfigFileBytes), path);
}

LatencyModelFile parse_latency_model_file(const std::string& text, const std::string& path) {
  const nlohmann::json document = parse_json_text(text, path);
  const JsonNode root(document, "", path);
  const std::string format = root.at("format").string();
  if (format != kLatencyModelFormat)
    root.at("format").fail(std::string("expected \"") + kLatencyModelFormat +
                           "\" (a file written by sonicsim calibrate), got \"" + format + "\"");
  LatencyModelFile file;
  file.path = path;
  const JsonNode forms = root.at("forms");
  for (const std::string& name : forms.keys()) {
    if (name != "table" && name != "affine" && name != "knee")
      forms.at(name).fail("expected a form named \"table\", \"affine\" or \"knee\"");
    const JsonNode form = forms.at(name);
    CalibratedForm calibrated{read_curve(name, form), std::nullopt};
    if (auto band = form.find("band")) calibrated.band = read_band(*band);
    file.forms.emplace(name, std::move(calibrated));
  }
  if (file.forms.empty()) forms.fail("expected at least one fitted form");
  if (auto spread = root.find("spread")) file.spread = read_spread(*spread);
  file.selected = root.at("selected").string();
  if (!file.forms.count(file.selected))
    root.at("selected").fail("expected the name of a form in \"forms\", got \"" + file.selected + "\"");
  return file;
}

TableLatency band_quantile(const LatencyBand& band, double q) {
  const auto& levels = band.levels;
  std::size_t upper = std::lower_bound(levels.begin(), levels.end(), q) - levels.begin();
  if (upper == levels.size()) upper = levels.size() - 1;  // q == back() is found; beyond is the caller's error
  const std::size_t lower = (upper == 0 || levels[upper] == q) ? upper : upper - 1;
  const double w = upper == lower ? 0.0 : (q - levels[lower]) / (levels[upper] - levels[lower]);
  TableLatency table;
  for (std::size_t i = 0; i < band.batches.size(); ++i) {
    const double lo = band.latency_s[lower][i];
    const double hi = band.latency_s[upper][i];
    table.points.emplace_back(band.batches[i], lo + w * (hi - lo));
  }
  return table;
}

}  // namespace sonicsim
