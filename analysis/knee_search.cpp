#include "analysis/knee_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace sonicsim {

double plan_event_time(const Summary& s) {
  const bool stopped_early = s.precision_stop && s.precision_stop->reached;
  if (stopped_early && s.steady.event_time_s) return s.steady.event_time_s->mean;
  return s.event_time.mean;
}

std::optional<double> plan_event_time_half_width(const Summary& s) {
  if (!s.steady.event_time_s) return std::nullopt;
  return s.steady.event_time_s->half_width;
}

BusiestLink busiest_link(const Summary& summary) {
  BusiestLink b{"", -1};
  for (const LinkUtilization& link : summary.links)
    if (link.utilization > b.utilization) b = {link.name, link.utilization};
  return b;
}

bool KneeCriteria::within(const Summary& s) const {
  return plan_event_time(s) <= threshold_s() && busiest_link(s).utilization <= link_threshold;
}

KneeSearch search_knee(int start, int max_jobs, const KneeCriteria& criteria, const Summary& alone,
                       double slope_s_per_job, const std::function<Summary(int)>& probe) {
  KneeSearch k;
  k.at_lo = alone;
  // Each probe's excess of the per-event time over the threshold places the next one.
  double excess_lo = plan_event_time(alone) - criteria.threshold_s(), excess_hi = 0;
  bool last_within = true;
  int repeats = 0;  // probes in a row on the same side of the knee
  const auto run = [&](int jobs) {
    Summary s = probe(jobs);
    const double excess = plan_event_time(s) - criteria.threshold_s();
    if (const auto half_width = plan_event_time_half_width(s); half_width && busiest_link(s).utilization <= criteria.link_threshold) {
      if (excess + *half_width <= 0) k.surely_within = std::max(k.surely_within.value_or(jobs), jobs);
      if (excess - *half_width > 0) k.surely_past = std::min(k.surely_past.value_or(jobs), jobs);
    }
    const bool within = criteria.within(s);
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
      excess_hi = std::max(excess, 1e-9);  // past the knee by a link: just over the threshold
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
      const double crossing = k.lo + (k.hi - k.lo) * (-excess_lo) / (excess_hi - excess_lo);
      next = std::clamp(static_cast<int>(std::floor(crossing)), k.lo + 1, k.hi - 1);
    }
    run(next);
  }
  return k;
}

std::optional<KneeRange> knee_range(const KneeSearch& k, const KneeCriteria& criteria) {
  if (k.hi == 0 || k.hi <= k.lo) return std::nullopt;
  const auto lo_half = plan_event_time_half_width(k.at_lo), hi_half = plan_event_time_half_width(k.at_hi);
  if (!lo_half || !hi_half) return std::nullopt;
  const double t_lo = plan_event_time(k.at_lo), t_hi = plan_event_time(k.at_hi);
  KneeRange r;
  r.slope_s = (t_hi - t_lo) / (k.hi - k.lo);
  r.half_width_s = std::max(*lo_half, *hi_half);
  if (!(r.slope_s > 0)) return std::nullopt;  // the bracket is set by a link: the time does not say where
  const auto crossing = [&](double shift) { return k.lo + (criteria.threshold_s() - (t_lo + shift)) / r.slope_s; };
  r.at = crossing(0);
  // The largest whole job count still within: floor of where the line crosses the threshold.
  r.low = std::max(1, static_cast<int>(std::floor(crossing(r.half_width_s))));
  r.high = std::max(r.low, static_cast<int>(std::floor(crossing(-r.half_width_s))));
  return r;
}

}  // namespace sonicsim
