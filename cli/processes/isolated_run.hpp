#pragma once
// SimGrid allows one engine per process: simulations run in forked children. A child runs a body,
// sends back its text (or the error it threw) through a pipe and exits.
#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

namespace sonicsim {

struct ChildProcess {
  pid_t pid;
  int output_fd;  // read end of the child's pipe
};

ChildProcess start_child(const std::function<std::string()>& body);

// Everything the child sent; closes the descriptor. Read before waiting for a child whose text may
// not fit the pipe's buffer.
std::string read_child_output(int output_fd);

// The body's text; or the child's error, rethrown as an InputError if it was one, else as a
// std::runtime_error; or a std::runtime_error saying how the child died.
std::string child_result(const std::string& sent, int wait_status);

// Runs `body` in a forked child and returns the text it produced.
std::string run_isolated(const std::function<std::string()>& body);

// Runs each body in a forked child, at most `parallel` at once, and returns their texts in order; the
// first failure (in order) is rethrown as run_isolated would, once every child has ended.
std::vector<std::string> run_isolated_all(const std::vector<std::function<std::string()>>& bodies, int parallel);

}  // namespace sonicsim
