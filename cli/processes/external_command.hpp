#pragma once
// Running another program (Slurm's sbatch and squeue): found on the PATH, its arguments passed as
// they are, no shell in between.
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace sonicsim::cli {

struct CommandOutput {
  int exit_code = 0;   // 128 + N when signal N ended it
  std::string output;  // stdout and stderr together
};

// Runs it to the end. Throws std::runtime_error when it cannot be started (not on the PATH).
CommandOutput run_external(const std::vector<std::string>& command);

// A program left running, its stdout on a pipe and its stderr in a file.
class RunningCommand {
 public:
  RunningCommand(const std::vector<std::string>& command, const std::string& stderr_file);
  RunningCommand(const RunningCommand&) = delete;
  RunningCommand& operator=(const RunningCommand&) = delete;
  ~RunningCommand();

  // Its next line of stdout (without the newline); empty at the end of its output.
  std::string read_line();
  // Its exit code once it has ended; no value while it runs.
  std::optional<int> exit_code();
  // Waits for its end.
  int wait();

 private:
  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  std::optional<int> exit_code_;
};

}  // namespace sonicsim::cli
