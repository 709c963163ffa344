#pragma once
// The steady-state mean per-event time of a dynamic farm over whole load cycles
// (models/scenario/load_cycle.hpp): the events that complete in one cycle are one batch, so an
// estimate never covers part of a wave or of an autoscaler's response to it. The first cycles are
// cut as the farm's transient by MSER over the cycle means (batches of one cycle), and the mean over
// the cycles kept is the ratio of their summed per-event times to their event count, with the
// ratio estimator's interval (the regenerative method's: Crane & Iglehart 1975; Law, Simulation
// Modeling and Analysis, 5th ed., section 9.5), as cycles hold different numbers of events.
#include <cstddef>
#include <vector>

#include "analysis/records.hpp"
#include "analysis/stats/steady_event_time.hpp"

namespace sonicsim {

// An interval needs stats::kMinMserBatches cycles (so that MSER can cut a transient), and this many
// after the cut. Schmeiser (1982, Operations Research 30(3))
// finds 10 to 30 batches best for a run of given length, but fewer, larger batches keep their
// coverage when their means are independent and normal (the t-quantile's degrees of freedom pay
// for them in width); waves rarely give a run more than a few dozen cycles of steady load.
inline constexpr std::size_t kMinCycles = 5;

// Over cycles [k c, (k + 1) c) from the first that starts at or after `warmup_s`, each ending by
// `until_s`; events that start before `warmup_s` are left out, the rest go to the cycle in which they
// complete. A cycle in which no event completes (an idle farm) holds no batch.
SteadyEventTime cycle_event_time(const std::vector<EventRecord>& events, double warmup_s, double cycle_s,
                                 double until_s);

}  // namespace sonicsim
