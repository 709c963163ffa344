#include "cli/processes/isolated_run.hpp"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <stdexcept>

#include "models/io/input_error.hpp"

namespace sonicsim {
namespace {

void write_all(int fd, const std::string& text) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

ChildProcess start_child(const std::function<std::string()>& body) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("cannot create a pipe for a simulation process");
  std::cout.flush();  // or the child would write the parent's pending output a second time
  std::fflush(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("cannot fork a simulation process");
  if (pid > 0) {
    close(fds[1]);
    return ChildProcess{pid, fds[0]};
  }
  // The child dies with the parent (killed, or stopped by a signal): no orphaned simulation goes on.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(3);  // the parent died before the line above
  close(fds[0]);
  std::string text;
  int code = 0;
  try {
    text = "0";
    text += body();
  } catch (const InputError& e) {
    text = "2";
    text += e.what();
    code = 3;
  } catch (const std::exception& e) {
    text = "1";
    text += e.what();
    code = 3;
  } catch (...) {
    text = "1unknown error";
    code = 3;
  }
  if (code != 0 && text.size() > 4000) text.resize(4000);  // an error fits the pipe even if nobody reads yet
  write_all(fds[1], text);
  close(fds[1]);
  _exit(code);
}

std::string read_child_output(int output_fd) {
  std::string text;
  char buffer[65536];
  for (ssize_t n; (n = read(output_fd, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  close(output_fd);
  return text;
}

std::string child_result(const std::string& sent, int wait_status) {
  if (!sent.empty() && sent[0] == '2') throw InputError(sent.substr(1));
  if (!sent.empty() && sent[0] == '1') throw std::runtime_error(sent.substr(1));
  if (WIFSIGNALED(wait_status))
    throw std::runtime_error(std::string("the simulation process was killed by signal ") +
                             strsignal(WTERMSIG(wait_status)));
  if (!WIFEXITED(wait_status) || WEXITSTATUS(wait_status) != 0 || sent.empty())
    throw std::runtime_error("the simulation process failed (exit code " + std::to_string(WEXITSTATUS(wait_status)) +
                             ")");
  return sent.substr(1);
}

std::vector<std::string> run_isolated_all(const std::vector<std::function<std::string()>>& bodies, int parallel) {
  std::vector<std::string> texts(bodies.size());
  std::vector<std::string> sent(bodies.size());
  std::vector<int> statuses(bodies.size(), 0);
  std::vector<ChildProcess> children;
  std::size_t started = 0;
  // Children are read in the order they started: a child whose text does not fit its pipe waits
  // for its turn, and the next ones run meanwhile.
  for (std::size_t done = 0; done < bodies.size(); ++done) {
    while (started < bodies.size() && started < done + static_cast<std::size_t>(std::max(1, parallel)))
      children.push_back(start_child(bodies[started++]));
    sent[done] = read_child_output(children[done].output_fd);
    waitpid(children[done].pid, &statuses[done], 0);
  }
  for (std::size_t i = 0; i < bodies.size(); ++i) texts[i] = child_result(sent[i], statuses[i]);
  return texts;
}

std::string run_isolated(const std::function<std::string()>& body) {
  const ChildProcess child = start_child(body);
  const std::string sent = read_child_output(child.output_fd);
  int status = 0;
  waitpid(child.pid, &status, 0);
  return child_result(sent, status);
}

}  // namespace sonicsim
