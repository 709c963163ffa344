#pragma once
// The platform's "proxy": Envoy's NIC, threads and timings, SuperSONIC's saturation gate and its
// connection limit.
#include "models/io/json/json_reader.hpp"
#include "models/scenario/proxy.hpp"

namespace sonicsim {

ProxySpec read_proxy(const JsonNode& node);

}  // namespace sonicsim
