#pragma once
// Steady-state estimation from one run's output series: where the warm-up ends (MSER-5) and a
// confidence interval for the steady-state mean (non-overlapping batch means).
#include <cstddef>
#include <optional>
#include <vector>

namespace sonicsim::stats {

// MSER-5 truncation (White 1997, "An effective truncation heuristic for bias reduction in
// simulation output", Simulation 69(6); White, Cobb & Spratt 2000, WSC): the series is averaged in
// consecutive batches of 5, Z_1..Z_m, and the warm-up is the d batches that minimise
//   MSER(d) = sum_{j>d} (Z_j - mean_{j>d} Z)^2 / (m - d)^2,   0 <= d <= m/2,
// the smallest d on ties. A minimum at d = m/2 means the run is too short to show a steady state.
struct Truncation {
  std::size_t observations = 0;  // 5 d: observations to discard from the front
  bool at_limit = false;         // the minimum fell on the largest d considered
};
// Series shorter than kMinMserBatches batches are not cut.
inline constexpr std::size_t kMinMserBatches = 10;
Truncation mser5(const std::vector<double>& series);
// The same rule over batches of `batch` observations (MSER-5 is batch 5; whole load cycles, already
// one mean each, are batch 1).
Truncation mser(const std::vector<double>& series, std::size_t batch);

// A Student-t interval for a mean: mean ± t_{1-(1-c)/2, n-1} s / sqrt(n).
struct Interval {
  double mean = 0;
  double half_width = 0;
  std::size_t batches = 0, batch_size = 0;  // for batch means; batch_size 1 for independent values
  double relative_half_width() const;       // half_width / |mean|; infinity when the mean is 0
  bool operator==(const Interval&) const = default;
};

double student_t_quantile(double probability, double degrees_of_freedom);

// Of independent, identically distributed values; none for fewer than two.
std::optional<Interval> mean_interval(const std::vector<double>& values, double confidence = 0.95);

// Non-overlapping batch means (Law, Simulation Modeling and Analysis, 5th ed., section 9.5.3;
// Schmeiser 1982 for 10 to 30 batches): the series is cut into `batches` equal consecutive batches
// (the remainder of the division dropped from the end) whose means are taken as independent. None
// when a batch would hold fewer than `min_batch_size` observations.
inline constexpr std::size_t kBatches = 20;
inline constexpr std::size_t kMinBatchSize = 5;
std::optional<Interval> batch_means_interval(const std::vector<double>& series, std::size_t batches = kBatches,
                                             double confidence = 0.95, std::size_t min_batch_size = kMinBatchSize);

}  // namespace sonicsim::stats
