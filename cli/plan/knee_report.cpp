#include "cli/plan/knee_report.hpp"

#include <iostream>
#include <optional>
#include <vector>

#include "analysis/run_soundness.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim::cli {
namespace {

// What the batch means of a probe without an interval lacked: its events against 20 batches.
std::string why_no_interval(const Summary& s) {
  if (s.precision_stop && s.precision_stop->drained)
    return "its workload drained before its estimate was precise: its answer is the mean over all of its events, "
           "which has no batch-means interval";
  return printf_string("%zu events after the warm-up cut, too few for 20 batch means", s.steady.events_after_cut);
}

}  // namespace

void print_knee_interval(const PlanContext& plan, const KneeSearch& knee, const KneeCriteria& criteria,
                         const std::function<Overrides(int)>& settings,
                         const std::function<std::string(int)>& describe) {
  if (knee.hi <= knee.lo) return;
  std::string basis;
  // Each end's mean and half-width: its own interval, or replications.
  const auto end_estimate = [&](int x, const Summary& s) -> std::optional<EndEstimate> {
    if (const auto half_width = plan_event_time_half_width(s)) return EndEstimate{plan_event_time(s), *half_width, 1};
    std::vector<Overrides> runs;
    for (int r = 1; r <= kReplications; ++r) {
      Overrides o = settings(x);
      o.emplace_back("/simulation/seed", std::to_string(plan.scenario.simulation.seed + static_cast<std::uint64_t>(r)));
      runs.push_back(std::move(o));
    }
    std::vector<double> times{plan_event_time(s)};
    for (const Summary& replica : plan.probes.run_all(runs, describe(x) + " with other seeds")) {
      if (const auto unsound = unsound_reasons(replica); !unsound.empty()) {
        std::cout << "no 95% range for the knee: a run of " << describe(x) << " with another seed is unsound ("
                  << joined_reasons(unsound) << ")\n";
        return std::nullopt;
      }
      times.push_back(plan_event_time(replica));
    }
    basis = printf_string("no interval of their own (%s): %d runs at each end with other seeds",
                          why_no_interval(s).c_str(), kReplications + 1);
    return replicated(times);
  };
  const auto at_lo = end_estimate(knee.lo, knee.at_lo);
  if (!at_lo) return;
  const auto at_hi = end_estimate(knee.hi, knee.at_hi);
  if (!at_hi) return;
  const auto band = knee_band(knee.lo, *at_lo, knee.hi, *at_hi, knee.probes, criteria.threshold_s());
  if (basis.empty()) basis = "the bracket's own 95% intervals";
  if (!band) {
    std::cout << "no 95% range for the knee: the per-event times at its bracket (" << basis
              << ") do not rise, so nothing locates where they cross the threshold\n";
    return;
  }
  std::cout << printf_string(
      "the knee at 95%%: %s to %s (a line of %.4g s per step %s crosses the threshold %.3f s "
      "at %.1f; ±%.3f s from %s",
      describe(band->low).c_str(), describe(band->high).c_str(), band->slope_s,
      band->slope_from_bracket ? "through the bracket" : "between the probes surely on either side",
      criteria.threshold_s(), band->at, band->half_width_s, basis.c_str());
  if (band->scatter_s > band->half_width_s)
    std::cout << printf_string(
        ", widened to ±%.3f s by the probes' own scatter: a probe at more load ran that much "
        "faster than one at less",
        band->scatter_s);
  std::cout << ")\n";
}

}  // namespace sonicsim::cli
