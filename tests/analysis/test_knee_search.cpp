// plan's knee search on synthetic per-event-time curves, where the knee is known exactly: it finds
// the largest job count within the tolerance from a good or a bad closed-form start, in few probes.
#include <doctest/doctest.h>

#include <cmath>
#include <set>

#include "analysis/knee_search.hpp"

using namespace sonicsim;

namespace {

// A summary with a per-event time and a busiest link.
Summary summary(double event_s, double link = 0.1) {
  Summary s;
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
    const KneeSearch k = search_knee(start, 1000, criteria, summary(100), 0.37,
                                     [&](int jobs) { return curve(jobs); });
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

TEST_CASE("a probe stopped by its precision rule answers with its steady-state mean and interval") {
  Summary s = summary(120);
  CHECK_FALSE(plan_event_time_half_width(s));
  s.steady.event_time_s = stats::Interval{110.0, 2.0, 20, 5};
  CHECK(plan_event_time(s) == 120);  // ran to its workload's end: the workload's mean
  CHECK(plan_event_time_half_width(s) == 2.0);
  s.precision_stop = PrecisionStop{0.01, 3, false};
  CHECK(plan_event_time(s) == 120);  // stopped at its maximum time: not precise enough to stand alone
  s.precision_stop->reached = true;
  CHECK(plan_event_time(s) == 110);
}

TEST_CASE("the knee's 95% range: the line through the bracket's means, shifted by their half-widths") {
  // Threshold 105 s (5% over 100 s). Bracket 280 within at 104.0 ± 0.5 s, 290 past at 106.0 ± 0.3 s:
  // slope 0.2 s per job; the means cross at 280 + 1.0 / 0.2 = 285; shifted up by 0.5 s the line
  // crosses at 280 + 0.5 / 0.2 = 282.5, down by 0.5 s at 280 + 1.5 / 0.2 = 287.5: jobs 282 to 287.
  const KneeCriteria criteria{100, 0.05, 0.9};
  KneeSearch k;
  k.lo = 280, k.hi = 290;
  k.at_lo = summary(104.0);
  k.at_lo.steady.event_time_s = stats::Interval{104.0, 0.5, 20, 50};
  k.at_hi = summary(106.0);
  k.at_hi.steady.event_time_s = stats::Interval{106.0, 0.3, 20, 50};
  const auto r = knee_range(k, criteria);
  REQUIRE(r);
  CHECK(r->slope_s == doctest::Approx(0.2));
  CHECK(r->at == doctest::Approx(285));
  CHECK(r->low == 282);
  CHECK(r->high == 287);
  // Without an interval at one end, or without a bracket, there is no range to give.
  k.at_hi.steady.event_time_s.reset();
  CHECK_FALSE(knee_range(k, criteria));
  k.hi = 0;
  CHECK_FALSE(knee_range(k, criteria));
}

