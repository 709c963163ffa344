#pragma once
// Jobs from a batch system (workloads with "submit"): a submitting actor hands each job to the
// FIFO queue at its submit time; a job starts on a free slot (a core, or as many cores of one node
// as it has threads) at once or when one frees, runs its events, ends and frees its slot for the
// next waiting job; a failed job is resubmitted up to workload.resubmit times. Job actors exist
// only while they run.
#include <vector>

#include <simgrid/s4u.hpp>

#include "models/jobs/batch_queue.hpp"
#include "models/jobs/job_submission.hpp"
#include "sim/client/grid_job.hpp"
#include "sim/platform.hpp"

namespace sonicsim::sim {

class BatchSystem {
 public:
  BatchSystem(const FarmPlatform& farm, std::vector<int> slots, std::vector<PlannedJob> jobs, JobContext context);

  // Creates the submitting actor.
  void start();

 private:
  void submit_all();
  void start_job(int job, int slot);
  void job_ended(int job, int slot, bool failed);

  const FarmPlatform& farm_;
  std::vector<int> slot_node_;  // the worker node (index in farm.workers) of each slot
  std::vector<PlannedJob> jobs_;
  JobContext context_;
  BatchQueue queue_;
  std::vector<int> runs_;  // per job: how many times it was resubmitted
};

}  // namespace sonicsim::sim
