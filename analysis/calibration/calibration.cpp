#include "analysis/calibration/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sonicsim::calibration {
namespace {

bool all_finite(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

bool finite_curve(const KernelLatency& curve) {
  if (const auto* a = std::get_if<AffineLatency>(&curve)) return all_finite({a->intercept_s, a->per_item_s});
  if (const auto* k = std::get_if<KneeLatency>(&curve)) return all_finite({k->flat_s, k->knee_batch, k->per_item_s});
  for (const auto& [batch, seconds] : std::get<TableLatency>(curve).points)
    if (!all_finite({batch, seconds})) return false;
  return true;
}

// A fit or band that left a double's range is no model: an error naming the inputs, never a null
// written into the model file.
void require_finite(const FittedForm& fitted, const std::vector<CalibrationInput>& inputs) {
  bool finite = finite_curve(fitted.curve);
  if (fitted.band)
    for (const auto& row : fitted.band->latency_s) finite = finite && all_finite(row);
  if (finite) return;
  std::string files;
  for (const auto& input : inputs) files += (files.empty() ? "" : ", ") + input.path;
  throw std::invalid_argument(files + ": the " + form_name(fitted.form) + " fit" +
                              (finite_curve(fitted.curve) ? "'s band" : "") +
                              " is not a finite number (the latencies leave a double's range in the fit's arithmetic)");
}

}  // namespace

Calibration calibrate(std::vector<CalibrationInput> inputs, LatencyStatistic statistic, LatencyForm selected,
                      const BootstrapSettings& bootstrap, std::optional<SpreadShape> spread) {
  Calibration c;
  c.statistic = statistic;
  c.selected = selected;
  c.bootstrap = bootstrap;
  for (const auto& input : inputs) c.points.insert(c.points.end(), input.points.begin(), input.points.end());
  c.inputs = std::move(inputs);
  std::stable_sort(c.points.begin(), c.points.end(), [](const auto& a, const auto& b) { return a.batch < b.batch; });
  for (std::size_t i = 1; i < c.points.size(); ++i)
    if (c.points[i].batch == c.points[i - 1].batch)
      throw std::invalid_argument("batch size " + std::to_string(static_cast<long long>(c.points[i].batch)) +
                                  " is measured twice (in " + c.points[i - 1].input + " and " + c.points[i].input +
                                  ")");
  for (LatencyForm form : kAllForms) {
    if (static_cast<int>(c.points.size()) < min_points(form)) {
      c.not_fitted.push_back(std::string(form_name(form)) + ": needs at least " + std::to_string(min_points(form)) +
                             " batch sizes, the inputs have " + std::to_string(c.points.size()));
      if (form == selected)
        throw std::invalid_argument("cannot select the " + std::string(form_name(form)) +
                                    " form: " + c.not_fitted.back());
      continue;
    }
    FittedForm fitted{form, fit_form(form, c.points), {}, std::nullopt};
    fitted.quality = assess_fit(fitted.curve, c.points);
    if (bootstrap.resamples > 0) fitted.band = bootstrap_band(form, c.points, bootstrap);
    require_finite(fitted, c.inputs);
    c.forms.push_back(std::move(fitted));
  }
  if (spread) {
    if (statistic == LatencyStatistic::P50 || statistic == LatencyStatistic::P99)
      throw std::invalid_argument(std::string("--spread draws single calls around the curve as their mean: fit the ") +
                                  "mean (--statistic mean or throughput), not the " + statistic_name(statistic));
    c.spread = fit_spread(c.points, *spread, c.not_fitted);
  }
  return c;
}

}  // namespace sonicsim::calibration
