#pragma once
// The jobs of a run: each job run's record (jobs.csv), the jobs running and queued now, the worker
// cores they hold, and what failed runs lost. A job has two lives that overlap: its place in the
// batch system (submitted, given a slot on a node, the slot released; a batch-system workload only)
// and its run (the process that runs its events holding cores, in a static farm and a batch system).
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/records.hpp"

namespace sonicsim::sim {

class JobLedger {
 public:
  JobLedger() = default;
  // `static_farm_jobs`: a static farm's jobs, each with its record from the start, queued until its
  // run begins (0 for a batch system, whose records come from submitted()). `first_violation`: where
  // the first broken invariant of the run is described (INV-12 is this ledger's).
  JobLedger(bool threaded, bool batch_system, int threads, int static_farm_jobs, std::string& first_violation);

  // Batch system: jobs are submitted in job order; a resubmission is a new run of the job.
  void submitted(int job, double now);
  // The batch system gave the job a slot on worker `node`: its queue wait ends (start_s).
  void slot_granted(int job, int node, double now);
  // The job's slot is released (end_s): `failed`, the run ended by a failure; `resubmitted`, and
  // the job is submitted again.
  void slot_released(int job, double now, bool failed, bool resubmitted);
  // A static farm's job with threads runs on worker `node` (its record names it in jobs.csv).
  void placed(int job, int node);

  // The job's process begins or finishes running its events, holding `cores` of its node: counted
  // in the running jobs and core-seconds in both kinds of farm; a static farm's record is made here.
  void run_began(int job, int cores = 1);
  void run_finished(int job, bool failed, int cores = 1);
  // A run holding `cores` that started at `start_s` failed now, after `events` events.
  void run_failed(double start_s, double now, int events, int cores = 1);
  // A thread of job `job` (with threads) starts or stops computing.
  void thread_busy(int job, bool busy);
  // Job `job`'s current run completed an event (jobs that have no record are not counted).
  void event_done(int job) {
    if (const auto j = static_cast<std::size_t>(job); j < job_record_.size()) ++jobs_[job_record_[j]].events;
  }

  // Jobs running now (static farm and batch system) and waiting in the batch system's queue.
  std::int64_t running() const { return jobs_running_; }
  std::int64_t queued() const { return jobs_queued_; }

  // Counts the core-seconds and busy threads up to `end_s` and hands the records and totals over,
  // what failed runs lost to `failures`.
  void finish(double end_s, SimulationResults& results, FailureCounts& failures);

 private:
  struct ThreadsBusy {  // a job run's threads computing now, since when
    int busy = 0;
    double since = 0;
  };
  JobRecord& new_job_record(int job, double submit_s);
  void count_job_cores(double now);
  void count_busy_threads(std::size_t record, double now);
  void stop_busy_threads(std::size_t record, double now);

  bool threaded_ = false;
  bool batch_system_ = false;
  int threads_ = 0;
  std::string* first_violation_ = nullptr;
  std::vector<JobRecord> jobs_;            // one per job run
  std::vector<std::size_t> job_record_;    // job -> its current run in jobs_
  std::vector<ThreadsBusy> threads_busy_;  // jobs with threads: per record of jobs_
  std::int64_t jobs_running_ = 0, jobs_queued_ = 0;
  std::int64_t cores_running_ = 0;  // held by the running jobs
  double jobs_counted_to_s_ = 0;    // job_core_seconds_ integrated up to here
  double job_core_seconds_ = 0;
  std::int64_t jobs_failed_ = 0;
  std::int64_t events_lost_ = 0;
  double cpu_lost_s_ = 0;
};

}  // namespace sonicsim::sim
