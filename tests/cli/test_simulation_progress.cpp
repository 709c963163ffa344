// The progress line of run and validate: the share done is the simulated time over the run's
// duration, or the events done over its jobs' events, and the time left is the wall time spent
// scaled by what remains: elapsed * (1 - done) / done.
#include <doctest/doctest.h>

#include "cli/simulation_progress.hpp"

using namespace sonicsim;
using sonicsim::cli::simulation_progress_text;

TEST_CASE("a run with a duration: a quarter of it simulated in 10 s leaves 10 * 0.75 / 0.25 = 30 s") {
  SimulationProgress p;
  p.simulated_s = 900, p.events = 10, p.end_s = 3600;
  CHECK(simulation_progress_text(p, 10) == "simulated 900 s of 3600 s, 10 events (25%), 10 s elapsed, about 30 s left");
}

TEST_CASE("jobs with event counts: 500 of 2000 events in 12 s leaves 12 * 0.75 / 0.25 = 36 s") {
  SimulationProgress p;
  p.simulated_s = 4.5, p.events = 500, p.events_total = 2000;
  CHECK(simulation_progress_text(p, 12) == "simulated 4.5 s, 500 of 2000 events (25%), 12 s elapsed, about 36 s left");
}

TEST_CASE("a stopping rule: the bound nearer its end counts, and the time left is at most the estimate") {
  SimulationProgress p;
  p.simulated_s = 900, p.events = 100, p.end_s = 7200, p.events_total = 400, p.may_end_sooner = true;
  // Done: max(900 / 7200, 100 / 400) = 0.25; left: 8 * 0.75 / 0.25 = 24 s.
  CHECK(simulation_progress_text(p, 8) ==
        "simulated 900 s of 7200 s, 100 of 400 events (25%), 8 s elapsed, at most about 24 s left");
}

TEST_CASE("without a bound, past it, or before any progress, the time left is unknown") {
  SimulationProgress unbounded;
  unbounded.simulated_s = 60, unbounded.events = 7;
  CHECK(simulation_progress_text(unbounded, 3) == "simulated 60 s, 7 events, 3 s elapsed, time left unknown");
  SimulationProgress resubmitted;  // failed jobs ran their events again: more events than planned
  resubmitted.simulated_s = 600, resubmitted.events = 2100, resubmitted.events_total = 2000;
  CHECK(simulation_progress_text(resubmitted, 5) ==
        "simulated 600 s, 2100 of 2000 events, 5 s elapsed, time left unknown");
  SimulationProgress at_start;
  at_start.end_s = 100;
  CHECK(simulation_progress_text(at_start, 0.3) == "simulated 0 s of 100 s, 0 events, 0 s elapsed, time left unknown");
}
