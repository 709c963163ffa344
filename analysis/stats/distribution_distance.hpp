#pragma once
// Distances between two samples of a time distribution, for comparing simulation and logs.
#include <vector>

namespace sonicsim::stats {

// Two-sample Kolmogorov-Smirnov statistic: sup over x of |F_a(x) - F_b(x)| of the empirical CDFs.
// 0 for identical samples, 1 for samples that do not overlap. Both samples non-empty.
double ks_statistic(std::vector<double> a, std::vector<double> b);

// Wasserstein-1 (earth mover's) distance: the integral of |F_a(x) - F_b(x)| dx, in the samples'
// unit. A sample shifted by c is at distance |c|.
double wasserstein1(std::vector<double> a, std::vector<double> b);

}  // namespace sonicsim::stats
