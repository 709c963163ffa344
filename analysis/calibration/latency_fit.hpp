#pragma once
// The three latency forms `sonicsim calibrate` fits to measured points, and how well they fit.
// Affine and knee fits minimise the squared *relative* residuals (weights 1/latency^2): batch sizes
// span three decades, and an ordinary fit would sacrifice every small batch to the largest ones.
#include <optional>
#include <string>
#include <vector>

#include "analysis/calibration/latency_points.hpp"
#include "models/workload/kernel_latency.hpp"

namespace sonicsim::calibration {

enum class LatencyForm { Table, Affine, Knee };
inline constexpr LatencyForm kAllForms[] = {LatencyForm::Table, LatencyForm::Affine, LatencyForm::Knee};

const char* form_name(LatencyForm form);
LatencyForm parse_form(const std::string& name);  // "table", "affine", "knee"

// How many distinct batch sizes a form needs (1, 2, 3).
int min_points(LatencyForm form);

// Points must have strictly increasing batch sizes (duplicates are allowed in fit_affine and
// fit_knee, as bootstrap resamples have them); at least min_points(form) distinct ones.
TableLatency fit_table(const std::vector<LatencyPoint>& points);
AffineLatency fit_affine(const std::vector<LatencyPoint>& points);
KneeLatency fit_knee(const std::vector<LatencyPoint>& points);
KernelLatency fit_form(LatencyForm form, const std::vector<LatencyPoint>& points);

// The knee fit's exact cost at one knee: the least sum of squared relative residuals of a flat part
// and a non-negative slope from `knee` (the best constant where the slope would be negative).
double knee_cost(const std::vector<LatencyPoint>& points, double knee);

struct FitQuality {
  double r_squared = 0;                 // 1 - SS_res / SS_tot, on the latencies themselves
  double rms_relative_error = 0;        // sqrt(mean((fitted/measured - 1)^2))
  double max_relative_error = 0;        // max |fitted/measured - 1| ...
  double max_relative_error_batch = 0;  // ... and where
  std::vector<double> fitted_s;         // at each point
};

FitQuality assess_fit(const KernelLatency& curve, const std::vector<LatencyPoint>& points);

}  // namespace sonicsim::calibration
