// Whether a run can answer a planning question (analysis/run_soundness.hpp): failed jobs, a run that
// ended before its load, and a run with no steady state are no answer, whatever their per-event time.
#include <doctest/doctest.h>

#include "analysis/knee_search.hpp"
#include "analysis/run_soundness.hpp"

using namespace sonicsim;

namespace {

Summary sound_run() {
  Summary s;
  s.event_time.count = 1000;
  s.event_time.mean = 1.0;
  s.simulated_s = 900;
  return s;
}

}  // namespace

TEST_CASE("a run whose jobs failed, that ended before its load, or without a steady state is no answer") {
  CHECK(unsound_reasons(sound_run()).empty());

  Summary failed = sound_run();
  failed.failures = FailureSummary{};
  CHECK(unsound_reasons(failed).empty());  // requests could fail; none did
  failed.failures->jobs_failed = 800;
  failed.failures->events_lost = 215734;
  failed.failures->unavailable = 800;
  failed.jobs = JobsSummary{};
  failed.jobs->submitted = 800;
  REQUIRE(unsound_reasons(failed).size() == 1);
  CHECK(unsound_reasons(failed).front() ==
        "800 of 800 job runs failed, losing 215734 events (requests failed: 800 unavailable, 0 past their deadline, 0 "
        "cancelled)");

  Summary early = sound_run();
  early.precision_stop = PrecisionStop{0.01, 3, false, 1200, false, std::nullopt};
  REQUIRE(unsound_reasons(early).size() == 1);
  CHECK(unsound_reasons(early).front().find("before its load") != std::string::npos);

  Summary trending = sound_run();
  trending.simulated_s = 5000;
  trending.precision_stop = PrecisionStop{0.01, 9, false, 0, false, std::nullopt};
  trending.steady.warmup_at_limit = true;
  CHECK(unsound_reasons(trending).front().find("no steady state") != std::string::npos);
  trending.precision_stop->drained = true;  // a workload that drained is answered by all of its events
  CHECK(unsound_reasons(trending).empty());

  Summary none = sound_run();
  none.event_time.count = 0;
  CHECK(unsound_reasons(none) == std::vector<std::string>{"no event completed"});
}

TEST_CASE("an unsound probe is never within the tolerance, however fast it ran") {
  const KneeCriteria criteria{1.0, 0.05, 0.9};
  Summary fast = sound_run();
  CHECK(criteria.within(fast));
  fast.failures = FailureSummary{};
  fast.failures->jobs_failed = 1;
  CHECK_FALSE(criteria.within(fast));
}

TEST_CASE("waves that stop on whole load cycles before their last wave reached their load") {
  // Cycles repeat the load from 1800 s; the rule stopped at 7800 s, long before the last of 20
  // waves (11,400 s): sound. Had it ended at 1200 s, before the cycles, it would not be.
  Summary s = sound_run();
  s.simulated_s = 7800;
  s.precision_stop = PrecisionStop{0.01, 13, true, 11400, false, CycleStop{600, 1800, 12000}};
  CHECK(unsound_reasons(s).empty());
  s.simulated_s = 1200;
  s.precision_stop->reached = false;
  CHECK(unsound_reasons(s).front().find("before its waves repeat their load (t = 1800 s)") != std::string::npos);
  // Two waves that end by 1200 s: the workload ran to its end, which was all the load it had.
  s.precision_stop->drained = true;
  CHECK(unsound_reasons(s).empty());
}
