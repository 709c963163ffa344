#include "models/network/max_min.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim::network {

// SimGrid's double_update (src/surf/surf_interface.hpp): subtract, and snap what falls below the
// tolerance to zero.
static void subtract_within(double& quantity, double amount, double tolerance) {
  quantity -= amount;
  if (quantity < tolerance) quantity = 0.0;
}

void MaxMinSolver::solve(const std::vector<double>& capacity_Bps, const std::vector<SharingVariable>& variables,
                         SharingResult& result) {
  const std::size_t links = capacity_Bps.size();
  const std::size_t count = variables.size();
  result.value_Bps.assign(count, 0.0);
  result.fixed_by.assign(count, SharingResult::kUnfixed);
  result.level.assign(links, kNoLevel);
  remaining_.assign(capacity_Bps.begin(), capacity_Bps.end());
  usage_.assign(links, 0.0);
  first_.assign(links, -1);
  next_on_link_.resize(3 * count);
  seen_.resize(std::max(count, links));
  for (std::size_t v = 0; v < count; ++v) {
    for (int j = 0; j < 3; ++j) {
      const int link = variables[v].links[static_cast<std::size_t>(j)];
      if (link < 0) continue;
      const int node = static_cast<int>(3 * v) + j;
      next_on_link_[static_cast<std::size_t>(node)] = first_[static_cast<std::size_t>(link)];
      first_[static_cast<std::size_t>(link)] = node;
    }
  }
  // maxmin_solve's first pass: the links that can saturate, with their usage (sum of weights).
  in_filling_.assign(links, 0);
  filling_.clear();
  for (std::size_t l = 0; l < links; ++l) {
    if (!(remaining_[l] > capacity_Bps[l] * precision_)) continue;
    for (int node = first_[l]; node >= 0; node = next_on_link_[static_cast<std::size_t>(node)]) {
      const SharingVariable& v = variables[static_cast<std::size_t>(node / 3)];
      if (v.count > 0) usage_[l] += v.count / v.penalty;
    }
    if (usage_[l] > 0) {
      in_filling_[l] = 1;
      filling_.push_back(static_cast<int>(l));
    }
  }
  while (!filling_.empty()) {
    double min_usage = -1;
    saturated_.clear();
    for (int l : filling_) {
      const double level = remaining_[static_cast<std::size_t>(l)] / usage_[static_cast<std::size_t>(l)];
      if (min_usage < 0 || min_usage > level) {
        min_usage = level;
        saturated_.assign(1, l);
      } else if (min_usage == level) {
        saturated_.push_back(l);
      }
    }
    ++stamp_;
    candidates_.clear();
    for (int l : saturated_) {
      for (int node = first_[static_cast<std::size_t>(l)]; node >= 0;
           node = next_on_link_[static_cast<std::size_t>(node)]) {
        const std::size_t v = static_cast<std::size_t>(node / 3);
        if (result.fixed_by[v] != SharingResult::kUnfixed || seen_[v] == stamp_ || !(variables[v].count > 0)) continue;
        seen_[v] = stamp_;
        candidates_.push_back(static_cast<int>(v));
      }
    }
    // The least bound × penalty below the level, among those flows: they reach their bound first.
    double min_bound = -1;
    for (int v : candidates_) {
      const SharingVariable& var = variables[static_cast<std::size_t>(v)];
      if (var.bound_Bps > 0 && var.bound_Bps * var.penalty < min_usage)
        min_bound = min_bound < 0 ? var.bound_Bps * var.penalty : std::min(min_bound, var.bound_Bps * var.penalty);
    }
    for (int v : candidates_) {
      const SharingVariable& var = variables[static_cast<std::size_t>(v)];
      double value;
      int by;
      if (min_bound < 0) {
        value = min_usage / var.penalty;
        by = SharingResult::kUnfixed;
        for (int link : var.links)
          if (link >= 0 && std::find(saturated_.begin(), saturated_.end(), link) != saturated_.end()) {
            by = link;
            break;
          }
      } else if (std::fabs(min_bound - var.bound_Bps * var.penalty) < precision_) {
        value = var.bound_Bps;
        by = SharingResult::kBound;
      } else {
        continue;  // its bound is further: a later round fixes it
      }
      result.value_Bps[static_cast<std::size_t>(v)] = value;
      result.fixed_by[static_cast<std::size_t>(v)] = by;
      fix(var, value, capacity_Bps);
    }
    if (min_bound < 0)
      for (int l : saturated_)
        if (result.level[static_cast<std::size_t>(l)] == kNoLevel)
          result.level[static_cast<std::size_t>(l)] = min_usage;
    if (candidates_.empty())  // only rounding residue kept these links in: nothing left to fix on them
      for (int l : saturated_) in_filling_[static_cast<std::size_t>(l)] = 0;
    std::erase_if(filling_, [this](int l) { return !in_filling_[static_cast<std::size_t>(l)]; });
  }
}

// The variable's flows take `value` each on every link they cross; a link left with (almost) no
// capacity or no unfixed flow leaves the filling.
void MaxMinSolver::fix(const SharingVariable& variable, double value, const std::vector<double>& capacity_Bps) {
  for (int link : variable.links) {
    if (link < 0) continue;
    const std::size_t l = static_cast<std::size_t>(link);
    subtract_within(remaining_[l], variable.count * value, capacity_Bps[l] * precision_);
    subtract_within(usage_[l], variable.count / variable.penalty, precision_);
    if (in_filling_[l] && (!(usage_[l] > precision_) || !(remaining_[l] > capacity_Bps[l] * precision_)))
      in_filling_[l] = 0;
  }
}

}  // namespace sonicsim::network
