// The run header names the servers and worker nodes from the scenario alone (analysis/run_header.hpp);
// the records index the platform's (sim/platform.hpp). Both must name the same hosts in the same order.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "analysis/run_header.hpp"
#include "cli/processes/isolated_run.hpp"
#include "sim/engine_setup.hpp"
#include "sim/platform.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using nlohmann::json;

TEST_CASE("the run header's server and worker names are the platform's hosts, in the platform's order") {
  json d = test::base_scenario();
  d["platform"]["worker_pools"][0]["nodes"] = 2;
  json pool = d["platform"]["worker_pools"][0];
  pool["name"] = "v";
  pool["nodes"] = 3;
  d["platform"]["worker_pools"].push_back(pool);
  d["platform"]["servers"][0]["count"] = 2;
  json group = d["platform"]["servers"][0];
  group["name"] = "t";
  group["count"] = 3;
  d["platform"]["servers"].push_back(group);
  d["workload"]["threads"] = 1;  // jobs with threads: jobs.csv names their nodes
  const Scenario scenario = test::parse(d);
  const RunHeader header = run_header(scenario);
  const json platform_names = json::parse(run_isolated([&] {
    const auto engine = sim::make_engine(scenario.simulation);
    const sim::FarmPlatform farm = sim::build_platform(scenario);
    json servers = json::array(), workers = json::array();
    for (const sim::ServerNode& s : farm.servers) servers.push_back(s.host->get_name());
    for (const sim::WorkerNode& w : farm.workers) workers.push_back(w.host->get_name());
    return json{{"servers", servers}, {"workers", workers}}.dump();
  }));
  CHECK(header.server_names.size() == 2 + 3);
  CHECK(json(header.server_names) == platform_names.at("servers"));
  CHECK(header.worker_names.size() == 2 + 3);
  CHECK(json(header.worker_names) == platform_names.at("workers"));
}
