#include "cli/processes/external_command.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace sonicsim::cli {

namespace {

int exit_code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

// posix_spawnp with stdout (and stderr, unless it goes to `stderr_file`) into a new pipe.
pid_t spawn(const std::vector<std::string>& command, const std::string& stderr_file, int& read_end) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  if (stderr_file.empty())
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  else
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> argv;
  for (const std::string& word : command) argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int error = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (error != 0) {
    close(pipe_fds[0]);
    throw std::runtime_error("cannot run " + command[0] + ": " + std::strerror(error) +
                             (error == ENOENT ? " (is it on the PATH?)" : ""));
  }
  read_end = pipe_fds[0];
  return pid;
}

}  // namespace

CommandOutput run_external(const std::vector<std::string>& command) {
  int fd = -1;
  const pid_t pid = spawn(command, "", fd);
  CommandOutput result;
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0)
      result.output.append(buffer, static_cast<std::size_t>(n));
    else if (n == 0 || errno != EINTR)
      break;
  }
  close(fd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = exit_code_of(status);
  return result;
}

RunningCommand::RunningCommand(const std::vector<std::string>& command, const std::string& stderr_file) {
  pid_ = spawn(command, stderr_file, stdout_fd_);
}

RunningCommand::~RunningCommand() {
  if (stdout_fd_ >= 0) close(stdout_fd_);
  if (!exit_code_) wait();
}

std::string RunningCommand::read_line() {
  std::string line;
  char c;
  for (;;) {
    const ssize_t n = read(stdout_fd_, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || c == '\n') return line;
    line += c;
  }
}

std::optional<int> RunningCommand::exit_code() {
  if (exit_code_) return exit_code_;
  int status = 0;
  const pid_t done = waitpid(pid_, &status, WNOHANG);
  if (done == pid_)
    exit_code_ = exit_code_of(status);
  else if (done < 0 && errno != EINTR)
    exit_code_ = 1;
  return exit_code_;
}

int RunningCommand::wait() {
  while (!exit_code_) {
    int status = 0;
    const pid_t done = waitpid(pid_, &status, 0);
    if (done == pid_)
      exit_code_ = exit_code_of(status);
    else if (done < 0 && errno != EINTR)
      exit_code_ = 1;
  }
  return *exit_code_;
}

}  // namespace sonicsim::cli
