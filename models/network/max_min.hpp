#pragma once
// Weighted max-min sharing of link capacities among flows, computed the way SimGrid 3.32's
// linear-max-min solver computes it (src/kernel/lmm/maxmin.cpp, MaxMin::maxmin_solve), so that a
// rate found here is the rate SimGrid gives the same flow, to rounding:
//
// - A flow's share of a link is proportional to 1 / its penalty (SimGrid's sharing penalty; for a
//   CM02 or LV08 transfer, its route's latency).
// - Progressive filling: the link with the least remaining capacity per unit of weight (remaining /
//   usage, the "level") saturates first, and fixes every flow on it that is not fixed yet at level /
//   penalty; unless one of those flows reaches its bound first (bound × penalty below the level),
//   in which case only the flows with the least bound × penalty are fixed, at their bound, and the
//   levels are computed again.
// - SimGrid's tolerances are kept: a link whose remaining capacity falls below capacity × precision,
//   or whose usage falls below precision, leaves the filling (maxmin.cpp's double_update and
//   double_positive); bounds within precision of the least bound × penalty count as equal.
#include <array>
#include <limits>
#include <vector>

namespace sonicsim::network {

// One flow of the system, or `count` identical flows (same penalty, bound and links).
struct SharingVariable {
  double penalty = 1;    // s (SimGrid's sharing penalty)
  double bound_Bps = 0;  // its own rate cap; <= 0: none (SimGrid treats a bound of 0 as none)
  double count = 1;
  std::array<int, 3> links{-1, -1, -1};  // indices of the links it crosses; -1: unused slot
};

struct SharingResult {
  static constexpr int kBound = -1;    // fixed at its bound
  static constexpr int kUnfixed = -2;  // no link fixed it (SimGrid leaves its value at 0)
  std::vector<double> value_Bps;       // per variable: each of its flows' rate, before the bandwidth factor
  std::vector<int> fixed_by;           // per variable: the link whose saturation fixed it, or kBound, kUnfixed
  std::vector<double> level;           // per link: remaining / usage when it saturated; +inf if it never did
};

class MaxMinSolver {
 public:
  explicit MaxMinSolver(double precision = 1e-5) : precision_(precision) {}

  void solve(const std::vector<double>& capacity_Bps, const std::vector<SharingVariable>& variables,
             SharingResult& result);

 private:
  void fix(const SharingVariable& variable, double value, const std::vector<double>& capacity_Bps);

  double precision_;
  // Workspace, kept between calls so that solving allocates nothing once it has grown.
  std::vector<double> remaining_, usage_;
  std::vector<int> first_, next_on_link_, member_;  // the variables of each link, as linked lists
  std::vector<char> in_filling_;
  std::vector<int> filling_, saturated_, candidates_;
  std::vector<unsigned> seen_;
  unsigned stamp_ = 0;
};

inline constexpr double kNoLevel = std::numeric_limits<double>::infinity();

}  // namespace sonicsim::network
