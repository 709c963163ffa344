// /workload/modules/i/after: the modules a module waits for, by name. Without any, the workload
// is a chain (no graph); with one, every module waits for what it names and nothing else.
#include <doctest/doctest.h>

#include "tests/support/input_failure.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

// The base scenario's CPU module "reco" and inference module "ml", and a second CPU module "reco2".
json three_modules() {
  json d = test::base_scenario();
  d["workload"]["modules"].push_back({{"type", "cpu"}, {"name", "reco2"}, {"time", "1s"}});
  return d;
}

test::Failure after_failure_of(const json& d) {
  return test::failure_of([&] { test::parse(d); });
}

}  // namespace

TEST_CASE("no after anywhere: no graph, the chain of old") {
  CHECK_FALSE(test::parse(three_modules()).workload.graph.has_value());
}

TEST_CASE("after names earlier or later modules; modules without it wait for nothing") {
  json d = three_modules();
  d["workload"]["modules"][0]["after"] = {"reco2"};
  d["workload"]["modules"][2]["after"] = json::array();
  const Scenario s = test::parse(d);
  REQUIRE(s.workload.graph.has_value());
  const std::vector<std::vector<int>> expected{{2}, {}, {}};
  CHECK(s.workload.graph->after == expected);
  d["workload"]["modules"][1]["after"] = {"reco2", "reco", "reco2"};  // repeats count once
  CHECK(test::parse(d).workload.graph->after[1] == std::vector<int>{0, 2});
}

TEST_CASE("unknown, ambiguous and self references, and cycles, are refused at their after") {
  json d = three_modules();
  d["workload"]["modules"][1]["after"] = {"reco", "nope"};
  test::Failure f = after_failure_of(d);
  CHECK(f.where == "/workload/modules/1/after/1");
  CHECK(f.message == "no module named \"nope\": expected the name of a module of /workload/modules");

  d = three_modules();
  d["workload"]["modules"][1]["after"] = {"ml"};
  f = after_failure_of(d);
  CHECK(f.where == "/workload/modules/1/after/0");
  CHECK(f.message == "a module cannot wait for itself: expected another module's name");

  d = three_modules();
  d["workload"]["modules"][2]["name"] = "reco";
  d["workload"]["modules"][1]["after"] = {"reco"};
  f = after_failure_of(d);
  CHECK(f.where == "/workload/modules/1/after/0");
  CHECK(f.message.find("modules 0 and 2 are both named \"reco\"") == 0);

  d = three_modules();
  d["workload"]["modules"][0]["after"] = {"reco2"};
  d["workload"]["modules"][1]["after"] = {"reco"};
  d["workload"]["modules"][2]["after"] = {"ml"};
  f = after_failure_of(d);
  CHECK(f.where == "/workload/modules/0/after");
  CHECK(f.message.find("the modules \"reco\" -> \"reco2\" -> \"ml\" -> \"reco\" each wait for the next (a cycle)") ==
        0);

  d = three_modules();
  d["workload"]["modules"][0]["after"] = "reco2";
  CHECK(after_failure_of(d).where == "/workload/modules/0/after");
  d["workload"]["modules"][0]["after"] = {3};
  CHECK(after_failure_of(d).where == "/workload/modules/0/after/0");
}
