#include "models/scenario/unknowns/unknowns_design.hpp"

#include <algorithm>
#include <numeric>

#include "models/workload/rng.hpp"

namespace sonicsim {
namespace {

// The design's stream: apart from every simulation stream (rng.hpp keeps 2^57 to 2^62 + ... for those).
constexpr std::uint64_t kDesignStream = std::uint64_t{1} << 63;

// Fisher-Yates with the project's uniform draws (std::shuffle's is not fixed by the standard).
void shuffle(std::vector<std::size_t>& v, Rng& rng) {
  for (std::size_t i = v.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(rng.uniform() * static_cast<double>(i));
    std::swap(v[i - 1], v[std::min(j, i - 1)]);
  }
}

// A Latin hypercube of n points over `columns` (indices into each point), the others left as they are.
void latin_hypercube(std::vector<DesignPoint>& points, const std::vector<std::size_t>& columns, Rng& rng) {
  const std::size_t n = points.size();
  std::vector<std::size_t> strata(n);
  for (std::size_t column : columns) {
    std::iota(strata.begin(), strata.end(), 0);
    shuffle(strata, rng);
    for (std::size_t i = 0; i < n; ++i)
      points[i][column] = (static_cast<double>(strata[i]) + rng.uniform()) / static_cast<double>(n);
  }
}

}  // namespace

std::size_t factorial_cells(const std::vector<DeclaredUnknown>& unknowns) {
  std::size_t cells = 1;
  for (const DeclaredUnknown& u : unknowns)
    if (u.alternatives() > 0) {
      cells *= u.alternatives();
      if (cells > kFactorialCombinations) return 0;
    }
  return cells;
}

std::size_t design_batch_size(const std::vector<DeclaredUnknown>& unknowns) {
  const std::size_t cells = std::max<std::size_t>(1, factorial_cells(unknowns));
  const std::size_t wanted = std::max<std::size_t>(10, 2 * unknowns.size());
  return (wanted + cells - 1) / cells * cells;
}

std::vector<DesignPoint> design_batch(const std::vector<DeclaredUnknown>& unknowns, std::size_t points,
                                      std::uint64_t seed, std::size_t batch) {
  Rng rng(mix_seed(mix_seed(seed, kDesignStream), batch));
  const std::size_t cells = factorial_cells(unknowns);
  std::vector<std::size_t> all(unknowns.size()), ranges, choices;
  for (std::size_t i = 0; i < unknowns.size(); ++i) (unknowns[i].alternatives() > 0 ? choices : ranges).push_back(i);
  std::iota(all.begin(), all.end(), 0);
  if (cells == 0 || choices.empty()) {  // a Latin hypercube over every unknown
    std::vector<DesignPoint> design(std::max<std::size_t>(points, 1), DesignPoint(unknowns.size(), 0.5));
    latin_hypercube(design, all, rng);
    return design;
  }
  // Every combination of the choices, each with a Latin hypercube of the ranges.
  const std::size_t per_cell = std::max<std::size_t>(1, (points + cells - 1) / cells);
  std::vector<DesignPoint> design;
  for (std::size_t cell = 0; cell < cells; ++cell) {
    std::vector<DesignPoint> block(per_cell, DesignPoint(unknowns.size(), 0.5));
    std::size_t rest = cell;
    for (std::size_t c : choices) {  // the cell's alternative of each choice, at the middle of its share
      const std::size_t k = unknowns[c].alternatives();
      for (DesignPoint& p : block) p[c] = (static_cast<double>(rest % k) + 0.5) / static_cast<double>(k);
      rest /= k;
    }
    latin_hypercube(block, ranges, rng);
    design.insert(design.end(), block.begin(), block.end());
  }
  return design;
}

}  // namespace sonicsim
