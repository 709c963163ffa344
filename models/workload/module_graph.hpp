#pragma once
// The modules of an event as a dependency graph: each module waits for the modules it names in
// "after" (CMSSW prefetches a module's inputs before running it: FWCore/Framework/src/Worker.h,
// Worker::doWorkAsync and edPrefetchAsync), and runs once they are all done. A workload without
// one runs its modules as a chain, in the order written.
#include <cstddef>
#include <vector>

namespace sonicsim {

struct ModuleGraph {
  // Per module (the workload's module index): the modules it waits for, ascending, no repeats.
  std::vector<std::vector<int>> after;

  // Per module: the modules that wait for it, ascending.
  std::vector<std::vector<int>> dependents() const;
  // The modules that wait for nothing, ascending.
  std::vector<int> roots() const;
};

// One cycle of `after`, as the modules along it (each waits for the next, the last for the first);
// empty when there is none. Found by a depth-first search in module order, so the same graph
// always reports the same cycle.
std::vector<int> find_cycle(const std::vector<std::vector<int>>& after);

}  // namespace sonicsim
