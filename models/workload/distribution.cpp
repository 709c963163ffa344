#include "models/workload/distribution.hpp"

#include <cmath>
#include <numeric>
#include <sstream>

#include "models/io/overloaded.hpp"

namespace sonicsim {

double sample(const Distribution& dist, Rng& rng) {
  return std::visit(
      Overloaded{
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
            const double sigma2 = std::log1p((d.stddev * d.stddev) / (d.mean * d.mean));
            const double mu = std::log(d.mean) - sigma2 / 2;
            return std::exp(mu + std::sqrt(sigma2) * rng.standard_normal());
          },
          [&](const ExponentialDist& d) { return -d.mean * std::log(rng.uniform_open_zero()); },
          [&](const EmpiricalDist& d) { return d.samples[rng.below(d.samples.size())]; },
      },
      dist);
}

double mean(const Distribution& dist) {
  return std::visit(
      Overloaded{
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
            return std::accumulate(d.samples.begin(), d.samples.end(), 0.0) / static_cast<double>(d.samples.size());
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
