// The run header (analysis/run_header.hpp) holds the scenario's facts, named as the platform names
// its hosts: server i of group G is "G-i", node n of pool P is "P-n" (sim/platform.cpp).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "analysis/run_header.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using Names = std::vector<std::string>;

namespace {

// Two server groups (2 servers and 1) and two worker pools (2 nodes of 4 cores, 3 of 2), a second
// model and an extra module.
nlohmann::json two_groups_two_pools() {
  nlohmann::json d = test::base_scenario();
  d["name"] = "header-farm";
  d["platform"]["worker_pools"][0]["nodes"] = 2;
  d["platform"]["worker_pools"][0]["cores_per_node"] = 4;
  nlohmann::json pool = d["platform"]["worker_pools"][0];
  pool["name"] = "v";
  pool["nodes"] = 3;
  pool["cores_per_node"] = 2;
  d["platform"]["worker_pools"].push_back(pool);
  d["platform"]["servers"][0]["count"] = 2;
  d["models"]["n"] = d["models"]["m"];
  nlohmann::json group = d["platform"]["servers"][0];
  group["name"] = "t";
  group["count"] = 1;
  group["models"] = {"n"};
  d["platform"]["servers"].push_back(group);
  nlohmann::json module = d["workload"]["modules"][1];
  module["name"] = "ml2";
  module["model"] = "n";
  d["workload"]["modules"].push_back(module);
  d["workload"]["jobs"] = 3;
  d["workload"]["warmup"] = "1.5s";
  d["simulation"]["seed"] = 42;
  return d;
}

}  // namespace

TEST_CASE("a static farm's run header: its names, jobs times streams at once, and no worker names") {
  nlohmann::json d = two_groups_two_pools();
  const RunHeader h = run_header(test::parse(d));
  CHECK(h.scenario == "header-farm");
  CHECK(h.seed == 42);
  CHECK(h.latency_quantile == 0);  // unset: the fitted curves
  CHECK(h.device_naming == DeviceNaming::Gpu);
  CHECK(h.warmup_s == 1.5);
  CHECK(h.concurrent_jobs == 3);  // 3 jobs of one stream
  CHECK(h.server_names == Names{"s-0", "s-1", "t-0"});
  CHECK(h.model_names == Names{"m", "n"});
  CHECK(h.module_names == Names{"reco", "ml", "ml2"});
  CHECK_FALSE(h.batch_system);
  CHECK_FALSE(h.threaded);
  CHECK(h.threads == 1);
  CHECK(h.streams == 1);
  CHECK(h.worker_names.empty());  // single-threaded static-farm jobs name no node in jobs.csv
  CHECK(h.worker_cores == 0);
  CHECK_FALSE(h.currency);
  CHECK(h.cpu_core_hour_price == 0);
  CHECK(h.gpu_hour_price == 0);
}

TEST_CASE("a static farm's jobs with threads and streams: event flows are jobs x streams, nodes are named") {
  nlohmann::json d = two_groups_two_pools();
  d["workload"]["threads"] = 2;
  d["workload"]["streams"] = 3;
  const RunHeader h = run_header(test::parse(d));
  CHECK(h.threaded);
  CHECK(h.threads == 2);
  CHECK(h.streams == 3);
  CHECK(h.concurrent_jobs == 3 * 3);
  CHECK(h.worker_names == Names{"w-0", "w-1", "v-0", "v-1", "v-2"});
  CHECK(h.worker_cores == 0);  // a batch system's only
}

TEST_CASE("a batch system's run header: every worker core and node, no flows known, the scenario's prices") {
  nlohmann::json d = two_groups_two_pools();
  d["workload"].erase("start");
  d["workload"]["submit"] = {{"pattern", "all_at_once"}};
  d["costs"] = {{"currency", "EUR"}, {"cpu_core_hour", 0.02}, {"gpu_hour", 0.5}};
  const RunHeader h = run_header(test::parse(d));
  CHECK(h.batch_system);
  CHECK_FALSE(h.threaded);
  CHECK(h.concurrent_jobs == 0);
  CHECK(h.worker_cores == 2 * 4 + 3 * 2);
  CHECK(h.worker_names == Names{"w-0", "w-1", "v-0", "v-1", "v-2"});
  REQUIRE(h.currency);
  CHECK(*h.currency == "EUR");
  CHECK(h.cpu_core_hour_price == 0.02);
  CHECK(h.gpu_hour_price == 0.5);
}

TEST_CASE("the run header names accelerators as the scenario does") {
  const RunHeader h = run_header(test::parse(test::with_device_names(test::base_scenario())));
  CHECK(h.device_naming == DeviceNaming::Device);
}
