#pragma once
// The steady-state estimate of the mean per-event time, as steady_estimates.hpp (batches of events)
// and cycle_estimate.hpp (whole load cycles) each make it.
#include <cstddef>
#include <optional>

#include "analysis/stats/steady_state.hpp"

namespace sonicsim {

struct SteadyEventTime {
  std::size_t series = 0;                 // events that started after the scenario's warm-up
  std::size_t warmup_cut = 0;             // of those, the first ones (in completion order) MSER-5 cut
  double warmup_end_s = 0;                // when the last cut event completed (the scenario's warm-up if none)
  bool warmup_at_limit = false;           // MSER-5's minimum on its bound: no steady state shown yet
  std::optional<stats::Interval> mean_s;  // none with fewer than 20 batches of min_batch_events (2 events alone)
  std::size_t min_batch_events = stats::kMinBatchSize;
  // Over whole load cycles (cycle_estimate.hpp) instead of batches of events: the cycle, the cycles
  // with events, and how many of them were cut as the transient. cycle_s 0: batches of events.
  double cycle_s = 0;
  std::size_t cycles = 0, cycles_cut = 0;
};

}  // namespace sonicsim
