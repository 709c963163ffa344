#pragma once
// The metrics Prometheus answers to the saturation gate and the autoscaler
// (docs/reference/supersonic.md §1.5, §7): one enum for the gate (proxy.hpp) and KEDA (autoscaling.hpp),
// since SuperSONIC's chart gives both the same serverLoadMetric.

namespace sonicsim {

enum class ScalingMetric {
  SupersonicLoad,        // sum(rate(queue_duration_us)) / (sum(rate(exec_count)) x 1000 + 0.001), in ms
  SupersonicLoadSummed,  // sum over series of rate(queue_duration_us) / (rate(exec_count) x 1000 + 0.001), in ms
  QueueTimePerRequest,   // sum(rate(queue_duration_us)) / sum(rate(request_success)) / 1000, in ms
  GpuUtilization,        // the mean over scraped GPUs of rate(busy seconds), between 0 and 1
  InFlightPerReplica,    // Envoy's active requests to the deployment over its ready replicas, last scrape
};

}  // namespace sonicsim
