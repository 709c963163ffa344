#include "tests/support/scenario_support.hpp"

#include <string>

#include "models/scenario/reader/scenario_reader.hpp"

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

nlohmann::json perf_scenario(nlohmann::json load) {
  nlohmann::json d = base_scenario();
  d.erase("workload");
  d["perf_analyzer"] = std::move(load);
  return d;
}

nlohmann::json point_cloud_scenario(bool ragged) {
  nlohmann::json d = base_scenario();
  auto& m = d["models"]["m"];
  m.erase("input_bytes_per_item");
  m.erase("output_bytes_per_item");
  m["input"] = {{{"name", "points"}, {"data_type", "TYPE_FP32"}, {"dims", {-1, 8}}, {"allow_ragged_batch", ragged}},
                {{"name", "header"}, {"data_type", "TYPE_FP32"}, {"dims", {2}}}};
  m["output"] = {{{"name", "scores"}, {"data_type", "TYPE_FP32"}, {"dims", {3}}}};
  m["max_batch_size"] = 8;
  m["dynamic_batching"] = {{"preferred_batch_size", {8}}, {"max_queue_delay_microseconds", 2000}};
  d["platform"]["worker_pools"][0]["nodes"] = 8;
  d["platform"]["placement"] = "spread";
  d["workload"]["jobs"] = 8;
  d["workload"]["events_per_job"] = 25;
  d["workload"]["modules"][0]["time"] = "0s";
  auto& ml = d["workload"]["modules"][1];
  ml["preprocess"] = "0s";
  ml["items_per_event"] = 1;
  ml["items_per_request"] = 1;
  ml["elements_per_item"] = {{"distribution", "empirical"}, {"samples", {10, 20, 40}}};
  d["simulation"]["outputs"] = {"requests", "batches"};
  return d;
}

nlohmann::json with_device_names(nlohmann::json d) {
  auto& group = d["platform"]["servers"][0];
  group["device"] = "U250";
  group["devices_per_server"] = group["gpus_per_server"];
  group.erase("gpu");
  group.erase("gpus_per_server");
  auto& model = d["models"]["m"];
  model["instances_per_device"] = model["instances_per_gpu"];
  model.erase("instances_per_gpu");
  return d;
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

}  // namespace test
}  // namespace sonicsim
