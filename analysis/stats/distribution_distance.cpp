#include "analysis/stats/distribution_distance.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sonicsim::stats {
namespace {

// Walks the merged order of both sorted samples, calling step(width, F_a, F_b) for every interval
// between consecutive distinct values, and at(F_a, F_b) after each distinct value.
template <typename Interval>
void walk_cdfs(std::vector<double>& a, std::vector<double>& b, Interval interval) {
  if (a.empty() || b.empty()) throw std::invalid_argument("a distribution distance needs two non-empty samples");
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  std::size_t i = 0, j = 0;
  double x = std::min(a.front(), b.front());
  while (i < a.size() || j < b.size()) {
    while (i < a.size() && a[i] == x) ++i;
    while (j < b.size() && b[j] == x) ++j;
    const double next = std::min(i < a.size() ? a[i] : INFINITY, j < b.size() ? b[j] : INFINITY);
    interval(std::isfinite(next) ? next - x : 0.0, static_cast<double>(i) / na, static_cast<double>(j) / nb);
    x = next;
  }
}

}  // namespace

double ks_statistic(std::vector<double> a, std::vector<double> b) {
  double d = 0;
  walk_cdfs(a, b, [&](double, double fa, double fb) { d = std::max(d, std::abs(fa - fb)); });
  return d;
}

double wasserstein1(std::vector<double> a, std::vector<double> b) {
  double area = 0;
  walk_cdfs(a, b, [&](double width, double fa, double fb) { area += width * std::abs(fa - fb); });
  return area;
}

}  // namespace sonicsim::stats
