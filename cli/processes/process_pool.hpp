#pragma once
// Runs tasks in forked child processes, at most `parallel` at once (SimGrid allows one engine per
// process, so every simulation of a sweep gets its own). A task fails when its body throws or
// the child dies; the others go on.
#include <functional>
#include <string>
#include <vector>

namespace sonicsim {

struct TaskOutcome {
  int task = 0;
  bool ok = false;
  std::string error;  // what the body threw, or how the child died
};

void run_in_processes(const std::vector<int>& tasks, int parallel, const std::function<void(int task)>& body,
                      const std::function<void(const TaskOutcome&)>& on_done);

}  // namespace sonicsim
