#pragma once
// The platform the failure, autoscaling and load-balancing tests share: one-core worker nodes and
// one-GPU servers on a negligible network (1 ns latencies, 100 Gbps on every link: a 100-byte message
// takes nanoseconds against milliseconds of service), a model of 100-byte items with one instance per
// GPU (under Triton's default scheduler a server serves one request at a time) and an inference module
// that sends one request of one item per event.
#include <string>

#include <nlohmann/json.hpp>

namespace sonicsim::test {

// A link of 1 ns and 100 Gbps.
nlohmann::json negligible_link();
// base_scenario() with `nodes` one-core worker nodes, its NICs, site uplink and WAN negligible, the
// load-balancing `policy` and no servers yet.
nlohmann::json negligible_network_farm(int nodes, const std::string& policy);
// A server group of `count` servers with one `gpu` each and a negligible NIC, serving model "m".
nlohmann::json one_gpu_servers(const std::string& name, int count, const std::string& gpu);
// Model "m": 100 bytes in and out per item, batches of up to 8, one instance per GPU, no kernel
// latency yet.
nlohmann::json one_instance_model();
// A kernel latency of `time` whatever the batch (affine, 0 s per item).
nlohmann::json constant_kernel(const std::string& time);
// Inference module "ml" on model "m": one item per event in one request, no preprocessing, one in flight.
nlohmann::json one_request_module();

}  // namespace sonicsim::test
