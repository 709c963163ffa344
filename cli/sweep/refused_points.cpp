#include "cli/sweep/refused_points.hpp"

#include <map>
#include <new>
#include <set>
#include <stdexcept>

namespace sonicsim::cli {
namespace {

constexpr std::size_t kValuesListed = 6;  // an axis's values named before "..."
constexpr std::size_t kPointsListed = 3;  // points of an irregular group named before "and N more"

// The values of one axis, by their indices on it: a run of three or more as "first..last".
std::string describe_values(const SweepAxis& axis, const std::set<std::size_t>& indices) {
  const bool run = indices.size() >= 3 && *indices.rbegin() - *indices.begin() + 1 == indices.size();
  if (run) return axis.values[*indices.begin()] + ".." + axis.values[*indices.rbegin()];
  std::string text;
  std::size_t listed = 0;
  for (std::size_t i : indices) {
    if (listed == kValuesListed) {
      text += ",... (" + std::to_string(indices.size()) + " values)";
      break;
    }
    text += (listed++ ? "," : "") + axis.values[i];
  }
  return text;
}

std::string describe_point(const std::vector<SweepAxis>& axes, const std::vector<std::string>& values) {
  std::string text;
  for (std::size_t a = 0; a < axes.size(); ++a) text += (a ? ", " : "") + axes[a].pointer + "=" + values[a];
  return text;
}

}  // namespace

std::vector<RefusedGroup> refused_points(int count, const std::function<void(int)>& check) {
  std::vector<RefusedGroup> groups;
  std::map<std::string, std::size_t> group_of;
  for (int point = 0; point < count; ++point) {
    std::string reason;
    try {
      check(point);
      continue;
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const std::exception& e) {
      reason = e.what();
    }
    const auto [it, added] = group_of.emplace(reason, groups.size());
    if (added) groups.push_back({reason, {}});
    groups[it->second].points.push_back(point);
  }
  return groups;
}

std::string describe_points(const std::vector<SweepAxis>& axes, const std::vector<std::vector<std::string>>& grid,
                            const std::vector<int>& points) {
  if (axes.empty() || points.empty()) return "the point";
  // Each axis's values among the points, by index on the axis.
  std::vector<std::set<std::size_t>> taken(axes.size());
  const auto index_on = [&](std::size_t point, std::size_t a) {
    std::size_t stride = 1;
    for (std::size_t b = a + 1; b < axes.size(); ++b) stride *= axes[b].values.size();
    return point / stride % axes[a].values.size();
  };
  double box = 1;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    for (int p : points) taken[a].insert(index_on(static_cast<std::size_t>(p), a));
    box *= static_cast<double>(taken[a].size());
  }
  if (box == static_cast<double>(points.size())) {  // a sub-grid: each axis's values say it
    std::string named, every;
    for (std::size_t a = 0; a < axes.size(); ++a) {
      if (taken[a].size() == axes[a].values.size() && axes[a].values.size() > 1 && axes.size() > 1) {
        every += (every.empty() ? "every " : " and every ") + axes[a].pointer;
      } else if (axes[a].values.size() > 1 || axes.size() == 1) {
        named += (named.empty() ? "" : ", ") + axes[a].pointer + "=" + describe_values(axes[a], taken[a]);
      }
    }
    if (named.empty()) return every.empty() ? "the point" : "every point";
    return every.empty() ? named : named + " at " + every;
  }
  std::string text;
  for (std::size_t i = 0; i < points.size() && i < kPointsListed; ++i)
    text += (i ? "; " : "") + describe_point(axes, grid[static_cast<std::size_t>(points[i])]);
  if (points.size() > kPointsListed) text += "; and " + std::to_string(points.size() - kPointsListed) + " more";
  return text;
}

}  // namespace sonicsim::cli
