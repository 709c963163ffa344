#include "analysis/calibration/spread_fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sonicsim::calibration {

std::optional<double> cv_from_moments(double mean_s, double stddev_s, double repeats) {
  if (repeats < 2 || !(mean_s > 0)) return std::nullopt;
  return stddev_s / mean_s;
}

double lognormal_cv_from_quantiles(double p50_s, double p99_s) {
  if (!(p99_s > p50_s) || !(p50_s > 0)) return 0;
  constexpr double z99 = 2.3263478740408408;  // standard normal 0.99 quantile
  const double sigma = std::log(p99_s / p50_s) / z99;
  return std::sqrt(std::expm1(sigma * sigma));
}

KernelSpread FittedSpread::spread() const {
  KernelSpread spread{shape, {}};
  for (const SpreadPoint& p : points) spread.cv_points.emplace_back(p.batch, p.cv);
  return spread;
}

FittedSpread fit_spread(const std::vector<LatencyPoint>& points, SpreadShape shape,
                        std::vector<std::string>& not_fitted) {
  FittedSpread fitted{shape, {}};
  std::vector<std::string> without;
  for (const LatencyPoint& p : points) {
    if (!p.cv) {
      without.push_back("spread at batch " + std::to_string(static_cast<long long>(p.batch)) + ": " + p.cv_method);
      continue;
    }
    fitted.points.push_back({p.batch, std::min(*p.cv, kMaxKernelCv), p.cv_method, p.input});
  }
  if (fitted.points.empty())
    throw std::invalid_argument("--spread: no input gives the spread of single calls (" +
                                (without.empty() ? std::string("no points") : without.front()) + ")");
  not_fitted.insert(not_fitted.end(), without.begin(), without.end());
  return fitted;
}

}  // namespace sonicsim::calibration
