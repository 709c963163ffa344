#include "sim/process_pool.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <cstdio>
#include <exception>
#include <iostream>
#include <map>
#include <stdexcept>

namespace sonicsim {
namespace {

struct Running {
  int task;
  int error_pipe;  // the child writes what went wrong here; read after it exits
};

[[noreturn]] void run_child(int task, int error_pipe, const std::function<void(int)>& body) {
  std::string error;
  try {
    body(task);
  } catch (const std::exception& e) {
    error = e.what();
  } catch (...) {
    error = "unknown error";
  }
  if (error.size() > 4000) error.resize(4000);  // stays within the pipe's buffer: the parent reads it after the exit
  for (std::size_t done = 0; done < error.size();) {
    const ssize_t n = write(error_pipe, error.data() + done, error.size() - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  close(error_pipe);
  _exit(error.empty() ? 0 : 3);
}

std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  return text;
}

std::string describe_status(int status) {
  if (WIFSIGNALED(status)) return std::string("the simulation process was killed by signal ") + strsignal(WTERMSIG(status));
  return "the simulation process exited with code " + std::to_string(WEXITSTATUS(status));
}

}  // namespace

void run_in_processes(const std::vector<int>& tasks, int parallel, const std::function<void(int)>& body,
                      const std::function<void(const TaskOutcome&)>& on_done) {
  std::map<pid_t, Running> running;
  std::size_t next = 0;
  while (next < tasks.size() || !running.empty()) {
    while (next < tasks.size() && static_cast<int>(running.size()) < std::max(1, parallel)) {
      int fds[2];
      if (pipe(fds) != 0) throw std::runtime_error("cannot create a pipe for a simulation process");
      std::cout.flush();  // or the child would write the parent's pending output a second time
      std::fflush(nullptr);
      const pid_t pid = fork();
      if (pid < 0) throw std::runtime_error("cannot fork a simulation process");
      if (pid == 0) {
        close(fds[0]);
        run_child(tasks[next], fds[1], body);
      }
      close(fds[1]);
      running.emplace(pid, Running{tasks[next], fds[0]});
      ++next;
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) throw std::runtime_error("lost track of the simulation processes");
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    TaskOutcome outcome{it->second.task, false, read_all(it->second.error_pipe)};
    close(it->second.error_pipe);
    running.erase(it);
    outcome.ok = outcome.error.empty() && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!outcome.ok && outcome.error.empty()) outcome.error = describe_status(status);
    on_done(outcome);
  }
}

}  // namespace sonicsim
