#pragma once
// The knee search of `sonicsim plan`: the largest job count whose mean per-event time stays within
// the tolerance of one job alone and whose shared links stay under the threshold. It starts at the
// closed form's knee and steps from it by the per-event time's excess over the threshold and the
// closed form's slope until it brackets the simulated knee, then closes the bracket by the secant
// through its ends (regula falsi, Illinois variant: Dowell & Jarratt 1971).
#include <functional>
#include <optional>
#include <string>

#include "analysis/summary/summary.hpp"

namespace sonicsim {

// A probe's mean per-event time: the steady-state estimate where the stopping rule ended the run
// early, else the mean over the whole workload (as a run without the rule reports it).
double plan_event_time(const Summary& summary);
// Its 95% half-width, where the run has one.
std::optional<double> plan_event_time_half_width(const Summary& summary);

struct BusiestLink {
  std::string name;
  double utilization = 0;
};
// The first of the most used links; utilisation -1 without links.
BusiestLink busiest_link(const Summary& summary);

struct KneeCriteria {
  double baseline_s, tolerance, link_threshold;
  double threshold_s() const { return (1 + tolerance) * baseline_s; }
  bool within(const Summary& summary) const;
};

struct KneeSearch {
  int lo = 1, hi = 0;  // lo within the criteria; hi past them (0: none found up to the maximum)
  Summary at_lo, at_hi;
  // From the probes' 95% intervals: the most jobs whose interval lies wholly under the threshold,
  // and the fewest whose interval lies wholly over it; unset where no probe says so.
  std::optional<int> surely_within, surely_past;
};

// Where the per-event time crosses the threshold, with its 95% range, from the two probes that
// bracket the knee: the line through their means, shifted by their half-widths. Unset without a
// bracket (no probe past the knee) or without intervals at both ends.
struct KneeRange {
  double at = 0;             // the crossing of the line through the bracket's means
  int low = 0, high = 0;     // the job counts where the line shifted up and down by the half-widths crosses
  double slope_s = 0;        // per job, between the bracket's ends
  double half_width_s = 0;   // the larger of the two ends' half-widths
};
std::optional<KneeRange> knee_range(const KneeSearch& knee, const KneeCriteria& criteria);

// `probe(jobs)` simulates `jobs` jobs and returns the summary; `alone` is one job's;
// `slope_s_per_job` is the closed form's growth of the per-event time per job past its knee.
KneeSearch search_knee(int start, int max_jobs, const KneeCriteria& criteria, const Summary& alone,
                       double slope_s_per_job, const std::function<Summary(int)>& probe);

}  // namespace sonicsim
