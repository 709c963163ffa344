#pragma once
// The runs over a scenario's declared unknowns: a space-filling design of points, each a probability
// in [0, 1) per unknown (DeclaredUnknown::value_at turns it into the value). A Latin hypercube (McKay,
// Beckman & Conover 1979, Technometrics 21(2)): every unknown's probability range cut into n equal
// strata, each stratum used once at a random place within it, the strata paired at random across the
// unknowns. Where the alternatives of the choices make few combinations (at most
// kFactorialCombinations), every combination gets the same number of points, with a Latin hypercube
// of the ranges in each: a full factorial over the choices.
//
// Designs come in batches, each a design of its own with its own random stream (replicated Latin
// hypercubes), so that a stopping rule can add one until the band is steady. The stream is the
// design's, apart from the simulation's: the same scenario, seed and batch give the same points.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/scenario/unknowns/declared_unknown.hpp"

namespace sonicsim {

inline constexpr std::size_t kFactorialCombinations = 16;

using DesignPoint = std::vector<double>;  // one probability per unknown, in their order

// The smallest batch for these unknowns: 10 points and two per unknown, rounded up to whole
// factorial cells.
std::size_t design_batch_size(const std::vector<DeclaredUnknown>& unknowns);

// Batch `batch` (0, 1, ...) of `points` points (rounded up to whole factorial cells).
std::vector<DesignPoint> design_batch(const std::vector<DeclaredUnknown>& unknowns, std::size_t points,
                                      std::uint64_t seed, std::size_t batch);

// The number of combinations of the choices, where it is at most kFactorialCombinations; else 0.
std::size_t factorial_cells(const std::vector<DeclaredUnknown>& unknowns);

}  // namespace sonicsim
