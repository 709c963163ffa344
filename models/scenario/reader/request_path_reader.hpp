#pragma once
// The request path's settings (models/scenario/request_path.hpp): a server group's frontend costs,
// per protocol or for any; a model's staging (Compute Input / Compute Output); the protocol the
// clients use; and the checks between them once the whole scenario is read.
#include "models/io/json/choice.hpp"
#include "models/io/json/json_reader.hpp"
#include "models/scenario/request_path.hpp"
#include "models/scenario/scenario.hpp"

namespace sonicsim {

inline constexpr Choice<ClientProtocol> kClientProtocols[]{{"grpc", ClientProtocol::Grpc},
                                                           {"http", ClientProtocol::Http},
                                                           {"system_shm", ClientProtocol::SystemShm},
                                                           {"cuda_shm", ClientProtocol::CudaShm}};

FrontendSpec read_frontend(const JsonNode& node);
StagingSpec read_staging(const JsonNode& node);

// The workload's or perf_analyzer's "protocol" (its node, where given: gRPC otherwise).
ClientProtocol read_client_protocol(const std::optional<JsonNode>& node);

// Every frontend that gives costs per protocol gives the clients' protocol; a frontend that costs
// per tensor serves only models whose tensors are listed. Throws an InputError at the first broken.
void check_request_path(const JsonNode& root, const Scenario& scenario);

}  // namespace sonicsim
