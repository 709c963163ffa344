#pragma once
// The knee search of `sonicsim plan`: the largest job count whose mean per-event time stays within
// the tolerance of one job alone and whose shared links stay under the threshold. It starts at the
// closed form's knee and steps from it by the per-event time's excess over the threshold and the
// closed form's slope until it brackets the simulated knee, then closes the bracket by the secant
// through its ends (regula falsi, Illinois variant: Dowell & Jarratt 1971).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/knee_interval.hpp"
#include "analysis/summary/summary.hpp"

namespace sonicsim {

// A probe's mean per-event time: the steady-state estimate where the run has one, except where its
// workload drained before the estimate was precise (waves that end, a finite trace): then the mean
// over all of the workload's events.
double plan_event_time(const Summary& summary);
// Its 95% half-width, where it is the steady-state estimate.
std::optional<double> plan_event_time_half_width(const Summary& summary);

// The devices' utilisation a plan judges by: over the device-seconds in service where an autoscaler
// holds them (the pool's mean counts devices no pod held), else the mean over the devices.
double device_utilization(const Summary& summary);

struct BusiestLink {
  std::string name;
  double utilization = 0;
};
// The first of the most used links; utilisation -1 without links.
BusiestLink busiest_link(const Summary& summary);

struct KneeCriteria {
  double baseline_s, tolerance, link_threshold;
  double threshold_s() const { return (1 + tolerance) * baseline_s; }
  // A sound run (run_soundness.hpp) within the tolerance and the link threshold; an unsound one is
  // never within.
  bool within(const Summary& summary) const;
};

struct KneeSearch {
  int lo = 1, hi = 0;  // lo within the criteria; hi past them (0: none found up to the maximum)
  Summary at_lo, at_hi;
  std::vector<ProbeTime> probes;  // every probe of the search, in the order it ran (knee_interval.hpp)
};

// `probe(jobs)` simulates `jobs` jobs and returns the summary; `alone` is one job's;
// `slope_s_per_job` is the closed form's growth of the per-event time per job past its knee.
KneeSearch search_knee(int start, int max_jobs, const KneeCriteria& criteria, const Summary& alone,
                       double slope_s_per_job, const std::function<Summary(int)>& probe);

}  // namespace sonicsim
