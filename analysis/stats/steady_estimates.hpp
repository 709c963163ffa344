#pragma once
// One run's steady-state answers: the warm-up MSER-5 cuts from the per-event times, and 95%
// intervals for the mean per-event time (batch means over events in completion order), the
// throughput and the device utilisation (batch means over equal windows of the time after the cut).
#include <cstddef>
#include <optional>
#include <vector>

#include "analysis/records.hpp"
#include "analysis/stats/steady_state.hpp"

namespace sonicsim {

struct SteadyEventTime {
  std::size_t series = 0;        // events that started after the scenario's warm-up
  std::size_t warmup_cut = 0;    // of those, the first ones (in completion order) MSER-5 cut
  double warmup_end_s = 0;       // when the last cut event completed (the scenario's warm-up if none)
  bool warmup_at_limit = false;  // MSER-5's minimum on its bound: no steady state shown yet
  std::optional<stats::Interval> mean_s;  // none with fewer than 20 batches of min_batch_events (2 events alone)
  std::size_t min_batch_events = stats::kMinBatchSize;
  // Over whole load cycles (cycle_estimate.hpp) instead of batches of events: the cycle, the cycles
  // with events, and how many of them were cut as the transient. cycle_s 0: batches of events.
  double cycle_s = 0;
  std::size_t cycles = 0, cycles_cut = 0;
};

// Events in completion order, as the recorder keeps them. A batch holds at least
// `concurrent_jobs` events (and 5): jobs that run in step make the events of one cycle alike, so
// only batches spanning a cycle are close to independent. One job alone (concurrent_jobs 1) has
// independent, identically distributed events: a Student-t interval over them, from 2 events on.
// 0: not known (a batch system's jobs), batches of 5 or more.
// The smallest batch of the batch means above: `concurrent_jobs` events, and at least 5.
std::size_t min_batch_events(std::size_t concurrent_jobs);
SteadyEventTime steady_event_time(const std::vector<EventRecord>& events, double warmup_s, std::size_t concurrent_jobs);

struct SteadyState {
  SteadyEventTime event_time;
  double window_s = 0;  // the time after the cut over stats::kBatches: the windows of the two below
  std::optional<stats::Interval> events_per_s, device_utilization;  // none without enough events
};

SteadyState steady_state(const SimulationResults& results);

// Where a run's steady-state estimate starts: after the scenario's warm-up and, with a stopping rule,
// once every job has been submitted; waves, whose cycles repeat the load while they are submitted,
// from the first cycle that repeats it (CycleStop).
double estimate_start_s(double warmup_s, const std::optional<PrecisionStop>& stop);

// Whether a run's per-event time is known to `relative_half_width` (a fraction of the mean).
bool precise_enough(const SteadyEventTime& estimate, double relative_half_width);

}  // namespace sonicsim
