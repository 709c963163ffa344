// The points a sweep's checks refuse, grouped by reason and said as a reader would say them.
#include <doctest/doctest.h>

#include <new>
#include <stdexcept>

#include "cli/sweep/refused_points.hpp"

using namespace sonicsim;
using namespace sonicsim::cli;

namespace {

std::vector<SweepAxis> axes_of(const std::vector<std::string>& arguments) {
  std::vector<SweepAxis> axes;
  for (const auto& a : arguments) axes.push_back(parse_sweep_axis(a));
  return axes;
}

std::string described(const std::vector<std::string>& arguments, const std::vector<int>& points) {
  const auto axes = axes_of(arguments);
  return describe_points(axes, sweep_points(axes), points);
}

}  // namespace

TEST_CASE("refused points are grouped by reason, in the order of each reason's first point") {
  // Points 3, 5 and 7 refused for "a", 4 for "b"; the others pass.
  const auto groups = refused_points(8, [](int p) {
    if (p == 3 || p == 5 || p == 7) throw std::invalid_argument("a");
    if (p == 4) throw std::runtime_error("b");
  });
  REQUIRE(groups.size() == 2);
  CHECK(groups[0].reason == "a");
  CHECK(groups[0].points == std::vector<int>{3, 5, 7});
  CHECK(groups[1].reason == "b");
  CHECK(groups[1].points == std::vector<int>{4});
  CHECK(refused_points(3, [](int) {}).empty());
  CHECK_THROWS_AS(refused_points(2, [](int) { throw std::bad_alloc(); }), std::bad_alloc);
}

TEST_CASE("a sub-grid of refused points is said by its axes' values") {
  const std::vector<std::string> jobs_by_latency = {"/workload/jobs=100:1000:100", "/platform/wan/latency=5ms,20ms"};
  // Jobs 500 to 1000 at both latencies: points 8 to 19 (jobs slowest).
  std::vector<int> beyond;
  for (int p = 8; p < 20; ++p) beyond.push_back(p);
  CHECK(described(jobs_by_latency, beyond) == "/workload/jobs=500..1000 at every /platform/wan/latency");
  CHECK(described(jobs_by_latency, {8, 10}) == "/workload/jobs=500,600, /platform/wan/latency=5ms");
  CHECK(described(jobs_by_latency, {1, 3, 5, 7}) == "/workload/jobs=100..400, /platform/wan/latency=20ms");
  CHECK(described({"/workload/jobs=1,0,2"}, {1}) == "/workload/jobs=0");
  CHECK(described({"/a=1:10:1"}, {0, 2, 4, 6, 8, 9, 1}) == "/a=1,2,3,5,7,9,... (7 values)");
  CHECK(described({"/a=1,2", "/b=3,4"}, {0, 1, 2, 3}) == "every point");
  CHECK(described({"/a=1,2,3"}, {0, 1, 2}) == "/a=1..3");  // one axis: its values, not "every point"
  CHECK(described({"/a=1", "/b=3,4"}, {1}) == "/b=4");     // an axis of one value is a setting
  CHECK(described({}, {0}) == "the point");
}

TEST_CASE("refused points that are no sub-grid are listed, the first three") {
  // Points (1, x), (2, y), (2, x) of /a=1,2 x /b=x,y: the box of their values would take in (1, y).
  CHECK(described({"/a=1,2", "/b=x,y"}, {0, 2, 3}) == "/a=1, /b=x; /a=2, /b=x; /a=2, /b=y");
  CHECK(described({"/a=1,2,3", "/b=x,y"}, {0, 2, 3, 5}) == "/a=1, /b=x; /a=2, /b=x; /a=2, /b=y; and 1 more");
}
