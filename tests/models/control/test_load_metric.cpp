// SuperSONIC's load metric from scraped Triton counters, worked out by hand. Scrapes every 5 s,
// evaluated at 60 s over 30 s; with samples at 35..60 s and straight-line counters, rate() is the
// slope exactly (test_prometheus_rate.cpp shows why).
#include <doctest/doctest.h>

#include <vector>

#include "models/control/load_metric.hpp"

using namespace sonicsim;

namespace {

PromSeries line(double slope_per_s, int first_s = 25) {
  PromSeries s;
  for (int t = first_s; t <= 60; t += 5) s.push_back({t * 1000LL, slope_per_s * t});
  return s;
}

}  // namespace

TEST_CASE("SuperSONIC's load metric: queue time per execution, in ms, over all pods") {
  // Pod A: 40 executions/s, queue time accumulating at 200,000 us/s; pod B: 10/s and 100,000 us/s.
  // sum(queue) = 300,000 us/s; sum(exec x 1000 + 0.001) = 40,000.001 + 10,000.001.
  const std::vector<PromSeries> queue{line(200'000), line(100'000)};
  const std::vector<PromSeries> execs{line(40), line(10)};
  CHECK(supersonic_load_ms(queue, execs, 60'000).value() == doctest::Approx(300'000 / 50'000.002).epsilon(1e-12));
}

TEST_CASE("SuperSONIC's load metric: an idle fleet reads 0, a fleet without samples has no value") {
  const std::vector<PromSeries> idle{line(0), line(0)};
  CHECK(supersonic_load_ms(idle, idle, 60'000).value() == 0);
  // A pod scraped once in the window (it just started) drops out of both sums.
  const std::vector<PromSeries> queue{line(200'000), PromSeries{{60'000, 5}}};
  const std::vector<PromSeries> execs{line(40), PromSeries{{60'000, 1}}};
  CHECK(supersonic_load_ms(queue, execs, 60'000).value() == doctest::Approx(200'000 / 40'000.001).epsilon(1e-12));
  const std::vector<PromSeries> none{PromSeries{{60'000, 5}}};
  CHECK_FALSE(supersonic_load_ms(none, none, 60'000).has_value());
  CHECK_FALSE(supersonic_load_ms({}, {}, 60'000).has_value());
}

TEST_CASE("Geddes's load metric sums the per-series ratio: n equally loaded pods read n times the chart's") {
  // Pod A: 200,000 / 40,000.001; pod B: 100,000 / 10,000.001 (the same pods as above).
  const std::vector<PromSeries> queue{line(200'000), line(100'000)};
  const std::vector<PromSeries> execs{line(40), line(10)};
  CHECK(supersonic_load_summed_ms(queue, execs, 60'000).value() ==
        doctest::Approx(200'000 / 40'000.001 + 100'000 / 10'000.001).epsilon(1e-12));
  // Three pods of the same load: three times the chart's metric, up to the 0.001s.
  const std::vector<PromSeries> same_queue{line(50'000), line(50'000), line(50'000)};
  const std::vector<PromSeries> same_execs{line(20), line(20), line(20)};
  CHECK(supersonic_load_summed_ms(same_queue, same_execs, 60'000).value() ==
        doctest::Approx(3 * supersonic_load_ms(same_queue, same_execs, 60'000).value()).epsilon(1e-9));
  // An idle pod adds 0 / 0.001 = 0; a pod with one sample drops out; none left: no value.
  const std::vector<PromSeries> with_idle{line(200'000), line(0), PromSeries{{60'000, 5}}};
  const std::vector<PromSeries> with_idle_execs{line(40), line(0), PromSeries{{60'000, 1}}};
  CHECK(supersonic_load_summed_ms(with_idle, with_idle_execs, 60'000).value() ==
        doctest::Approx(200'000 / 40'000.001).epsilon(1e-12));
  const std::vector<PromSeries> none{PromSeries{{60'000, 5}}};
  CHECK_FALSE(supersonic_load_summed_ms(none, none, 60'000).has_value());
}
