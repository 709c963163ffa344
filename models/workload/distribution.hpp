#pragma once
// Time distributions of CPU modules and preprocessing steps. Values are in seconds.
#include <string>
#include <variant>
#include <vector>

#include "models/workload/rng.hpp"

namespace sonicsim {

struct ConstantDist {
  double value;
};
// Normal truncated at zero (negative draws are redrawn); mean and stddev of the untruncated normal.
struct NormalDist {
  double mean, stddev;
};
// Lognormal given by the mean and standard deviation of the variable itself (not of its logarithm).
struct LognormalDist {
  double mean, stddev;
};
struct ExponentialDist {
  double mean;
};
// Draws uniformly among measured samples.
struct EmpiricalDist {
  std::vector<double> samples;
};

using Distribution = std::variant<ConstantDist, NormalDist, LognormalDist, ExponentialDist, EmpiricalDist>;

double sample(const Distribution& dist, Rng& rng);

// Expected value of the distribution as sampled (for the truncated normal, of the truncated one).
double mean(const Distribution& dist);

std::string describe(const Distribution& dist);

}  // namespace sonicsim
