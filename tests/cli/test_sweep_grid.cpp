// Sweep axes: lists, inclusive ranges, JSON arrays; the grid is their Cartesian product.
#include <doctest/doctest.h>

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "cli/sweep/sweep_grid.hpp"
#include "models/io/input_error.hpp"

using namespace sonicsim;
using Values = std::vector<std::string>;

TEST_CASE("a sweep axis is a list, an inclusive range or a JSON array") {
  CHECK(parse_sweep_axis("/workload/jobs=1,2,4,8").values == Values{"1", "2", "4", "8"});
  CHECK(parse_sweep_axis("/workload/jobs=1,2,4,8").pointer == "/workload/jobs");
  CHECK(parse_sweep_axis("/workload/jobs=50:400:50").values ==
        Values{"50", "100", "150", "200", "250", "300", "350", "400"});
  CHECK(parse_sweep_axis("/x=0:1:0.25").values == Values{"0", "0.25", "0.5", "0.75", "1"});
  CHECK(parse_sweep_axis("/x=1:10:4").values == Values{"1", "5", "9"});  // 13 would pass STOP
  CHECK(parse_sweep_axis("/platform/wan/latency=5ms,20ms").values == Values{"5ms", "20ms"});
  CHECK(parse_sweep_axis(R"(/simulation/outputs=[[], ["events"], "x"])").values == Values{"[]", R"(["events"])", "x"});
}

TEST_CASE("a sweep axis may be one JSON value, as run --set takes it, commas and colons included") {
  const std::string waves = R"({"pattern": "waves", "jobs_per_wave": 50, "period": "10min"})";
  CHECK(parse_sweep_axis("/workload/start=" + waves).values == Values{nlohmann::json::parse(waves).dump()});
  CHECK(parse_sweep_axis("/x=true").values == Values{"true"});
  CHECK(parse_sweep_axis("/x=\"a,b\"").values == Values{"a,b"});
  CHECK(parse_sweep_axis("/x=50").values == Values{"50"});
  CHECK_THROWS_WITH_AS(parse_sweep_axis(R"(/workload/start={"pattern": "waves",)"),
                       doctest::Contains("--set /workload/start: "), InputError);
}

TEST_CASE("malformed sweep axes are clear errors") {
  CHECK_THROWS_WITH_AS(parse_sweep_axis("workload/jobs=1"), doctest::Contains("/JSON/POINTER=VALUES"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_sweep_axis("/a=1:2"), doctest::Contains("START:STOP:STEP"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_sweep_axis("/a=1:x:1"), doctest::Contains("three numbers"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_sweep_axis("/a=5:1:1"), doctest::Contains("STOP >= START"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_sweep_axis("/a=1,,2"), doctest::Contains("empty value"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_sweep_axis("/a=[1,"), doctest::Contains("--set /a: /: invalid JSON"), InputError);
  CHECK_THROWS_WITH_AS(parse_sweep_axis(R"(/a=[{"k": 1, "k": 2}])"), doctest::Contains("/0/k: duplicate key"),
                       InputError);
  CHECK_THROWS_WITH_AS(parse_sweep_axis("/a=0:1e12:1"), doctest::Contains("more than 100000 values"),
                       std::invalid_argument);
}

TEST_CASE("a grid of more points than a sweep runs is refused before it is built") {
  const SweepAxis thousand = parse_sweep_axis("/a=1:1000:1");
  CHECK_THROWS_WITH_AS(sweep_points({thousand, thousand}), doctest::Contains("the grid has 1000000 points"),
                       std::invalid_argument);
  CHECK(sweep_points({thousand, parse_sweep_axis("/b=1:100:1")}).size() == 100'000);
}

TEST_CASE("the grid is the Cartesian product, first axis slowest") {
  const auto points = sweep_points({parse_sweep_axis("/a=1,2"), parse_sweep_axis("/b=x,y,z")});
  REQUIRE(points.size() == 6);
  CHECK(points[0] == Values{"1", "x"});
  CHECK(points[2] == Values{"1", "z"});
  CHECK(points[3] == Values{"2", "x"});
  CHECK(sweep_points({}).size() == 1);
}
