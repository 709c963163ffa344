// PromQL rate() and increase() on sample sets worked out by hand with Prometheus's rules
// (promql/functions.go, extrapolatedRate): scrapes every 5 s of a counter growing 10 per second,
// rate(...[30s]) evaluated at t = 60 s, whose range is (30 s, 60 s].
#include <doctest/doctest.h>

#include <vector>

#include "models/control/prometheus_rate.hpp"

using namespace sonicsim;

namespace {

// Scrapes at `times_s` of a counter worth value(t).
template <typename F>
std::vector<PromSample> scrapes(const std::vector<int>& times_s, F value) {
  std::vector<PromSample> samples;
  for (int t : times_s) samples.push_back({t * 1000LL, value(t)});
  return samples;
}

constexpr std::int64_t kAt = 60'000, kRange = 30'000;

}  // namespace

TEST_CASE("rate() of regular scrapes is the counter's slope") {
  // Samples at 35..60 s (the one at 30 s is outside the left-open range): increase 250 over 25 s;
  // the first sample is 5 s from the range start, under 1.1 average gaps (5.5 s), so the increase
  // is extrapolated over the whole 30 s: 250 x 30/25 = 300, and 300 / 30 s = 10/s.
  const auto samples = scrapes({25, 30, 35, 40, 45, 50, 55, 60}, [](int t) { return 10.0 * t; });
  CHECK(prometheus_rate(samples, kAt, kRange).value() == doctest::Approx(10.0).epsilon(1e-12));
  CHECK(prometheus_increase(samples, kAt, kRange).value() == doctest::Approx(300.0).epsilon(1e-12));
}

TEST_CASE("rate() after a missed scrape extrapolates only half a gap") {
  // The scrape at 35 s is missing: samples 40..60 s, increase 200 over 20 s, average gap 5 s. The
  // first sample is 10 s from the range start, beyond 5.5 s: extrapolation covers half a gap
  // (2.5 s) at the start and none at the end: 200 x 22.5/20 / 30 s = 7.5/s.
  const auto samples = scrapes({25, 30, 40, 45, 50, 55, 60}, [](int t) { return 10.0 * t; });
  CHECK(prometheus_rate(samples, kAt, kRange).value() == doctest::Approx(7.5).epsilon(1e-12));
}

TEST_CASE("rate() adds a counter reset back") {
  // 350, 400, 450 at 35-45 s, then the process restarts: 20, 70, 120 at 50-60 s. Increase
  // 120 - 350 + 450 = 220 over 25 s, extrapolated to 30 s: 264, so 8.8/s.
  const auto samples = scrapes({35, 40, 45, 50, 55, 60}, [](int t) { return t < 50 ? 10.0 * t : 10.0 * t - 480; });
  CHECK(prometheus_rate(samples, kAt, kRange).value() == doctest::Approx(8.8).epsilon(1e-12));
}

TEST_CASE("rate() does not extrapolate a counter below zero") {
  // A counter that started at 34 s: 10 at 35 s ... 260 at 60 s. Extrapolating 5 s back would go
  // below zero; the start extrapolation stops where the counter would be zero, 25 x 10/250 = 1 s
  // before the first sample: 250 x 26/25 / 30 s.
  const auto samples = scrapes({35, 40, 45, 50, 55, 60}, [](int t) { return 10.0 * (t - 34); });
  CHECK(prometheus_rate(samples, kAt, kRange).value() == doctest::Approx(250.0 * 26 / 25 / 30).epsilon(1e-12));
}

TEST_CASE("rate() over a range shorter than two scrapes has no value") {
  const auto samples = scrapes({50, 55, 60}, [](int t) { return 10.0 * t; });
  CHECK_FALSE(prometheus_rate(samples, kAt, 4'000).has_value());
  CHECK_FALSE(prometheus_rate(samples, kAt, 5'000).has_value());  // (55, 60]: the 55 s sample is out
  CHECK(prometheus_rate(samples, kAt, 5'001).has_value());
  CHECK_FALSE(prometheus_rate({}, kAt, kRange).has_value());
}

TEST_CASE("rate() of samples that stop before the range's end extrapolates half a gap past the last") {
  // Samples 35..45 s only (scrapes failed after): increase 100 over 10 s, average gap 5 s; start
  // gap 5 s < 5.5 s extrapolates fully, end gap 15 s gets half a gap: 100 x (10 + 5 + 2.5)/10 = 175
  // over 30 s.
  const auto samples = scrapes({35, 40, 45}, [](int t) { return 10.0 * t; });
  CHECK(prometheus_rate(samples, kAt, kRange).value() == doctest::Approx(175.0 / 30).epsilon(1e-12));
}
