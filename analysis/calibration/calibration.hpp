#pragma once
// Fits every latency form to the measured points of one or more inputs, with bootstrap bands.
#include <optional>
#include <string>
#include <vector>

#include "analysis/calibration/calibration_csv.hpp"
#include "analysis/calibration/latency_bootstrap.hpp"
#include "analysis/calibration/latency_fit.hpp"
#include "analysis/calibration/spread_fit.hpp"

namespace sonicsim::calibration {

struct FittedForm {
  LatencyForm form;
  KernelLatency curve;
  FitQuality quality;
  std::optional<LatencyBand> band;  // absent when bootstrapping is off
};

struct Calibration {
  std::vector<CalibrationInput> inputs;
  std::vector<LatencyPoint> points;  // all inputs, by increasing batch size
  LatencyStatistic statistic = LatencyStatistic::Mean;
  std::vector<FittedForm> forms;
  std::vector<std::string> not_fitted;  // forms the data cannot support, with the reason
  LatencyForm selected = LatencyForm::Table;
  BootstrapSettings bootstrap;         // resamples == 0: no bands
  std::optional<FittedSpread> spread;  // --spread: single calls' spread per batch size
};

// Throws std::invalid_argument when two inputs measure the same batch size, the selected form
// cannot be fitted, a fit or its band is not finite (naming the inputs), or a spread is asked for
// that the inputs do not give (or around a statistic other than the mean: draws keep the curve as
// their mean).
Calibration calibrate(std::vector<CalibrationInput> inputs, LatencyStatistic statistic, LatencyForm selected,
                      const BootstrapSettings& bootstrap, std::optional<SpreadShape> spread = std::nullopt);

}  // namespace sonicsim::calibration
