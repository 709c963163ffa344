#pragma once
// How well a plan knows its knee: the load range within which the per-event time crosses the
// tolerance's threshold, at 95%. The bracket's ends (the last load within, the first past) are at
// their best estimates, with an uncertainty u: the larger of their 95% half-widths (their own, or,
// where a probe has none, the t-interval of its replications: the same load with other seeds) and
// the probes' own scatter (a probe at more load that ran faster than one at less shows noise at
// least that large, which half-widths that deny it understate). The curve near the knee is taken
// as the line through the bracket's low end with the slope of the secant between the nearest
// probes surely on either side (under the threshold by more than u below, over it by more than u
// above), or of the bracket alone where there are none; shifted by ±u, it crosses the threshold at
// the range's ends. The range never leaves those sure probes, and takes in any probe that
// contradicts it (within the tolerance above it, past it below it).
#include <optional>
#include <vector>

namespace sonicsim {

// One probe of the search: its load, its per-event time and whether it was within the criteria.
struct ProbeTime {
  int x = 0;
  double event_s = 0;
  bool within = false;
};

// What is known of the per-event time at a bracket end.
struct EndEstimate {
  double mean_s = 0, half_width_s = 0;
  int runs = 1;  // 1: the probe's own interval; more: replications
};

// The t-interval of replications' per-event times (at least two).
std::optional<EndEstimate> replicated(const std::vector<double>& event_s);

struct KneeBand {
  int low = 0, high = 0;            // the range, in the search's load units
  double at = 0;                    // where the line crosses the threshold
  double slope_s = 0;               // of the line, per unit of load
  bool slope_from_bracket = false;  // no probe surely on one side: the bracket's own slope
  double uncertainty_s = 0;         // the larger of the two below
  double half_width_s = 0;          // the larger of the bracket ends' half-widths
  double scatter_s = 0;             // the largest fall of the per-event time towards more load among the probes
};

// Unset without a bracket (hi <= lo), or where the bracket's estimates do not rise (then nothing
// locates the crossing). `probes`: every sound probe of the search, the bracket's included.
std::optional<KneeBand> knee_band(int lo, const EndEstimate& at_lo, int hi, const EndEstimate& at_hi,
                                  const std::vector<ProbeTime>& probes, double threshold_s);

}  // namespace sonicsim
