#pragma once
// Bootstrap uncertainty band of a fitted latency form. Each resample perturbs every point by its
// standard error (a normal draw) and, for the affine and knee fits, also resamples the points with
// replacement (which captures how well the form itself fits); the form is refitted and evaluated on
// a grid of batch sizes. The band holds pointwise quantiles of tau(b) over the resamples: the
// uncertainty of the fitted curve, not the spread of single kernel executions.
#include <cstdint>
#include <vector>

#include "analysis/calibration/latency_fit.hpp"
#include "models/workload/latency_model_file.hpp"

namespace sonicsim::calibration {

struct BootstrapSettings {
  int resamples = 1000;
  std::uint64_t seed = 1;
  std::vector<double> levels = {0.005, 0.025, 0.05, 0.16, 0.25, 0.5, 0.75, 0.84, 0.95, 0.975, 0.995};
};

// The measured batch sizes plus the powers of two between them: where a band is tabulated.
std::vector<double> band_batches(const std::vector<LatencyPoint>& points);

LatencyBand bootstrap_band(LatencyForm form, const std::vector<LatencyPoint>& points,
                           const BootstrapSettings& settings);

}  // namespace sonicsim::calibration
