#include "models/workload/kernel_spread.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace sonicsim {
namespace {

// Marsaglia and Tsang (2000), "A simple method for generating gamma variables", ACM TOMS 26(3):
// for shape k >= 1, d = k - 1/3, c = 1/sqrt(9d); draw x normal, v = (1 + c x)^3 until v > 0 and
// ln U < x^2/2 + d (1 - v + ln v) (the squeeze U < 1 - 0.0331 x^4 accepts most tries without the
// logarithm); the draw is d v, of mean k.
double gamma_at_least_one(double k, Rng& rng) {
  const double d = k - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    const double x = rng.standard_normal();
    double v = 1.0 + c * x;
    if (v <= 0) continue;
    v = v * v * v;
    const double u = rng.uniform_open_zero();
    const double x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2) return d * v;
    if (std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v))) return d * v;
  }
}

// Gamma(k) for any k > 0, of mean k: below 1, Gamma(k + 1) * U^(1/k) (the same paper, section 6).
double gamma_draw(double k, Rng& rng) {
  if (k >= 1) return gamma_at_least_one(k, rng);
  const double g = gamma_at_least_one(k + 1.0, rng);
  return g * std::pow(rng.uniform_open_zero(), 1.0 / k);
}

}  // namespace

double spread_cv(const KernelSpread& spread, double batch_items) {
  const auto& p = spread.cv_points;
  if (batch_items <= p.front().first) return p.front().second;
  if (batch_items >= p.back().first) return p.back().second;
  const auto upper =
      std::upper_bound(p.begin(), p.end(), batch_items, [](double x, const auto& point) { return x < point.first; });
  const auto& [b1, c1] = *upper;
  const auto& [b0, c0] = *(upper - 1);
  return c0 + (batch_items - b0) * (c1 - c0) / (b1 - b0);
}

double spread_factor(SpreadShape shape, double cv, Rng& rng) {
  if (cv <= 0) return 1.0;
  if (shape == SpreadShape::Lognormal) {
    const double sigma2 = std::log1p(cv * cv);
    return std::exp(std::sqrt(sigma2) * rng.standard_normal() - sigma2 / 2);
  }
  const double k = 1.0 / (cv * cv);
  // Below cv ~1.3e-154 the shape overflows to infinity (and the draw to NaN). Such a factor is
  // exactly 1 in a double: it differs from 1 by about cv, far under half an ulp of 1.
  if (std::isinf(k)) return 1.0;
  return gamma_draw(k, rng) / k;
}

double draw_kernel_time(double tau_s, const KernelSpread& spread, double batch_items, Rng& rng) {
  return tau_s * spread_factor(spread.shape, spread_cv(spread, batch_items), rng);
}

std::string describe(const KernelSpread& spread) {
  std::ostringstream out;
  out << choice_name(kSpreadShapes, spread.shape) << ", cv ";
  const auto& p = spread.cv_points;
  if (p.size() == 1) {
    out << p.front().second;
  } else {
    out << p.front().second << " at batch " << p.front().first << " to " << p.back().second << " at batch "
        << p.back().first << " (" << p.size() << " points)";
  }
  return out.str();
}

}  // namespace sonicsim
