#include "models/jobs/job_submission.hpp"

#include <algorithm>
#include <numeric>

#include "models/io/overloaded.hpp"
#include "models/workload/distribution.hpp"

namespace sonicsim {
namespace {

// Far from the job indices that seed each job's own stream (mix_seed(seed, job)).
constexpr std::uint64_t kSubmitStream = std::uint64_t{1} << 62;
constexpr std::uint64_t kEventsStream = kSubmitStream + 1;

// The submit patterns that are also start patterns (all_at_once, staggered, spread, waves).
StartPattern as_start_pattern(const SubmitPattern& pattern) {
  return std::visit(
      [](const auto& p) -> StartPattern {
        if constexpr (std::is_constructible_v<StartPattern, decltype(p)>)
          return p;
        else
          return StartAllAtOnce{};
      },
      pattern);
}

}  // namespace

double start_time(const StartPattern& pattern, int job, int jobs) {
  if (const auto* s = std::get_if<StartStaggered>(&pattern)) return job * s->interval_s;
  if (const auto* s = std::get_if<StartSpread>(&pattern)) return job * s->window_s / jobs;
  if (const auto* w = std::get_if<StartWaves>(&pattern)) return (job / w->jobs_per_wave) * w->period_s;
  return 0;
}

int draw_events(const EventCount& count, Rng& rng) {
  return std::visit([&rng](const auto& c) { return draw(c, rng); }, count);
}

int most_events(const EventCount& count) {
  return std::visit(
      Overloaded{[](int fixed) { return fixed; }, [](const UniformCount& u) { return u.max; },
                 [](const EmpiricalCount& e) { return *std::max_element(e.samples.begin(), e.samples.end()); }},
      count);
}

double mean_events(const EventCount& count) {
  return std::visit([](const auto& c) { return count_mean(c); }, count);
}

std::vector<PlannedJob> plan_jobs(const JobsSpec& w, std::uint64_t seed) {
  // Submit times and event counts draw from separate streams: changing one leaves the other alone,
  // so two variants of a scenario compare on the same jobs.
  Rng submit_rng(mix_seed(seed, kSubmitStream));
  Rng events_rng(mix_seed(seed, kEventsStream));
  std::vector<PlannedJob> jobs(static_cast<std::size_t>(w.jobs));
  double poisson_clock = 0;
  for (int j = 0; j < w.jobs; ++j) {
    PlannedJob& job = jobs[static_cast<std::size_t>(j)];
    std::optional<int> traced_events;
    if (!w.submit) {
      job.submit_s = start_time(w.start, j, w.jobs);
    } else if (const auto* poisson = std::get_if<SubmitPoisson>(&*w.submit)) {
      poisson_clock += sample(ExponentialDist{poisson->mean_interval_s}, submit_rng);
      job.submit_s = poisson_clock;
    } else if (const auto* trace = std::get_if<SubmitTrace>(&*w.submit)) {
      job.submit_s = trace->submit_s[static_cast<std::size_t>(j)];
      traced_events = trace->events[static_cast<std::size_t>(j)];
    } else {
      job.submit_s = start_time(as_start_pattern(*w.submit), j, w.jobs);
    }
    if (traced_events)
      job.events = traced_events;
    else if (w.events_per_job)
      job.events = draw_events(*w.events_per_job, events_rng);
  }
  return jobs;
}

}  // namespace sonicsim
