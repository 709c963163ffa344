#include "models/scenario/reader/request_path_reader.hpp"

#include <string>

#include "models/io/limits.hpp"

namespace sonicsim {
namespace {

constexpr const char* kCostKeys[]{"per_request",  "per_input_tensor",  "input_bandwidth",
                                  "per_response", "per_output_tensor", "output_bandwidth"};

FrontendCost read_cost(const JsonNode& node) {
  FrontendCost cost;
  if (auto d = node.find("per_request")) cost.per_request_s = d->duration_s();
  if (auto d = node.find("per_input_tensor")) cost.per_input_tensor_s = d->duration_s();
  if (auto b = node.find("input_bandwidth")) cost.input_rate_Bps = b->bandwidth_Bps();
  if (auto d = node.find("per_response")) cost.per_response_s = d->duration_s();
  if (auto d = node.find("per_output_tensor")) cost.per_output_tensor_s = d->duration_s();
  if (auto b = node.find("output_bandwidth")) cost.output_rate_Bps = b->bandwidth_Bps();
  return cost;
}

// A copy's rate by the staging buffer's memory: {"pinned": RATE, "pageable": RATE}, either or both;
// the one the buffer uses must be among them.
void read_copy_rates(const JsonNode& node, bool pinned, double& pinned_Bps, double& pageable_Bps) {
  node.allow_only({"pinned", "pageable"});
  if (auto b = node.find("pinned")) pinned_Bps = b->bandwidth_Bps();
  if (auto b = node.find("pageable")) pageable_Bps = b->bandwidth_Bps();
  const char* used = pinned ? "pinned" : "pageable";
  if (!node.has(used))
    node.fail(std::string("expected a \"") + used + "\" rate: the staging buffer is " + used +
              " memory (its \"memory\" key, \"pinned\" unless given)");
}

// Where a frontend's cost for `protocol` was given: its block, or the frontend itself (flat keys).
JsonNode cost_node(const JsonNode& frontend, ClientProtocol protocol) {
  if (auto block = frontend.find(std::string(choice_name(kClientProtocols, protocol)))) return *block;
  return frontend;
}

}  // namespace

FrontendSpec read_frontend(const JsonNode& node) {
  std::vector<std::string_view> keys{"threads"};
  for (const char* key : kCostKeys) keys.push_back(key);
  for (const auto& protocol : kClientProtocols) keys.push_back(name_of(protocol));
  node.allow_only(keys);
  FrontendSpec frontend;
  if (auto t = node.find("threads")) frontend.threads = t->int_in(1, limits::kMaxFrontendThreads);
  frontend.any_protocol = read_cost(node);
  for (const auto& protocol : kClientProtocols) {
    const auto block = node.find(std::string(name_of(protocol)));
    if (!block) continue;
    for (const char* key : kCostKeys)
      if (node.has(key))
        block->fail(std::string("expected either costs per protocol or the flat \"") + key +
                    "\" (any protocol), not both");
    block->allow_only({std::begin(kCostKeys), std::end(kCostKeys)});
    frontend.by_protocol.emplace(value_of(protocol), read_cost(*block));
  }
  return frontend;
}

StagingSpec read_staging(const JsonNode& node) {
  node.allow_only({"per_request", "gather_bandwidth", "per_response", "scatter_bandwidth", "memory", "host_to_device",
                   "device_to_host"});
  static constexpr Choice<bool> kMemory[]{{"pinned", true}, {"pageable", false}};
  StagingSpec staging;
  if (auto m = node.find("memory")) staging.pinned = m->choice(kMemory);
  if (auto d = node.find("per_request")) staging.per_request_s = d->duration_s();
  if (auto b = node.find("gather_bandwidth")) staging.gather_rate_Bps = b->bandwidth_Bps();
  if (auto d = node.find("per_response")) staging.per_response_s = d->duration_s();
  if (auto b = node.find("scatter_bandwidth")) staging.scatter_rate_Bps = b->bandwidth_Bps();
  if (auto c = node.find("host_to_device"))
    read_copy_rates(*c, staging.pinned, staging.host_to_device_pinned_Bps, staging.host_to_device_pageable_Bps);
  if (auto c = node.find("device_to_host"))
    read_copy_rates(*c, staging.pinned, staging.device_to_host_pinned_Bps, staging.device_to_host_pageable_Bps);
  return staging;
}

ClientProtocol read_client_protocol(const std::optional<JsonNode>& node) {
  return node ? node->choice(kClientProtocols) : ClientProtocol::Grpc;
}

void check_request_path(const JsonNode& root, const Scenario& s) {
  const ClientProtocol protocol = s.client_protocol();
  const std::string protocol_name(choice_name(kClientProtocols, protocol));
  const std::vector<JsonNode> groups = root.at("platform").at("servers").elements();
  for (std::size_t g = 0; g < s.platform.servers.size(); ++g) {
    const ServerGroup& group = s.platform.servers[g];
    if (!group.frontend) continue;
    const JsonNode frontend = groups[g].at("frontend");
    if (!group.frontend->by_protocol.empty() && !group.frontend->by_protocol.count(protocol))
      frontend.fail("expected a \"" + protocol_name + "\" block: the clients use \"" + protocol_name +
                    "\" (their \"protocol\", \"grpc\" unless given)");
    const FrontendCost& cost = group.frontend->cost_for(protocol);
    for (const std::string& name : group.models) {
      const ModelSpec& model = s.models[static_cast<std::size_t>(s.model_index(name))];
      const JsonNode at = cost_node(frontend, protocol);
      if (cost.per_input_tensor_s > 0 && model.input_tensors() == 0)
        at.at("per_input_tensor")
            .fail("model \"" + name + "\" lists no input tensors (\"input\", or its config.pbtxt): a cost per tensor " +
                  "needs their number");
      if (cost.per_output_tensor_s > 0 && model.output_tensors() == 0)
        at.at("per_output_tensor")
            .fail("model \"" + name +
                  "\" lists no output tensors (\"output\", or its config.pbtxt): a cost per tensor needs their number");
    }
  }
}

}  // namespace sonicsim
