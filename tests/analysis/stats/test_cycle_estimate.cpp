// A dynamic farm's steady-state estimate over whole load cycles (analysis/stats/cycle_estimate.hpp),
// on synthetic events whose per-cycle sums are known: the ratio estimator and its interval computed
// here by hand, the transient cut, and the cycles a run that ends mid-cycle leaves out.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "analysis/stats/cycle_estimate.hpp"

using namespace sonicsim;

namespace {

// `per_cycle[c]` events of `time_s[c]` seconds each, completing inside cycle c of `cycle_s`.
std::vector<EventRecord> cycles_of(double cycle_s, const std::vector<int>& per_cycle,
                                   const std::vector<double>& time_s) {
  std::vector<EventRecord> events;
  for (std::size_t c = 0; c < per_cycle.size(); ++c)
    for (int e = 0; e < per_cycle[c]; ++e) {
      const double end = (static_cast<double>(c) + (e + 1.0) / (per_cycle[c] + 1)) * cycle_s;
      events.push_back({0, e, end - time_s[c], end});
    }
  return events;
}

}  // namespace

TEST_CASE("whole load cycles: the ratio estimator over the cycles and its t-interval") {
  // Twelve cycles of 600 s alternating 10 events of 1 s and 30 events of 2 s: no transient to cut.
  std::vector<int> counts;
  std::vector<double> times;
  for (int c = 0; c < 12; ++c) counts.push_back(c % 2 ? 30 : 10), times.push_back(c % 2 ? 2.0 : 1.0);
  const SteadyEventTime s = cycle_event_time(cycles_of(600, counts, times), 0, 600, 12 * 600);
  CHECK(s.cycles == 12);
  CHECK(s.cycles_cut == 0);
  REQUIRE(s.mean_s);
  // R = (6 x 10 + 6 x 60) / (6 x 10 + 6 x 30) = 420 / 240 = 1.75 s per event.
  CHECK(s.mean_s->mean == doctest::Approx(1.75));
  // Residuals Y - R N: 10 - 17.5 = -7.5 and 60 - 52.5 = +7.5; s^2 = 12 x 56.25 / 11; the mean
  // cycle holds 20 events: half-width t(0.975, 11) x sqrt(s^2 / 12) / 20, t = 2.200985.
  const double expected = 2.200985 * std::sqrt(12 * 56.25 / 11 / 12) / 20;
  CHECK(s.mean_s->half_width == doctest::Approx(expected).epsilon(1e-5));
  CHECK(s.mean_s->batches == 12);
  CHECK(s.mean_s->batch_size == 20);
}

TEST_CASE("whole load cycles: a filling farm's first cycles are cut, and a cycle cut short does not count") {
  // Three cycles of a filling farm (4 s per event), then twenty at 1 s with a little wobble.
  std::vector<int> counts(23, 20);
  std::vector<double> times;
  for (int c = 0; c < 23; ++c) times.push_back(c < 3 ? 4.0 : 1.0 + 0.01 * (c % 3));
  const std::vector<EventRecord> events = cycles_of(100, counts, times);
  const SteadyEventTime s = cycle_event_time(events, 0, 100, 23 * 100);
  CHECK(s.cycles == 23);
  CHECK(s.cycles_cut == 3);
  CHECK(s.warmup_cut == 60);
  CHECK(s.warmup_end_s == doctest::Approx(300));
  REQUIRE(s.mean_s);
  CHECK(s.mean_s->mean == doctest::Approx(1.0 + 0.01 * (7 * 0 + 7 * 1 + 6 * 2) / 20.0));
  // A run that ends halfway through a cycle counts only the whole ones; one at a cycle's end within
  // the engine's rounding counts it.
  CHECK(cycle_event_time(events, 0, 100, 2250).cycles == 22);
  CHECK(cycle_event_time(events, 0, 100, 2299.9999999).cycles == 23);
  // Too few cycles after the cut for an interval (kMinCycles), and a warm-up that moves the first cycle.
  CHECK_FALSE(cycle_event_time(events, 0, 100, 700).mean_s);
  CHECK(cycle_event_time(events, 150, 100, 2300).cycles == 21);
}
