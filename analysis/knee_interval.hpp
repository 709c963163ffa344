#pragma once
// How well a plan knows its knee: the load range within which the per-event time crosses the
// tolerance's threshold, at 95%. The probes' per-event times, joined by straight lines, make the
// curve (the bracket's ends at their best estimates); the range runs from where the curve plus its
// uncertainty first passes the threshold to where the curve minus it last stays under. The
// uncertainty is the larger of the bracket ends' 95% half-widths (their own, or, where a probe has
// none, the t-interval of its replications: the same load with other seeds) and the probes' own
// scatter: a probe at more load that ran faster than one at less shows noise at least that large,
// which half-widths that deny it understate.
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
  int low = 0, high = 0;     // the range, in the search's load units
  double at = 0;             // where the curve crosses the threshold
  double uncertainty_s = 0;  // the larger of the two below
  double half_width_s = 0;   // the larger of the bracket ends' half-widths
  double scatter_s = 0;      // the largest fall of the per-event time towards more load among the probes
};

// Unset without a bracket (hi <= lo). `probes`: every sound probe of the search, the bracket's
// included; `baseline` the per-event time at load 1 (one job alone), where the curve starts.
std::optional<KneeBand> knee_band(int lo, const EndEstimate& at_lo, int hi, const EndEstimate& at_hi,
                                  const std::vector<ProbeTime>& probes, double baseline_s, double threshold_s);

}  // namespace sonicsim
