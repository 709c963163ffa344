#pragma once
// When each job of a workload is submitted (on a static farm: starts) and how many events it runs.
// Patterns give the times; Poisson gaps and per-job event counts are drawn from the seed's
// batch-system stream, so a scenario and seed always give the same jobs.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "models/workload/item_count.hpp"
#include "models/workload/rng.hpp"

namespace sonicsim {

struct StartAllAtOnce {};
struct StartStaggered {
  double interval_s = 0;
};
// Jobs start evenly over a window: job j of N at j * window / N (out of phase, whatever N is).
struct StartSpread {
  double window_s = 0;
};
struct StartWaves {
  int jobs_per_wave = 1;
  double period_s = 0;
};
using StartPattern = std::variant<StartAllAtOnce, StartStaggered, StartSpread, StartWaves>;

// Jobs submitted as a Poisson process: exponential gaps of this mean, the first one gap after t = 0.
struct SubmitPoisson {
  double mean_interval_s = 0;
};
// Jobs submitted at recorded times (a CSV of submit times, or a condor_history -json file), in
// submit order; `events`, where the trace gives them, override events_per_job for that job.
struct SubmitTrace {
  std::string file;
  std::vector<double> submit_s;
  std::vector<std::optional<int>> events;
};
using SubmitPattern = std::variant<StartAllAtOnce, StartStaggered, StartSpread, StartWaves, SubmitPoisson, SubmitTrace>;

// Events a job runs: the same count for every job, or drawn per job (uniformly from an inclusive
// range, or among measured counts).
using EventCount = std::variant<int, UniformCount, EmpiricalCount>;

// The jobs of a workload: how many, when each starts or is submitted, and how many events each runs.
struct JobsSpec {
  // Static farm ("start"): the jobs running at once, one per core, each started at its start time.
  // Batch system ("submit"): the jobs submitted; they wait in a FIFO queue for a free core.
  int jobs = 1;
  std::optional<EventCount> events_per_job;  // unset: the jobs run for the workload's duration
  StartPattern start = StartAllAtOnce{};
  std::optional<SubmitPattern> submit;  // set: jobs come from a batch system, and `start` is unused
};

struct PlannedJob {
  double submit_s = 0;
  std::optional<int> events;  // unset in a duration-limited run: the job runs until the end
};

std::vector<PlannedJob> plan_jobs(const JobsSpec& jobs, std::uint64_t seed);

// When job `job` of `jobs` starts (static farm) or is submitted (batch system).
double start_time(const StartPattern& pattern, int job, int jobs);

int draw_events(const EventCount& count, Rng& rng);
int most_events(const EventCount& count);
double mean_events(const EventCount& count);

}  // namespace sonicsim
