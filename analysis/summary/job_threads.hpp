#pragma once
// Jobs with threads and streams (Workload::threaded): how fast each job run went and how busy it
// kept its threads. CPU efficiency is as grid accounting reports it: the job's thread-seconds spent
// computing over the cores it held for its wall time (threads x wall); a thread blocked in a
// synchronous call, or idle while every stream waits for an ExternalWork answer, is not busy.
#include <cstdint>

#include "analysis/records.hpp"

namespace sonicsim {

struct JobRates {
  double wall_s = 0;  // start to end (to `run_end_s` for a run still running)
  double events_per_s = 0;
  double cpu_efficiency = 0;  // busy_thread_s / (threads x wall_s)
};

// For a job run that started; 0 rates for one that took no time.
JobRates job_rates(const JobRecord& job, double run_end_s);

struct JobThreadsSummary {
  int threads = 1, streams = 1;
  std::int64_t runs = 0;  // job runs that started
  // Over those runs (0 without any):
  double events_per_s_mean = 0, events_per_s_min = 0, events_per_s_max = 0;
  double cpu_efficiency = 0;  // all runs together: busy thread-seconds / (threads x wall) summed
  double cpu_efficiency_mean = 0, cpu_efficiency_min = 0, cpu_efficiency_max = 0;
  double thread_wait_mean_s = 0;  // per event counted (after the warm-up): waits for a thread
  bool operator==(const JobThreadsSummary&) const = default;
};

JobThreadsSummary summarize_job_threads(const SimulationResults& results);

}  // namespace sonicsim
