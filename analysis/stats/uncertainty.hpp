#pragma once
// What declared unknowns do to an output: its band over the runs of their design, and how much of
// its variance each unknown explains.
//
// The index is first-order and variance-based: the share of Var(Y) that E[Y | X_i] carries, the
// correlation ratio (McKay 1995, "Evaluating prediction uncertainty", NUREG/CR-6311), estimated on the
// design's runs: E[Y | X_i] is each alternative's mean for a choice, and for a range a straight line
// in each of k equal bins of its probability (k = floor(sqrt(n) / 2), at least 1), so that a smooth
// trend counts whole. Fitting that many parameters explains about (p - 1) / (n - 1) of noise; the
// estimate is adjusted for them as R^2 is, so an unknown that does nothing reads near 0. The
// indices of unknowns that interact need not sum to 1.
#include <cstddef>
#include <vector>

namespace sonicsim::stats {

struct Band {
  double median = 0, p5 = 0, p95 = 0;  // over the design's runs: the 90% band is [p5, p95]
  bool operator==(const Band&) const = default;
};
// Quantiles as stats::describe takes them (linear interpolation). At least one value.
Band band_of(std::vector<double> values);

// `u`: the unknown's probability in each run (design point); `alternatives`: 0 for a range, else
// the number of alternatives (each owning an equal share of [0, 1)). NaN when Y does not vary.
double first_order_index(const std::vector<double>& u, const std::vector<double>& y, std::size_t alternatives);

}  // namespace sonicsim::stats
