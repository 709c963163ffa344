#include "sim/isolated_run.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <iostream>
#include <stdexcept>

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

std::string run_isolated(const std::function<std::string()>& body) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("cannot create a pipe for the simulation process");
  std::cout.flush();  // or the child would write the parent's pending output a second time
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("cannot fork the simulation process");
  if (pid == 0) {
    close(fds[0]);
    int code = 0;
    std::string text;
    try {
      text = "0";
      text += body();
    } catch (const std::exception& e) {
      text = "1";
      text += e.what();
      code = 3;
    } catch (...) {
      text = "1unknown error";
      code = 3;
    }
    write_all(fds[1], text);
    close(fds[1]);
    _exit(code);
  }
  close(fds[1]);
  std::string text;
  char buffer[65536];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!text.empty() && text[0] == '1') throw std::runtime_error(text.substr(1));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty())
    throw std::runtime_error("the simulation process failed (wait status " + std::to_string(status) + ")");
  return text.substr(1);
}

}  // namespace sonicsim
