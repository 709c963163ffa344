#include "models/scenario/reader/model/kernel_latency_reader.hpp"

#include <fstream>
#include <string>

#include "models/io/json/choice.hpp"
#include "models/io/limits.hpp"
#include "models/scenario/reader/model/kernel_spread_reader.hpp"
#include "models/workload/latency_model_file.hpp"

namespace sonicsim {
namespace {

KernelTime read_affine(const JsonNode& node, LatencyContext&) {
  node.allow_only({"type", "intercept", "per_item", "spread", "scale"});
  return {AffineLatency{node.at("intercept").duration_s(), node.at("per_item").duration_s()}, std::nullopt, ""};
}

KernelTime read_table(const JsonNode& node, LatencyContext&) {
  node.allow_only({"type", "points", "spread", "scale"});
  TableLatency table;
  for (const JsonNode& point : node.at("points").non_empty_elements()) {
    point.allow_only({"batch", "latency"});
    const double batch = point.at("batch").int_at_least(1);
    if (!table.points.empty() && batch <= table.points.back().first)
      point.at("batch").fail("expected batch sizes in strictly increasing order");
    table.points.emplace_back(batch, point.at("latency").duration_s());
  }
  return {table, std::nullopt, ""};
}

KernelTime read_knee(const JsonNode& node, LatencyContext&) {
  node.allow_only({"type", "flat", "knee_batch", "per_item", "spread", "scale"});
  return {KneeLatency{node.at("flat").positive_duration_s(), node.at("knee_batch").number_positive(),
                      node.at("per_item").duration_s()},
          std::nullopt, ""};
}

// The form the scenario names (or the file's selected one), or the quantile of its band that
// /simulation/latency_quantile asks for; the file's spread, if it has one (read_kernel_latency
// replaces it by the entry's own "spread").
KernelTime read_calibrated(const JsonNode& node, LatencyContext& context) {
  node.allow_only({"type", "file", "form", "spread", "scale"});
  const JsonNode file_key = node.at("file");
  const std::string path = path_beside(node.file(), file_key.string());
  if (!std::ifstream(path)) file_key.fail("cannot open the latency model file \"" + path + "\"");
  const LatencyModelFile model_file = read_latency_model_file(path);
  std::string form = model_file.selected;
  if (auto f = node.find("form")) {
    form = f->string();
    if (!model_file.forms.count(form)) {
      std::string names;
      for (const auto& [name, unused] : model_file.forms) names += (names.empty() ? "\"" : ", \"") + name + "\"";
      f->fail("expected one of the forms in \"" + path + "\" (" + names + "), got \"" + form + "\"");
    }
  }
  ++context.calibrated_count;
  const CalibratedForm& calibrated = model_file.forms.at(form);
  if (!context.quantile) return {calibrated.curve, model_file.spread, file_key.string()};
  if (!calibrated.band)
    node.fail("/simulation/latency_quantile asks for a quantile, but the \"" + form + "\" form in \"" + path +
              "\" has no uncertainty band (calibrate with --bootstrap N)");
  const double q = *context.quantile;
  const auto& levels = calibrated.band->levels;
  if (q < levels.front() || q > levels.back())
    node.fail("/simulation/latency_quantile is " + std::to_string(q) + ", outside the levels " +
              std::to_string(levels.front()) + " to " + std::to_string(levels.back()) + " of the band in \"" + path +
              "\"");
  return {band_quantile(*calibrated.band, q), model_file.spread, file_key.string()};
}

constexpr Choice<KernelTime (*)(const JsonNode&, LatencyContext&)> kLatencyTypes[]{
    {"affine", read_affine},
    {"table", read_table},
    {"knee", read_knee},
    {kCalibratedLatency, read_calibrated},
};

}  // namespace

KernelTime read_kernel_latency(const JsonNode& node, LatencyContext& context) {
  KernelTime time = node.at("type").choice(kLatencyTypes)(node, context);
  if (auto spread = node.find("spread")) time.spread = read_kernel_spread(*spread);
  if (auto scale = node.find("scale"))
    time.latency = scaled(time.latency, scale->number_in(limits::kMinFactor, limits::kMaxFactor));
  return time;
}

}  // namespace sonicsim
