#pragma once
// Integer counts drawn per job or per event: how many events a job runs (EventCount, in
// models/jobs/job_submission.hpp) and how many items (jets, particles, patches) one event gives an
// inference module (ItemCount). A fixed count draws nothing, so scenarios without distributions
// keep their streams.
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "models/workload/rng.hpp"

namespace sonicsim {

// Every integer from min to max (inclusive) equally likely.
struct UniformCount {
  int min = 1, max = 1;
};
// Drawn uniformly among recorded counts (e.g. jets per event from a sample of real events).
struct EmpiricalCount {
  std::vector<int> samples;
};
// Poisson of the given mean, drawn as the number of unit-rate exponential gaps that fit in `mean`
// (exact, and reproducible across platforms; its cost grows with the mean, hence kMaxPoissonMean).
struct PoissonCount {
  double mean = 0;
};

inline constexpr double kMaxPoissonMean = 10'000;

int draw(int fixed, Rng& rng);
int draw(const UniformCount& count, Rng& rng);
int draw(const EmpiricalCount& count, Rng& rng);
int draw(const PoissonCount& count, Rng& rng);
double count_mean(int fixed);
double count_mean(const UniformCount& count);
double count_mean(const EmpiricalCount& count);
double count_mean(const PoissonCount& count);

using ItemCount = std::variant<int, UniformCount, EmpiricalCount, PoissonCount>;

bool is_fixed(const ItemCount& count);
int sample(const ItemCount& count, Rng& rng);
double mean(const ItemCount& count);

// (count, probability) over the support, in increasing count; the Poisson's is cut where its upper
// tail falls below 1e-15, and the kept probabilities renormalised.
std::vector<std::pair<int, double>> probabilities(const ItemCount& count);

// The largest count (for the Poisson, the last count of probabilities()): what size limits check.
int largest(const ItemCount& count);

std::string describe(const ItemCount& count);

}  // namespace sonicsim
