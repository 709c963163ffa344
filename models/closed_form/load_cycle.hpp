#pragma once
// The load cycle of a dynamic farm: the span over which its load repeats, so that a steady-state
// estimate covers whole cycles and never part of one. A batch system that submits in waves repeats
// every wave period while it submits, once the first wave's jobs could all have ended; an
// autoscaled group follows any change of its load within its settle time. Other farms have none:
// their load is steady from the last submission.
#include <limits>
#include <optional>
#include <string>

#include "models/scenario/scenario.hpp"

namespace sonicsim {

struct LoadCycle {
  double cycle_s = 0;
  // The cycles from `repeats_from_s` that end by `repeats_until_s` repeat the load: waves fill the
  // farm until the longest job of the first one can have ended (its events at the closed form's
  // t_ideal), and stop with the last wave's cycle. An autoscaler's repeat from 0, without an end.
  double repeats_from_s = 0;
  double repeats_until_s = std::numeric_limits<double>::infinity();
  const char* why = "";  // "the wave period", "the autoscaler's settle time"
  bool waves() const { return repeats_until_s < std::numeric_limits<double>::infinity(); }
};

// Unset for a farm whose load does not cycle.
std::optional<LoadCycle> load_cycle(const Scenario& scenario);

// How long an autoscaled group takes to follow a change of its load, up and down: the metric's
// rate window, one sync, the larger stabilisation window, then a pod's start (its mean) and
// readiness (the probe's initial delay and one period), or a pod's preStop and grace period.
double autoscaler_settle_s(const AutoscalingSpec& autoscaling);

}  // namespace sonicsim
