#pragma once
// The spread of a kernel's time around tau(b): each execution of a batch of b items takes
// tau(b) * X, with X a random factor of mean 1 whose coefficient of variation (stddev / mean) is
// cv(b), from a named distribution. The mean time stays tau(b), so throughput and utilisation keep
// the calibrated mean; only the spread is added.
#include <string>
#include <utility>
#include <vector>

#include "models/io/json/choice.hpp"
#include "models/workload/rng.hpp"

namespace sonicsim {

enum class SpreadShape { Lognormal, Gamma };

// The names a scenario and a latency model file give the shapes.
inline constexpr Choice<SpreadShape> kSpreadShapes[]{{"lognormal", SpreadShape::Lognormal},
                                                     {"gamma", SpreadShape::Gamma}};

// A gamma factor of cv c has shape 1/c^2: above cv 10 (shape 0.01) most draws underflow to 0.
inline constexpr double kMaxKernelCv = 10;

struct KernelSpread {
  SpreadShape shape = SpreadShape::Lognormal;
  // (batch items, cv), batch strictly increasing, cv in [0, kMaxKernelCv]. Between points: linear
  // interpolation in the batch; below the first point its cv, above the last point the last cv (a
  // cv is not extrapolated: it could turn negative). One point: the same cv at every batch size.
  std::vector<std::pair<double, double>> cv_points;
};

// The coefficient of variation at a batch of `batch_items`.
double spread_cv(const KernelSpread& spread, double batch_items);

// A random factor of mean 1 and coefficient of variation `cv` (cv 0: exactly 1, no draw).
// Lognormal: exp(sigma Z - sigma^2 / 2) with sigma^2 = ln(1 + cv^2), Z standard normal (two
// uniforms, Rng::standard_normal). Gamma: shape k = 1/cv^2 and scale 1/k, by Marsaglia and Tsang's
// method (ACM TOMS 26(3), 2000: one normal and one uniform per try; for k < 1, a draw of shape
// k + 1 times U^(1/k)). The transforms are written out so draws are the same on every platform.
double spread_factor(SpreadShape shape, double cv, Rng& rng);

// One execution's time: tau_s times spread_factor at the cv of `batch_items`.
double draw_kernel_time(double tau_s, const KernelSpread& spread, double batch_items, Rng& rng);

// "lognormal, cv 0.05" or "gamma, cv 0.2 at batch 1 to 0.01 at batch 256 (4 points)".
std::string describe(const KernelSpread& spread);

}  // namespace sonicsim
