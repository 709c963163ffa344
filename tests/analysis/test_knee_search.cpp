// plan's knee search on synthetic per-event-time curves, where the knee is known exactly: it finds
// the largest job count within the tolerance from a good or a bad closed-form start, in few probes.
#include <doctest/doctest.h>

#include <cmath>
#include <set>

#include "analysis/knee_search.hpp"

using namespace sonicsim;

namespace {

// A sound run's summary (events completed) with a per-event time and a busiest link.
Summary summary(double event_s, double link = 0.1) {
  Summary s;
  s.event_time.count = 1000;
  s.event_time.mean = event_s;
  s.links = {{"uplink", 1e9, 0, link}};
  return s;
}

// Flat at 100 s up to `saturation` jobs, then + `slope` s per job: within 5% (105 s) up to
// saturation + floor(5 / slope) jobs.
struct HockeyStick {
  int saturation;
  double slope;
  std::set<int> probed;
  Summary operator()(int jobs) {
    probed.insert(jobs);
    return summary(100 + slope * std::max(0, jobs - saturation));
  }
  int knee() const { return saturation + static_cast<int>(std::floor(5 / slope + 1e-9)); }
};

}  // namespace

TEST_CASE("the knee search finds the last job count within the tolerance from a good or a poor start") {
  const KneeCriteria criteria{100, 0.05, 0.9};
  for (int start : {290, 260, 330, 2, 1000}) {
    HockeyStick curve{270, 0.37, {}};  // knee at 270 + 13 = 283
    const KneeSearch k = search_knee(start, 1000, criteria, summary(100), 0.37, [&](int jobs) { return curve(jobs); });
    CAPTURE(start);
    CHECK(k.lo == curve.knee());
    CHECK(k.hi == curve.knee() + 1);
    CHECK(plan_event_time(k.at_lo) <= 105);
    CHECK(plan_event_time(k.at_hi) > 105);
    CHECK(curve.probed.size() <= 12);  // bisection over 1000 jobs would take 10 from scratch
  }
  HockeyStick exact{270, 0.37, {}};
  search_knee(283, 1000, criteria, summary(100), 0.37, [&](int jobs) { return exact(jobs); });
  CHECK(exact.probed == std::set<int>{283, 284});  // a closed form on the knee: two probes
}

TEST_CASE("the knee search with a wrong slope, no knee, or a link over its threshold") {
  const KneeCriteria criteria{100, 0.05, 0.9};
  HockeyStick steep{500, 5.0, {}};  // knee at 501; the closed form's slope says 0.1 s per job
  CHECK(search_knee(100, 2000, criteria, summary(100), 0.1, [&](int j) { return steep(j); }).lo == 501);

  HockeyStick never{5000, 1.0, {}};
  const KneeSearch none = search_knee(300, 1000, criteria, summary(100), 0.37, [&](int j) { return never(j); });
  CHECK(none.lo == 1000);
  CHECK(none.hi == 0);

  // The per-event time stays flat but a link passes 90% at 640 jobs.
  const auto link_limited = [](int jobs) { return summary(100, jobs / 700.0); };
  const KneeSearch link = search_knee(900, 1000, criteria, summary(100), 0.0, link_limited);
  CHECK(link.lo == 630);
  CHECK(link.hi == 631);
}

TEST_CASE("a probe answers with its steady-state mean and interval, unless its workload drained first") {
  Summary s = summary(120);
  CHECK_FALSE(plan_event_time_half_width(s));
  s.steady.event_time_s = stats::Interval{110.0, 2.0, 20, 5};
  // The steady state, after the warm-up cut, wherever the run has one: the whole run's mean holds the
  // warm-up.
  CHECK(plan_event_time(s) == 110);
  CHECK(plan_event_time_half_width(s) == 2.0);
  s.precision_stop = PrecisionStop{0.01, 3, false, 0, false, std::nullopt};
  CHECK(plan_event_time(s) == 110);  // stopped at its maximum time: the steady state, with its interval
  s.precision_stop->reached = true;
  CHECK(plan_event_time(s) == 110);
  // A workload that drained (waves that end) is answered by all of its events, which have no
  // batch-means interval.
  s.precision_stop->reached = false;
  s.precision_stop->drained = true;
  CHECK(plan_event_time(s) == 120);
  CHECK_FALSE(plan_event_time_half_width(s));
}

TEST_CASE("the knee search bisects past a probe that is no answer") {
  // Within up to 400 jobs; from 401 on the runs' jobs fail (their time says nothing): the search
  // finds 400 without walking down one job at a time.
  const KneeCriteria criteria{100, 0.05, 0.9};
  int probes = 0;
  const auto failing = [&](int jobs) {
    ++probes;
    Summary s = summary(100);
    if (jobs > 400) {
      s.failures = FailureSummary{};
      s.failures->jobs_failed = 1;
    }
    return s;
  };
  const KneeSearch k = search_knee(300, 2000, criteria, summary(100), 0.1, failing);
  CHECK(k.lo == 400);
  CHECK(k.hi == 401);
  CHECK(probes <= 16);
}
