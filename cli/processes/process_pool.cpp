#include "cli/processes/process_pool.hpp"

#include <sys/wait.h>

#include <map>
#include <stdexcept>

#include "cli/processes/isolated_run.hpp"

namespace sonicsim {

void run_in_processes(const std::vector<int>& tasks, int parallel, const std::function<void(int)>& body,
                      const std::function<void(const TaskOutcome&)>& on_done) {
  std::map<pid_t, ChildProcess> running;
  std::map<pid_t, int> task_of;
  std::size_t next = 0;
  while (next < tasks.size() || !running.empty()) {
    while (next < tasks.size() && static_cast<int>(running.size()) < std::max(1, parallel)) {
      const int task = tasks[next++];
      const ChildProcess child = start_child([&body, task] {
        body(task);
        return std::string();
      });
      running.emplace(child.pid, child);
      task_of.emplace(child.pid, task);
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) throw std::runtime_error("lost track of the simulation processes");
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    TaskOutcome outcome{task_of.at(pid), true, ""};
    try {
      child_result(read_child_output(it->second.output_fd), status);  // bodies send only errors: fits the pipe
    } catch (const std::runtime_error& e) {
      outcome = {outcome.task, false, e.what()};
    }
    running.erase(it);
    task_of.erase(pid);
    on_done(outcome);
  }
}

}  // namespace sonicsim
