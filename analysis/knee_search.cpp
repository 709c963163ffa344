#include "analysis/knee_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "analysis/run_soundness.hpp"

namespace sonicsim {

namespace {

// A workload that drained (waves that end, a finite trace) before its estimate was precise is
// answered by the mean over all of its events; any other run by its steady state, where it has one.
bool answered_by_steady_state(const Summary& s) {
  return s.steady.event_time_s && !(s.precision_stop && s.precision_stop->drained);
}

}  // namespace

double plan_event_time(const Summary& s) {
  return answered_by_steady_state(s) ? s.steady.event_time_s->mean : s.event_time.mean;
}

std::optional<double> plan_event_time_half_width(const Summary& s) {
  if (!answered_by_steady_state(s)) return std::nullopt;
  return s.steady.event_time_s->half_width;
}

double device_utilization(const Summary& s) {
  return s.autoscaling ? s.autoscaling->gpu_utilization_in_service : s.gpu_utilization;
}

BusiestLink busiest_link(const Summary& summary) {
  BusiestLink b{"", -1};
  for (const LinkUtilization& link : summary.links)
    if (link.utilization > b.utilization) b = {link.name, link.utilization};
  return b;
}

bool KneeCriteria::within(const Summary& s) const {
  return unsound_reasons(s).empty() && plan_event_time(s) <= threshold_s() &&
         busiest_link(s).utilization <= link_threshold;
}

KneeSearch search_knee(int start, int max_jobs, const KneeCriteria& criteria, const Summary& alone,
                       double slope_s_per_job, const std::function<Summary(int)>& probe) {
  KneeSearch k;
  k.at_lo = alone;
  // Each probe's excess of the per-event time over the threshold places the next one.
  double excess_lo = plan_event_time(alone) - criteria.threshold_s(), excess_hi = 0;
  bool last_within = true;
  bool hi_unsound = false;  // the probe past the knee says nothing by its time: bisect
  int repeats = 0;          // probes in a row on the same side of the knee
  const auto run = [&](int jobs) {
    Summary s = probe(jobs);
    const double excess = plan_event_time(s) - criteria.threshold_s();
    const bool sound = unsound_reasons(s).empty();
    const bool within = criteria.within(s);
    if (sound) k.probes.push_back({jobs, plan_event_time(s), within});
    repeats = within == last_within ? repeats + 1 : 1;
    last_within = within;
    if (within) {
      k.lo = jobs;
      k.at_lo = std::move(s);
      excess_lo = excess;
      if (repeats >= 2) excess_hi /= 2;  // Illinois: the end kept twice weighs less in the secant
    } else {
      k.hi = jobs;
      k.at_hi = std::move(s);
      // Past the knee by a link, or by an unsound run whose time says nothing: just over the threshold.
      excess_hi = sound ? std::max(excess, 1e-9) : 1e-9;
      hi_unsound = !sound;
      if (repeats >= 2) excess_lo /= 2;
    }
  };
  // A step by the slope's estimate of the distance to the threshold (at least 1 job), doubled for
  // every further probe on the same side.
  const auto step = [&](double excess) {
    const double by_slope = slope_s_per_job > 0 ? std::ceil(std::fabs(excess) / slope_s_per_job) : 1;
    return static_cast<int>(std::min(std::max(by_slope, 1.0) * std::ldexp(1.0, std::clamp(repeats - 1, 0, 30)), 1e9));
  };
  if (start > 1) run(std::min(start, max_jobs));
  while (k.hi == 0 ? k.lo < max_jobs : k.hi - k.lo > 1) {
    int next;
    if (k.hi == 0) {
      next = static_cast<int>(std::min<std::int64_t>(max_jobs, std::int64_t{k.lo} + step(excess_lo)));
    } else if (k.lo == 1) {  // only one job alone below: step down from the probe past the knee
      next = std::max(2, k.hi - step(excess_hi));
    } else {  // the secant's crossing between the bracket's ends (regula falsi, Illinois variant)
      const double crossing =
          hi_unsound ? 0.5 * (k.lo + k.hi) : k.lo + (k.hi - k.lo) * (-excess_lo) / (excess_hi - excess_lo);
      next = std::clamp(static_cast<int>(std::floor(crossing)), k.lo + 1, k.hi - 1);
    }
    run(next);
  }
  return k;
}

}  // namespace sonicsim
