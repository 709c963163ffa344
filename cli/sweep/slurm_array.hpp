#pragma once
// How `sonicsim sweep --executor slurm` hands its points to Slurm: one job array (sbatch --array),
// each array task running a few of the pending points. Pure text: the CLI runs sbatch with these.
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

// Slurm's default MaxArraySize is 1001 (task ids 0 to 1000; slurm.conf(5), MaxArraySize).
inline constexpr int kMaxArrayTasks = 1000;

// Each option as the user gave it; unset: Slurm's (or the site's) default.
struct SlurmArrayOptions {
  std::optional<std::string> partition;   // sbatch --partition
  std::optional<std::string> time_limit;  // sbatch --time, per array task
  std::optional<std::string> account;     // sbatch --account
  std::optional<int> array_parallelism;   // tasks running at once (--array=0-N%P)
  std::optional<int> points_per_task;     // unset: as few as keep the array within kMaxArrayTasks
  std::vector<std::string> extra;         // further sbatch options, passed as given
};

// Checks what Slurm would refuse later, or take to mean something else, as one message naming the
// option: a --time in one of sbatch's formats, names that are one word not starting with '-', counts
// of at least 1. Throws std::invalid_argument.
void check_slurm_options(const SlurmArrayOptions& options);

// The pending points in consecutive groups of `points_per_task` (0: the fewest per task that keep
// the array within kMaxArrayTasks tasks); the last group may be shorter.
std::vector<std::vector<int>> array_tasks(const std::vector<int>& pending, int points_per_task);

// sbatch's arguments (without "sbatch"): --parsable, --wait when asked, the array, job name,
// per-task log files in `log_dir` (JOB_TASK.out), the working directory, then the options.
std::vector<std::string> sbatch_arguments(const SlurmArrayOptions& options, int tasks, bool wait,
                                          const std::string& log_dir, const std::string& working_dir,
                                          const std::string& script);

// A word a POSIX shell reads back as exactly `text`.
std::string shell_quoted(const std::string& text);

// The batch script every array task runs: sonicsim itself, on the sweep directory.
std::string array_task_script(const std::string& sonicsim, const std::string& sweep_dir);

// The job id from `sbatch --parsable` ("123" or "123;cluster"); throws std::invalid_argument
// quoting the text when it holds none.
long long parsable_job_id(const std::string& sbatch_output);

}  // namespace sonicsim
