#include "tests/support/support.hpp"

#include <string>

#include "cli/processes/isolated_run.hpp"
#include "models/scenario/reader/scenario_reader.hpp"
#include "sim/simulation.hpp"
#include "tests/support/records_json.hpp"

namespace sonicsim {
namespace test {

nlohmann::json base_scenario() {
  return nlohmann::json::parse(R"({
    "name": "test",
    "platform": {
      "worker_pools": [{"name": "w", "nodes": 1, "cores_per_node": 1, "cpu_speed": 1.0,
                        "nic": {"bandwidth": "10Gbps", "latency": "10us"}}],
      "site_uplink": {"bandwidth": "1Gbps", "latency": "100us"},
      "wan": {"bandwidth": "5Gbps", "latency": "1ms"},
      "servers": [{"name": "s", "count": 1, "gpus_per_server": 1, "gpu": "T4",
                   "nic": {"bandwidth": "10Gbps", "latency": "10us"}, "models": ["m"]}]
    },
    "models": {
      "m": {"input_bytes_per_item": "4000B", "output_bytes_per_item": "400B", "max_batch_size": 1000,
            "instances_per_gpu": 1, "kernel_latency": {"type": "affine", "intercept": "1ms", "per_item": "10us"}}
    },
    "workload": {
      "jobs": 1, "events_per_job": 1, "start": {"pattern": "all_at_once"},
      "modules": [
        {"type": "cpu", "name": "reco", "time": "2s"},
        {"type": "inference", "name": "ml", "model": "m", "items_per_event": 1000, "items_per_request": 300,
         "preprocess": "0.5s", "in_flight": 1}
      ]
    },
    "simulation": {"seed": 7, "network": {"model": "CM02", "tcp_gamma": "0B", "crosstraffic": false}}
  })");
}

std::string input_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

Scenario parse(const nlohmann::json& document) { return parse_scenario(document, "test.json"); }

SimulationResults simulate_isolated(const Scenario& scenario) {
  const std::string text = run_isolated([&]() { return nlohmann::json(simulate(scenario)).dump(); });
  return nlohmann::json::parse(text).get<SimulationResults>();
}

}  // namespace test
}  // namespace sonicsim
