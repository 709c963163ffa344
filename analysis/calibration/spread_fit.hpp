#pragma once
// The spread of single calls around the fitted curve, which `sonicsim calibrate --spread` writes
// to the model file: one coefficient of variation (stddev / mean) per measured batch size, where
// the input gives one (models/workload/kernel_spread.hpp draws from it).
#include <optional>
#include <string>
#include <vector>

#include "analysis/calibration/latency_points.hpp"
#include "models/workload/kernel_spread.hpp"

namespace sonicsim::calibration {

// Method of moments: the sample's stddev / mean, from a calibration CSV row (any shape with that
// mean and cv). None from a single call (no spread measured) or a non-positive mean.
std::optional<double> cv_from_moments(double mean_s, double stddev_s, double repeats);

// The cv of the lognormal whose median and 99th percentile are these: q_p = m exp(sigma z_p) for
// the median m, so sigma = ln(p99 / p50) / z_0.99 and cv = sqrt(exp(sigma^2) - 1). 0 where p99 <= p50.
double lognormal_cv_from_quantiles(double p50_s, double p99_s);

struct SpreadPoint {
  double batch = 0;
  double cv = 0;
  std::string method;  // how the cv was found
  std::string input;   // the file it came from
};

struct FittedSpread {
  SpreadShape shape = SpreadShape::Lognormal;
  std::vector<SpreadPoint> points;  // by increasing batch size

  KernelSpread spread() const;
};

// The spread of every point that has one. Points without one are listed in `not_fitted`; none at
// all is an error (std::invalid_argument): --spread asked for what the inputs do not hold.
FittedSpread fit_spread(const std::vector<LatencyPoint>& points, SpreadShape shape,
                        std::vector<std::string>& not_fitted);

}  // namespace sonicsim::calibration
