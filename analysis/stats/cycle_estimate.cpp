#include "analysis/stats/cycle_estimate.hpp"

#include <cmath>

namespace sonicsim {

SteadyEventTime cycle_event_time(const std::vector<EventRecord>& events, double warmup_s, double cycle_s,
                                 double until_s) {
  SteadyEventTime s;
  s.cycle_s = cycle_s;
  const double first = std::ceil(warmup_s / cycle_s);
  // A run that ends at a cycle's end stops within the engine's rounding of it.
  const double whole = std::floor(until_s / cycle_s + 1e-6) - first;
  if (!(cycle_s > 0) || !(whole >= 1)) return s;
  const auto count = static_cast<std::size_t>(whole);
  const double from_s = first * cycle_s;
  std::vector<double> sums(count, 0.0), events_in(count, 0.0);
  for (const EventRecord& e : events) {
    if (e.start_s < warmup_s || e.end_s < from_s) continue;
    const double k = std::floor(e.end_s / cycle_s) - first;
    if (k >= whole) continue;
    const auto c = static_cast<std::size_t>(k);
    sums[c] += e.time_s();
    events_in[c] += 1;
  }
  // The cycles with events, in order, and their means.
  std::vector<std::size_t> held;
  std::vector<double> means;
  for (std::size_t c = 0; c < count; ++c)
    if (events_in[c] > 0) {
      held.push_back(c);
      means.push_back(sums[c] / events_in[c]);
      s.series += static_cast<std::size_t>(events_in[c]);
    }
  s.cycles = held.size();
  const stats::Truncation cut = stats::mser(means, 1);
  s.cycles_cut = cut.observations;
  s.warmup_at_limit = cut.at_limit;
  s.warmup_end_s = s.cycles_cut > 0 ? (first + static_cast<double>(held[s.cycles_cut - 1] + 1)) * cycle_s : from_s;
  for (std::size_t i = 0; i < s.cycles_cut; ++i) s.warmup_cut += static_cast<std::size_t>(events_in[held[i]]);
  // MSER needs kMinMserBatches cycles before it can cut a transient; the interval waits for them.
  const std::size_t kept = s.cycles - s.cycles_cut;
  if (s.cycles < stats::kMinMserBatches || kept < kMinCycles) return s;
  double total = 0, n = 0;
  for (std::size_t i = s.cycles_cut; i < s.cycles; ++i) total += sums[held[i]], n += events_in[held[i]];
  const double ratio = total / n, per_cycle = n / static_cast<double>(kept);
  double squares = 0;
  for (std::size_t i = s.cycles_cut; i < s.cycles; ++i) {
    const double residual = sums[held[i]] - ratio * events_in[held[i]];
    squares += residual * residual;
  }
  const double standard_error =
      std::sqrt(squares / static_cast<double>(kept - 1) / static_cast<double>(kept)) / per_cycle;
  const double t = stats::student_t_quantile(0.975, static_cast<double>(kept - 1));
  s.mean_s = stats::Interval{ratio, t * standard_error, kept, static_cast<std::size_t>(per_cycle)};
  return s;
}

}  // namespace sonicsim
