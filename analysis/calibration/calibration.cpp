#include "analysis/calibration/calibration.hpp"

#include <algorithm>
#include <stdexcept>

namespace sonicsim::calibration {

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
                                  " is measured twice (in " + c.points[i - 1].input + " and " + c.points[i].input + ")");
  for (LatencyForm form : kAllForms) {
    if (static_cast<int>(c.points.size()) < min_points(form)) {
      c.not_fitted.push_back(std::string(form_name(form)) + ": needs at least " + std::to_string(min_points(form)) +
                             " batch sizes, the inputs have " + std::to_string(c.points.size()));
      if (form == selected)
        throw std::invalid_argument("cannot select the " + std::string(form_name(form)) + " form: " + c.not_fitted.back());
      continue;
    }
    FittedForm fitted{form, fit_form(form, c.points), {}, std::nullopt};
    fitted.quality = assess_fit(fitted.curve, c.points);
    if (bootstrap.resamples > 0) fitted.band = bootstrap_band(form, c.points, bootstrap);
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
