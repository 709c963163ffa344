#pragma once
// The scenario's /platform: worker pools, links, server groups (frontend, failures, autoscaling),
// load balancing and the proxy, with the checks between them.
#include "models/io/json/json_reader.hpp"
#include "models/scenario/platform.hpp"

namespace sonicsim {

Platform read_platform(const JsonNode& node);

}  // namespace sonicsim
