#include "analysis/calibration/calibration_report.hpp"

#include <cstdio>
#include <sstream>

#include "models/io/text_format.hpp"
#include "models/workload/latency_model_file.hpp"

namespace sonicsim::calibration {
namespace {

std::string provenance_value(const CalibrationInput& input, const std::string& key) {
  for (const auto& [k, v] : input.provenance)
    if (k == key) return v;
  return "";
}

std::string describe_input(const CalibrationInput& input) {
  std::string text = "  " + input.path + ": " + input.kind;
  for (const char* key : {"device", "framework", "framework_version", "precision", "row"}) {
    const std::string value = provenance_value(input, key);
    if (!value.empty()) text += ", " + value;
  }
  return text + ", " + std::to_string(input.points.size()) + (input.points.size() == 1 ? " point\n" : " points\n");
}

std::string describe_curve(const KernelLatency& curve) {
  if (const auto* affine = std::get_if<AffineLatency>(&curve))
    return printf_string("%.4f ms + %.4f us/item", affine->intercept_s * 1e3, affine->per_item_s * 1e6);
  if (const auto* knee = std::get_if<KneeLatency>(&curve))
    return printf_string("%.4f ms flat to batch %.1f, then %.4f us/item", knee->flat_s * 1e3, knee->knee_batch,
                         knee->per_item_s * 1e6);
  return std::to_string(std::get<TableLatency>(curve).points.size()) + " points, linear between them";
}

std::string band_summary(const FittedForm& fitted, const Calibration& c) {
  const LatencyBand& band = *fitted.band;
  const auto level_index = [&](double level) {
    for (std::size_t i = 0; i < band.levels.size(); ++i)
      if (band.levels[i] == level) return i;
    return std::size_t{0};
  };
  const std::size_t lo = level_index(0.025), hi = level_index(0.975);
  std::string text = printf_string("  %-7s", form_name(fitted.form));
  for (double batch : {c.points.front().batch, c.points[c.points.size() / 2].batch, c.points.back().batch}) {
    for (std::size_t i = 0; i < band.batches.size(); ++i)
      if (band.batches[i] == batch)
        text +=
            printf_string("  batch %g: %.4f-%.4f ms", batch, band.latency_s[lo][i] * 1e3, band.latency_s[hi][i] * 1e3);
  }
  return text + "\n";
}

nlohmann::json curve_json(const KernelLatency& curve) {
  if (const auto* affine = std::get_if<AffineLatency>(&curve))
    return {{"intercept_s", affine->intercept_s}, {"per_item_s", affine->per_item_s}};
  if (const auto* knee = std::get_if<KneeLatency>(&curve))
    return {{"flat_s", knee->flat_s}, {"knee_batch", knee->knee_batch}, {"per_item_s", knee->per_item_s}};
  nlohmann::json points = nlohmann::json::array();
  for (const auto& [batch, latency] : std::get<TableLatency>(curve).points)
    points.push_back({{"batch", batch}, {"latency_s", latency}});
  return {{"points", points}};
}

}  // namespace

std::string format_calibration(const Calibration& c) {
  std::ostringstream out;
  out << "inputs\n";
  for (const auto& input : c.inputs) out << describe_input(input);
  out << "statistic: " << statistic_name(c.statistic) << " latency per call; " << c.points.size()
      << " batch sizes from " << c.points.front().batch << " to " << c.points.back().batch << "\n\n";

  out << printf_string("%-7s  %-52s  %9s  %12s  %s\n", "form", "parameters", "R^2", "rms rel.err", "max rel.err");
  for (const auto& f : c.forms) {
    out << printf_string("%-7s  %-52s  %9.6f  %11.2f%%  %.2f%% at batch %g%s\n", form_name(f.form),
                         describe_curve(f.curve).c_str(), f.quality.r_squared, 100 * f.quality.rms_relative_error,
                         100 * f.quality.max_relative_error, f.quality.max_relative_error_batch,
                         f.form == c.selected ? "  (selected)" : "");
    if (const auto* knee = std::get_if<KneeLatency>(&f.curve); knee && knee->per_item_s > 0)
      out << printf_string("%-7s  throughput ceiling %.0f items/s\n", "", 1 / knee->per_item_s);
  }
  for (const auto& reason : c.not_fitted) out << "not fitted: " << reason << '\n';

  out << "\nresiduals (fitted / measured - 1)\n" << printf_string("%8s  %12s", "batch", "measured ms");
  for (const auto& f : c.forms) out << printf_string("  %8s", form_name(f.form));
  out << '\n';
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    out << printf_string("%8g  %12.5f", c.points[i].batch, c.points[i].latency_s * 1e3);
    for (const auto& f : c.forms)
      out << printf_string("  %+7.2f%%", 100 * (f.quality.fitted_s[i] / c.points[i].latency_s - 1));
    out << '\n';
  }

  bool overheads = false;
  for (const auto& p : c.points) overheads = overheads || !p.overheads_s.empty();
  if (overheads) {
    out << "\nperf_analyzer overheads at the calibrated rows (ms)\n" << printf_string("%8s", "batch");
    for (const auto& [name, unused] : c.points.front().overheads_s) out << printf_string("  %s", name.c_str());
    out << '\n';
    for (const auto& p : c.points) {
      out << printf_string("%8g", p.batch);
      for (const auto& [name, seconds] : p.overheads_s)
        out << printf_string("  %*.3f", static_cast<int>(name.size()), seconds * 1e3);
      out << '\n';
    }
  }

  if (c.spread) {
    out << "\nspread of single calls (" << choice_name(kSpreadShapes, c.spread->shape) << ", cv = stddev / mean)\n"
        << printf_string("%8s  %8s  %s\n", "batch", "cv", "from");
    for (const SpreadPoint& p : c.spread->points)
      out << printf_string("%8g  %8.4f  %s\n", p.batch, p.cv, p.method.c_str());
  }

  if (c.bootstrap.resamples > 0) {
    out << "\n95% band of the fitted curve (bootstrap, " << c.bootstrap.resamples << " resamples, seed "
        << c.bootstrap.seed << ")\n";
    for (const auto& f : c.forms)
      if (f.band) out << band_summary(f, c);
  }
  return out.str();
}

nlohmann::json latency_model_json(const Calibration& c, const std::string& command) {
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto& input : c.inputs) {
    nlohmann::json provenance = nlohmann::json::object();
    for (const auto& [key, value] : input.provenance) provenance[key] = value;
    inputs.push_back({{"file", input.path}, {"kind", input.kind}, {"provenance", provenance}});
  }
  nlohmann::json points = nlohmann::json::array();
  for (const auto& p : c.points) {
    nlohmann::json point = {
        {"batch", p.batch}, {"latency_s", p.latency_s}, {"standard_error_s", p.standard_error_s}, {"input", p.input}};
    if (!p.overheads_s.empty()) {
      nlohmann::json overheads = nlohmann::json::object();
      for (const auto& [name, seconds] : p.overheads_s) overheads[name] = seconds;
      point["overheads_s"] = overheads;
    }
    points.push_back(point);
  }
  nlohmann::json forms = nlohmann::json::object();
  for (const auto& f : c.forms) {
    nlohmann::json form = curve_json(f.curve);
    nlohmann::json residuals = nlohmann::json::array();
    for (std::size_t i = 0; i < c.points.size(); ++i)
      residuals.push_back({{"batch", c.points[i].batch},
                           {"fitted_s", f.quality.fitted_s[i]},
                           {"relative_residual", f.quality.fitted_s[i] / c.points[i].latency_s - 1}});
    form["quality"] = {{"r_squared", f.quality.r_squared},
                       {"rms_relative_error", f.quality.rms_relative_error},
                       {"max_relative_error", f.quality.max_relative_error},
                       {"max_relative_error_batch", f.quality.max_relative_error_batch},
                       {"residuals", residuals}};
    if (f.band)
      form["band"] = {{"method",
                       "bootstrap: points resampled with replacement (affine, knee) and perturbed by their "
                       "standard errors; pointwise quantiles of the refitted curves"},
                      {"resamples", c.bootstrap.resamples},
                      {"seed", c.bootstrap.seed},
                      {"levels", f.band->levels},
                      {"batches", f.band->batches},
                      {"latency_s", f.band->latency_s}};
    forms[form_name(f.form)] = form;
  }
  nlohmann::json model = {{"format", kLatencyModelFormat},
                          {"command", command},
                          {"statistic", statistic_name(c.statistic)},
                          {"inputs", inputs},
                          {"points", points},
                          {"selected", form_name(c.selected)},
                          {"forms", forms}};
  if (c.spread) {
    nlohmann::json spread_points = nlohmann::json::array();
    for (const SpreadPoint& p : c.spread->points)
      spread_points.push_back({{"batch", p.batch}, {"cv", p.cv}, {"method", p.method}, {"input", p.input}});
    model["spread"] = {{"distribution", std::string(choice_name(kSpreadShapes, c.spread->shape))},
                       {"method",
                        "single calls' coefficient of variation (stddev / mean) per batch size; a simulated "
                        "kernel takes tau(b) times a factor of mean 1 and this cv, linear in b between points"},
                       {"points", spread_points}};
  }
  return model;
}

std::string residuals_csv(const Calibration& c) {
  std::ostringstream out;
  out << "batch,measured_s,standard_error_s";
  for (const auto& f : c.forms) out << ',' << form_name(f.form) << "_s," << form_name(f.form) << "_relative_residual";
  out << '\n';
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    const auto& p = c.points[i];
    out << printf_string("%g,%.9e,%.9e", p.batch, p.latency_s, p.standard_error_s);
    for (const auto& f : c.forms)
      out << printf_string(",%.9e,%.6e", f.quality.fitted_s[i], f.quality.fitted_s[i] / p.latency_s - 1);
    out << '\n';
  }
  return out.str();
}

}  // namespace sonicsim::calibration
