// The scenario's "simulation" section: the stopping rule's settings, the upload fast path.
#include <doctest/doctest.h>

#include <string>

#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using nlohmann::json;

TEST_CASE("stopping-rule settings are checked") {
  json d = test::base_scenario();
  d["simulation"]["stop_at_precision"] = {{"relative_half_width", "1%"}};
  CHECK(test::parse(d).simulation.stop_at_precision->relative_half_width == doctest::Approx(0.01));
  d["simulation"]["stop_at_precision"] = {{"relative_half_width", 0}};
  CHECK(test::input_error_of([&] {
          test::parse(d);
        }).find("/simulation/stop_at_precision/relative_half_width: expected a relative half-width above 0") !=
        std::string::npos);
  d["simulation"]["stop_at_precision"] = {{"relative_half_width", "one percent"}};
  CHECK(test::input_error_of([&] { test::parse(d); }).find("expected a fraction (0.01) or a percentage") !=
        std::string::npos);
  d["simulation"]["stop_at_precision"] = {{"relative_half_width", "1%"}, {"max_time", "-5s"}};
  CHECK(test::input_error_of([&] { test::parse(d); }).find("/simulation/stop_at_precision/max_time: ") !=
        std::string::npos);
}

TEST_CASE("the upload fast path is off unless asked for, and asked for with a boolean") {
  json d = test::base_scenario();
  CHECK_FALSE(test::parse(d).simulation.network.fast_path);
  d["simulation"]["network"]["fast_path"] = true;
  CHECK(test::parse(d).simulation.network.fast_path);
  d["simulation"]["network"]["fast_path"] = "yes";
  const std::string error = test::input_error_of([&] { test::parse(d); });
  CHECK(error.find("/simulation/network/fast_path: ") != std::string::npos);
  CHECK(error.find('\n') == std::string::npos);
}
