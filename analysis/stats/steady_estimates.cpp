#include "analysis/stats/steady_estimates.hpp"

#include <algorithm>

#include "analysis/stats/cycle_estimate.hpp"
#include "analysis/stats/time_bins.hpp"

namespace sonicsim {

std::size_t min_batch_events(std::size_t concurrent_jobs) { return std::max(stats::kMinBatchSize, concurrent_jobs); }

SteadyEventTime steady_event_time(const std::vector<EventRecord>& events, double warmup_s,
                                  std::size_t concurrent_jobs) {
  SteadyEventTime s;
  s.min_batch_events = min_batch_events(concurrent_jobs);
  s.warmup_end_s = warmup_s;
  std::vector<double> times;
  std::vector<double> ends;
  for (const EventRecord& e : events) {
    if (e.start_s < warmup_s) continue;
    times.push_back(e.time_s());
    ends.push_back(e.end_s);
  }
  s.series = times.size();
  const stats::Truncation cut = stats::mser5(times);
  s.warmup_cut = cut.observations;
  s.warmup_at_limit = cut.at_limit;
  if (cut.observations > 0) s.warmup_end_s = std::max(warmup_s, ends[cut.observations - 1]);
  times.erase(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(cut.observations));
  s.mean_s = concurrent_jobs == 1 ? stats::mean_interval(times)
                                  : stats::batch_means_interval(times, stats::kBatches, 0.95, s.min_batch_events);
  return s;
}

bool precise_enough(const SteadyEventTime& estimate, double relative_half_width) {
  return estimate.mean_s && !estimate.warmup_at_limit && estimate.mean_s->relative_half_width() <= relative_half_width;
}

double estimate_start_s(double warmup_s, const std::optional<PrecisionStop>& stop) {
  if (!stop) return warmup_s;
  if (stop->cycles && stop->cycles->repeats_until_s) return std::max(warmup_s, stop->cycles->repeats_from_s);
  return std::max(warmup_s, stop->load_from_s);
}

SteadyState steady_state(const SimulationResults& r) {
  SteadyState s;
  const std::optional<CycleStop> cycles = r.precision_stop ? r.precision_stop->cycles : std::nullopt;
  // The estimate covers what the stopping rule's checks did: the workload at its load, or a dynamic
  // farm's whole load cycles.
  const double start_s = estimate_start_s(r.header.warmup_s, r.precision_stop);
  s.event_time = cycles ? cycle_event_time(r.events, start_s, cycles->cycle_s,
                                           std::min(r.end_s, cycles->repeats_until_s.value_or(r.end_s)))
                        : steady_event_time(r.events, start_s, static_cast<std::size_t>(r.header.concurrent_jobs));
  const double from = s.event_time.warmup_end_s;
  // Equal windows of the time after the cut: 20, or the cycles kept.
  const std::size_t windows = cycles && s.event_time.mean_s ? s.event_time.mean_s->batches : stats::kBatches;
  const double window = cycles ? cycles->cycle_s : (r.end_s - from) / static_cast<double>(stats::kBatches);
  if (!s.event_time.mean_s || !(window > 0)) return s;
  s.window_s = window;
  // Completions and device busy time in those windows: their batch means.
  std::vector<double> rates(windows, 0.0), utilisations(windows, 0.0);
  for (const EventRecord& e : r.events) {
    if (e.start_s < start_s || e.end_s <= from) continue;
    const auto w = static_cast<std::size_t>((e.end_s - from) / window);
    if (cycles && w >= windows) continue;
    rates[std::min(w, windows - 1)] += 1 / window;
  }
  s.events_per_s = stats::mean_interval(rates);
  if (!r.gpus.empty() && r.busy_bin_s > 0) {
    const double devices = static_cast<double>(r.gpus.size());
    for (std::size_t w = 0; w < windows; ++w) {
      const double start = from + static_cast<double>(w) * window;
      utilisations[w] = total_between(r.busy_bin_s, r.busy_bins_s, start, start + window) / (devices * window);
    }
    s.device_utilization = stats::mean_interval(utilisations);
  }
  return s;
}

}  // namespace sonicsim
