#pragma once
// Calls a progress observer from SimGrid's time-advance signal, at most every kProgressEveryS of
// wall time, while one simulation runs. It schedules nothing (no actor, no timer, no run_until
// slice), so the run is the same, event for event, watched or not.
#include <chrono>
#include <cstdint>

#include "models/scenario/scenario.hpp"
#include "sim/recorder.hpp"
#include "sim/simulation.hpp"

namespace sonicsim::sim {

class ProgressWatch {
 public:
  // Nothing is watched when `observer` is empty. `events_total`: the events the planned jobs run,
  // where each has a count.
  ProgressWatch(const Scenario& scenario, std::optional<std::int64_t> events_total, const Recorder& recorder,
                const ProgressObserver& observer);
  ~ProgressWatch();
  ProgressWatch(const ProgressWatch&) = delete;
  ProgressWatch& operator=(const ProgressWatch&) = delete;

 private:
  static void on_time_advance();

  const Recorder& recorder_;
  const ProgressObserver& observer_;
  SimulationProgress progress_;
  std::chrono::steady_clock::time_point last_call_ = std::chrono::steady_clock::now();
  std::uint32_t advances_ = 0;
};

}  // namespace sonicsim::sim
