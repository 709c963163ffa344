#include "models/workload/module_graph.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace sonicsim {

std::vector<std::vector<int>> ModuleGraph::dependents() const {
  std::vector<std::vector<int>> waiting(after.size());
  for (std::size_t m = 0; m < after.size(); ++m)
    for (const int needed : after[m]) waiting[static_cast<std::size_t>(needed)].push_back(static_cast<int>(m));
  return waiting;  // ascending: m grows
}

std::vector<int> ModuleGraph::roots() const {
  std::vector<int> free;
  for (std::size_t m = 0; m < after.size(); ++m)
    if (after[m].empty()) free.push_back(static_cast<int>(m));
  return free;
}

// Iterative (a report may have 100,000 modules in one chain, too deep for the call stack).
std::vector<int> find_cycle(const std::vector<std::vector<int>>& after) {
  enum class Mark : std::uint8_t { New, OnPath, Done };
  std::vector<Mark> mark(after.size(), Mark::New);
  std::vector<std::pair<int, std::size_t>> path;  // module, next of its edges to follow
  for (std::size_t start = 0; start < after.size(); ++start) {
    if (mark[start] != Mark::New) continue;
    path.emplace_back(static_cast<int>(start), 0);
    mark[start] = Mark::OnPath;
    while (!path.empty()) {
      auto& [module, edge] = path.back();
      const auto& needed = after[static_cast<std::size_t>(module)];
      if (edge == needed.size()) {
        mark[static_cast<std::size_t>(module)] = Mark::Done;
        path.pop_back();
        continue;
      }
      const int next = needed[edge++];
      if (mark[static_cast<std::size_t>(next)] == Mark::Done) continue;
      if (mark[static_cast<std::size_t>(next)] == Mark::New) {
        mark[static_cast<std::size_t>(next)] = Mark::OnPath;
        path.emplace_back(next, 0);
        continue;
      }
      std::vector<int> cycle;  // `next` is on the path: the cycle is the path from it
      auto from = std::find_if(path.begin(), path.end(), [next](const auto& p) { return p.first == next; });
      for (; from != path.end(); ++from) cycle.push_back(from->first);
      return cycle;
    }
  }
  return {};
}

}  // namespace sonicsim
