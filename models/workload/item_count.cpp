#include "models/workload/item_count.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <sstream>

#include "models/io/overloaded.hpp"

namespace sonicsim {

int draw(int fixed, Rng&) { return fixed; }
int draw(const UniformCount& count, Rng& rng) {
  return count.min + static_cast<int>(rng.below(static_cast<std::uint64_t>(count.max - count.min) + 1));
}
int draw(const EmpiricalCount& count, Rng& rng) { return count.samples[rng.below(count.samples.size())]; }
int draw(const PoissonCount& count, Rng& rng) {
  // Arrivals of a unit-rate Poisson process in [0, mean].
  int n = 0;
  for (double t = -std::log(rng.uniform_open_zero()); t <= count.mean; t -= std::log(rng.uniform_open_zero())) ++n;
  return n;
}

double count_mean(int fixed) { return static_cast<double>(fixed); }
double count_mean(const UniformCount& count) { return (static_cast<double>(count.min) + count.max) / 2; }
double count_mean(const EmpiricalCount& count) {
  return std::accumulate(count.samples.begin(), count.samples.end(), 0.0) / static_cast<double>(count.samples.size());
}
double count_mean(const PoissonCount& count) { return count.mean; }

bool is_fixed(const ItemCount& count) { return std::holds_alternative<int>(count); }

int sample(const ItemCount& count, Rng& rng) {
  return std::visit([&rng](const auto& c) { return draw(c, rng); }, count);
}

double mean(const ItemCount& count) {
  return std::visit([](const auto& c) { return count_mean(c); }, count);
}

std::vector<std::pair<int, double>> probabilities(const ItemCount& count) {
  using Pmf = std::vector<std::pair<int, double>>;
  return std::visit(Overloaded{
                        [](int fixed) {
                          return Pmf{{fixed, 1.0}};
                        },
                        [](const UniformCount& c) {
                          Pmf p;
                          const double each = 1.0 / (static_cast<double>(c.max) - c.min + 1);
                          for (int k = c.min; k <= c.max; ++k) p.emplace_back(k, each);
                          return p;
                        },
                        [](const EmpiricalCount& c) {
                          std::map<int, double> by_count;
                          for (int s : c.samples) by_count[s] += 1.0 / static_cast<double>(c.samples.size());
                          return Pmf(by_count.begin(), by_count.end());
                        },
                        [](const PoissonCount& c) {
                          if (!(c.mean > 0)) return Pmf{{0, 1.0}};
                          Pmf p;
                          double total = 0;
                          for (int k = 0;; ++k) {
                            const double pk = std::exp(k * std::log(c.mean) - c.mean - std::lgamma(k + 1.0));
                            p.emplace_back(k, pk);
                            total += pk;
                            // Past the mode the terms fall at least geometrically with ratio r = mean / (k + 1), so
                            // the tail beyond k is at most pk r / (1 - r).
                            const double r = c.mean / (k + 1.0);
                            if (r < 1 && pk * r / (1 - r) < 1e-15) break;
                          }
                          for (auto& entry : p) entry.second /= total;
                          return p;
                        },
                    },
                    count);
}

int largest(const ItemCount& count) {
  return std::visit(Overloaded{
                        [](int fixed) { return fixed; },
                        [](const UniformCount& c) { return c.max; },
                        [](const EmpiricalCount& c) { return *std::max_element(c.samples.begin(), c.samples.end()); },
                        [&count](const PoissonCount&) { return probabilities(count).back().first; },
                    },
                    count);
}

std::string describe(const ItemCount& count) {
  std::ostringstream out;
  std::visit(Overloaded{
                 [&](int fixed) { out << fixed; },
                 [&](const UniformCount& c) { out << "uniform(" << c.min << ".." << c.max << ")"; },
                 [&](const EmpiricalCount& c) {
                   out << "empirical(" << c.samples.size() << " samples, mean " << count_mean(c) << ")";
                 },
                 [&](const PoissonCount& c) { out << "poisson(mean " << c.mean << ")"; },
             },
             count);
  return out.str();
}

}  // namespace sonicsim
