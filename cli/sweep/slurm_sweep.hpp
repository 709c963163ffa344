#pragma once
// `sonicsim sweep --executor slurm`: the pending points go to Slurm as one job array (sbatch), each
// array task running its points into the sweep directory as the local executor would. Slurm does
// all the scheduling; sonicsim writes the task list and the batch script, submits, and (unless told
// not to) waits with sbatch --wait. Kept in DIR/slurm/: submission.json (the job id and each task's
// points), task.sh, sbatch.err, and each task's log JOB_TASK.out.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli/sweep/slurm_array.hpp"
#include "cli/sweep/sweep_directory.hpp"

namespace sonicsim::cli {

// Submits `pending` and, if `wait`, waits for the job's end, drawing progress when `show_progress`.
// Returns the job id.
long long submit_to_slurm(const SweepDirectory& sweep, const std::vector<int>& pending,
                          const SlurmArrayOptions& options, bool wait, bool show_progress);

// Waits, drawing progress, until squeue no longer lists `job` (submitted by an earlier command).
void wait_for_slurm_job(const SweepDirectory& sweep, long long job, bool show_progress);

// The Slurm job last submitted for this sweep, if squeue still lists it (pending, running or
// completing); no value without a submission or where squeue cannot be run.
std::optional<long long> active_slurm_job(const std::filesystem::path& sweep_dir);

// Why a point of the last submission has no result: its task's log, or that the job still runs.
std::string slurm_missing_reason(const std::filesystem::path& sweep_dir, int point);

// Inside an array task (SLURM_ARRAY_TASK_ID set): runs the task's points; exit code.
int run_slurm_task(const std::filesystem::path& sweep_dir);

}  // namespace sonicsim::cli
