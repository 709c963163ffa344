#include "models/workload/distribution.hpp"

#include <cmath>
#include <numeric>
#include <sstream>

#include "models/io/overloaded.hpp"

namespace sonicsim {
namespace {

// sigma^2 = ln(1 + cv^2) of a lognormal of mean m and standard deviation s, cv = s / m.
double lognormal_sigma2(double m, double s) {
  const double cv2 = (s * s) / (m * m);
  if (std::isnormal(m * m) && std::isnormal(s * s) && std::isfinite(cv2)) return std::log1p(cv2);
  // A square left the double's range (a mean or stddev below ~1e-154 s, a cv above ~1e154): the
  // same from ln cv, as 2 ln cv + ln(1 + cv^-2) where cv > 1 so that no exponential overflows.
  const double log_cv = std::log(s) - std::log(m);
  return log_cv > 0 ? 2 * log_cv + std::log1p(std::exp(-2 * log_cv)) : std::log1p(std::exp(2 * log_cv));
}

}  // namespace

double sample(const Distribution& dist, Rng& rng) {
  return std::visit(Overloaded{
                        [](const ConstantDist& d) { return d.value; },
                        [&](const NormalDist& d) {
                          if (d.stddev == 0) return d.mean;
                          for (;;) {
                            const double x = d.mean + d.stddev * rng.standard_normal();
                            if (x >= 0) return x;
                          }
                        },
                        [&](const LognormalDist& d) {
                          if (d.stddev == 0) return d.mean;
                          const double sigma2 = lognormal_sigma2(d.mean, d.stddev);
                          const double mu = std::log(d.mean) - sigma2 / 2;
                          return std::exp(mu + std::sqrt(sigma2) * rng.standard_normal());
                        },
                        [&](const ExponentialDist& d) { return -d.mean * std::log(rng.uniform_open_zero()); },
                        [&](const EmpiricalDist& d) { return d.samples[rng.below(d.samples.size())]; },
                    },
                    dist);
}

double mean(const Distribution& dist) {
  return std::visit(Overloaded{
                        [](const ConstantDist& d) { return d.value; },
                        [](const NormalDist& d) {
                          if (d.stddev == 0) return d.mean;
                          // Mean of a normal truncated to [0, inf): mu + sigma * phi(a) / (1 - Phi(a)), a = -mu/sigma.
                          const double a = -d.mean / d.stddev;
                          const double phi = std::exp(-a * a / 2) / std::sqrt(2 * M_PI);
                          const double tail = 0.5 * std::erfc(a / std::sqrt(2.0));
                          return d.mean + d.stddev * phi / tail;
                        },
                        [](const LognormalDist& d) { return d.mean; },
                        [](const ExponentialDist& d) { return d.mean; },
                        [](const EmpiricalDist& d) {
                          return std::accumulate(d.samples.begin(), d.samples.end(), 0.0) /
                                 static_cast<double>(d.samples.size());
                        },
                    },
                    dist);
}

std::string describe(const Distribution& dist) {
  std::ostringstream out;
  std::visit(Overloaded{
                 [&](const ConstantDist& d) { out << "constant " << d.value << " s"; },
                 [&](const NormalDist& d) { out << "normal(" << d.mean << " s, " << d.stddev << " s)"; },
                 [&](const LognormalDist& d) { out << "lognormal(" << d.mean << " s, " << d.stddev << " s)"; },
                 [&](const ExponentialDist& d) { out << "exponential(" << d.mean << " s)"; },
                 [&](const EmpiricalDist& d) { out << "empirical(" << d.samples.size() << " samples)"; },
             },
             dist);
  return out.str();
}

}  // namespace sonicsim
