#include "analysis/summary/job_threads.hpp"

#include <algorithm>

namespace sonicsim {

JobRates job_rates(const JobRecord& job, double run_end_s) {
  JobRates rates;
  rates.wall_s = (job.outcome == JobOutcome::Running ? run_end_s : job.end_s) - job.start_s;
  if (rates.wall_s > 0) {
    rates.events_per_s = job.events / rates.wall_s;
    rates.cpu_efficiency = job.busy_thread_s / (job.threads * rates.wall_s);
  }
  return rates;
}

JobThreadsSummary summarize_job_threads(const SimulationResults& r) {
  JobThreadsSummary s;
  s.threads = r.header.threads;
  s.streams = r.header.streams;
  double busy_s = 0, core_s = 0;
  for (const JobRecord& job : r.jobs) {
    if (job.outcome == JobOutcome::Queued) continue;
    const JobRates rates = job_rates(job, r.end_s);
    const bool first = s.runs++ == 0;
    s.events_per_s_mean += rates.events_per_s;
    s.events_per_s_min = first ? rates.events_per_s : std::min(s.events_per_s_min, rates.events_per_s);
    s.events_per_s_max = std::max(s.events_per_s_max, rates.events_per_s);
    s.cpu_efficiency_mean += rates.cpu_efficiency;
    s.cpu_efficiency_min = first ? rates.cpu_efficiency : std::min(s.cpu_efficiency_min, rates.cpu_efficiency);
    s.cpu_efficiency_max = std::max(s.cpu_efficiency_max, rates.cpu_efficiency);
    busy_s += job.busy_thread_s;
    core_s += job.threads * rates.wall_s;
  }
  if (s.runs > 0) {
    s.events_per_s_mean /= static_cast<double>(s.runs);
    s.cpu_efficiency_mean /= static_cast<double>(s.runs);
  }
  if (core_s > 0) s.cpu_efficiency = busy_s / core_s;
  std::int64_t counted = 0;
  for (const EventRecord& e : r.events) {
    if (e.start_s < r.header.warmup_s) continue;
    ++counted;
    s.thread_wait_mean_s += e.thread_wait_s;
  }
  if (counted > 0) s.thread_wait_mean_s /= static_cast<double>(counted);
  return s;
}

}  // namespace sonicsim
