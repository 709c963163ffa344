#pragma once
// The scenario's /platform/proxy: an Envoy proxy between the jobs and the servers, with
// SuperSONIC's saturation gate and connection limit.
#include <optional>

#include "models/control/token_bucket.hpp"
#include "models/scenario/link.hpp"
#include "models/scenario/scaling_metric.hpp"

namespace sonicsim {

// SuperSONIC's saturation gate (Envoy Lua filter, docs/reference/supersonic.md §1.4): a job's first call
// (RepositoryIndex) is refused while the server load metric exceeds the threshold, and the job then
// runs its inference on its own CPU for its whole life.
struct SaturationGateSpec {
  double threshold_ms = 100;  // serverLoadThreshold, in the metric's unit (SuperSONIC's load metrics: ms)
  double window_s = 30;       // the metric's rate() window
  ScalingMetric metric = ScalingMetric::SupersonicLoad;  // serverLoadMetric, as the autoscaler's
};

// An Envoy proxy in the data centre between the jobs and the servers: every request and response
// crosses its NIC, and each request costs it CPU time. Defaults are Envoy's (docs/reference/supersonic.md §2.3).
struct ProxySpec {
  LinkSpec nic;
  int threads = 1;               // Envoy worker threads (--concurrency); SuperSONIC requests 1 CPU
  double per_request_s = 0;      // CPU time to route one request (and relay its response)
  double dns_refresh_s = 5;      // STRICT_DNS dns_refresh_rate: when membership changes reach the proxy
  double connect_timeout_s = 5;  // cluster connect_timeout: how long a request to a dead server waits
  std::optional<SaturationGateSpec> gate;
  // SuperSONIC's optional listener token bucket on new connections (docs/reference/supersonic.md §1.4(a)):
  // a job connects once, at its start; refused, it runs on its CPU as if gated.
  std::optional<TokenBucketSpec> connection_limit;
};

}  // namespace sonicsim
