#pragma once
// Random numbers that are reproducible across platforms: std::mt19937_64's output sequence is fixed
// by the C++ standard, but std::*_distribution are not, so the transforms are written out here.
#include <cmath>
#include <cstdint>
#include <random>

namespace sonicsim {

// SplitMix64: derives independent, well-mixed seeds for sub-streams (one per job, per client...),
// so a job's random draws do not depend on how the simulator interleaves actors.
constexpr std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t stream) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (stream + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The streams of the variability of the servers and of perf_analyzer's clients, apart from the
// others (a job's: its index; 2^59: the autoscaler; 2^60 + server: failures; 2^61 + job:
// balancing; 2^62: submissions). One stream per kernel-running instance (server, model, instance
// index on the server) and one per perf_analyzer client (a closed-loop client, or a request-rate
// request, which has a thread of its own), so draws do not depend on how actors interleave.
constexpr std::uint64_t kernel_time_seed(std::uint64_t seed, int server, int model, int instance) {
  const std::uint64_t of_server = mix_seed(seed, (std::uint64_t{1} << 58) + static_cast<std::uint64_t>(server));
  return mix_seed(mix_seed(of_server, static_cast<std::uint64_t>(model)), static_cast<std::uint64_t>(instance));
}
constexpr std::uint64_t perf_client_seed(std::uint64_t seed, std::int64_t client) {
  return mix_seed(seed, (std::uint64_t{1} << 57) + static_cast<std::uint64_t>(client));
}

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

  // Uniform in (0, 1]: safe to take the logarithm of.
  double uniform_open_zero() { return 1.0 - uniform(); }

  // Standard normal by the Box-Muller transform (one of the pair is used, so each call consumes
  // exactly two draws and the stream stays easy to reason about).
  double standard_normal() {
    const double u1 = uniform_open_zero();
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
  }

  // Uniform integer in [0, n).
  std::uint64_t below(std::uint64_t n) { return static_cast<std::uint64_t>(uniform() * static_cast<double>(n)); }

 private:
  std::mt19937_64 engine_;
};

}  // namespace sonicsim
