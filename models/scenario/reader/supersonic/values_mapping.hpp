#pragma once
// A SuperSONIC values file, merged over the chart's defaults, as the scenario keys it gives a server
// group and the platform: the Triton Deployment (count, devices per server), KEDA's ScaledObject and
// the pods' probes and lifecycle (autoscaling), Envoy (load_balancing, proxy with its saturation
// gate and connection limit) and Prometheus's scrape interval. Each key follows what the chart's
// templates at e5788010 render from the values, quirks included; scenarios/README.md ("SuperSONIC
// values") tables every key with its template. What the simulator does not model is listed in
// notes, one line each, never dropped silently.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sonicsim::supersonic {

// A scenario key the values gave: its JSON pointer under the server group ("/autoscaling/max_replicas")
// or under /platform ("/proxy/threads"), and the values key it comes from ("" for what a template
// fixes whatever the values say, such as the grace period).
struct MappedKey {
  bool platform = false;
  std::string pointer;
  std::string source;
};

struct ValuesMapping {
  nlohmann::json group = nlohmann::json::object();     // count, devices_per_server, autoscaling
  nlohmann::json platform = nlohmann::json::object();  // load_balancing, proxy, scrape_interval
  std::vector<MappedKey> keys;
  std::vector<std::string> notes;  // one line each; the caller prefixes the values file
};

struct ValuesInput {
  const nlohmann::json& merged;           // the file coalesced over the chart's defaults
  const nlohmann::json& file_values;      // the file as written
  std::string values_file;                // for errors
  const nlohmann::json& inline_group;     // the scenario's server group, which overrides
  const nlohmann::json& inline_platform;  // the scenario's /platform, which overrides
  std::string group_pointer;              // "/platform/servers/N"
};

// Errors (a value of the wrong type, out of what Kubernetes, KEDA or Envoy accept, a metric
// sonicsim cannot evaluate) are InputErrors naming the values file and the key's JSON pointer.
ValuesMapping map_values(const ValuesInput& input);

}  // namespace sonicsim::supersonic
