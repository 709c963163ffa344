// Workload::threaded() is derived from the workload, not set by its readers: each of its causes
// alone makes the jobs threaded, and a workload with none of them is not.
#include <doctest/doctest.h>

#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using nlohmann::json;

TEST_CASE("jobs are threaded for threads, streams, an external_work module or a module graph, and for nothing else") {
  const json base = test::base_scenario();
  CHECK_FALSE(test::parse(base).workload.threaded());

  json threads = base;
  threads["workload"]["threads"] = 1;  // given, even as the single-threaded count
  CHECK(test::parse(threads).workload.threaded());

  json streams = base;
  streams["workload"]["streams"] = 1;
  CHECK(test::parse(streams).workload.threaded());

  json external = base;
  external["workload"]["modules"][1]["external_work"] = true;
  CHECK(test::parse(external).workload.threaded());
  external["workload"]["modules"][1]["external_work"] = false;
  CHECK_FALSE(test::parse(external).workload.threaded());

  json graph = base;
  graph["workload"]["modules"][1]["after"] = {"reco"};
  const Scenario with_graph = test::parse(graph);
  REQUIRE(with_graph.workload.graph);
  CHECK(with_graph.workload.threaded());
}
