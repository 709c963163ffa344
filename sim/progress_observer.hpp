#pragma once
// What simulate() tells a progress display while it runs (simulation.hpp), and how often.
#include <cstdint>
#include <functional>
#include <optional>

namespace sonicsim {

// How far a run has got, for a progress display, and what bounds it where that is known before the
// run: its duration, or the events its jobs run (every job's count, as the seed draws them).
struct SimulationProgress {
  double simulated_s = 0;                    // the simulated clock (s)
  std::int64_t events = 0;                   // events completed so far
  std::optional<double> end_s;               // simulated s: the duration, or a stopping rule's max_time
  std::optional<std::int64_t> events_total;  // where every job runs a known number of events
  bool may_end_sooner = false;               // a stopping rule may end the run before either bound
};
using ProgressObserver = std::function<void(const SimulationProgress&)>;

// `observer`, where given, is called about every kProgressEveryS of wall time while the run goes on
// (never for a run shorter than that). Watching changes nothing in the run: the observer is called
// between simulated instants and only reads the clock and the events completed.
inline constexpr double kProgressEveryS = 0.25;

}  // namespace sonicsim
