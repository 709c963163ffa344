#include "tests/support/negligible_network_farm.hpp"

#include "tests/support/scenario_support.hpp"

namespace sonicsim::test {

nlohmann::json negligible_link() { return {{"bandwidth", "100Gbps"}, {"latency", "1ns"}}; }

nlohmann::json negligible_network_farm(int nodes, const std::string& policy) {
  nlohmann::json d = base_scenario();
  d["platform"]["worker_pools"][0].update({{"nodes", nodes}, {"cores_per_node", 1}, {"nic", negligible_link()}});
  d["platform"]["site_uplink"] = negligible_link();
  d["platform"]["wan"] = negligible_link();
  d["platform"]["load_balancing"] = policy;
  d["platform"]["servers"] = nlohmann::json::array();
  return d;
}

nlohmann::json one_gpu_servers(const std::string& name, int count, const std::string& gpu) {
  return {{"name", name}, {"count", count},           {"gpus_per_server", 1},
          {"gpu", gpu},   {"nic", negligible_link()}, {"models", nlohmann::json::array({"m"})}};
}

nlohmann::json one_instance_model() {
  return {{"input_bytes_per_item", "100B"},
          {"output_bytes_per_item", "100B"},
          {"max_batch_size", 8},
          {"instances_per_gpu", 1}};
}

nlohmann::json constant_kernel(const std::string& time) {
  return {{"type", "affine"}, {"intercept", time}, {"per_item", "0s"}};
}

nlohmann::json one_request_module() {
  return {{"type", "inference"},    {"name", "ml"},       {"model", "m"},  {"items_per_event", 1},
          {"items_per_request", 1}, {"preprocess", "0s"}, {"in_flight", 1}};
}

}  // namespace sonicsim::test
