#pragma once
// The scenario's /platform/servers/N/autoscaling: KEDA and the HPA scaling a server group.
#include "models/control/hpa.hpp"
#include "models/scenario/scaling_metric.hpp"
#include "models/workload/distribution.hpp"

namespace sonicsim {

// KEDA scaling a server group as one Kubernetes Deployment (docs/reference/supersonic.md §1.6, §3, §4, §7).
// The group's servers are the GPU pool: a pod runs on one of them, and a pod with none free stays
// pending. The HPA syncs every sync_period; KEDA alone takes the deployment from 0 to 1 replica and
// back, at its polling interval.
struct AutoscalingSpec {
  ScalingMetric metric = ScalingMetric::SupersonicLoad;
  double metric_window_s = 30;              // the metric's rate() window
  HpaSpec hpa;                              // target, metric type, tolerance, bounds (min_replicas >= 1) and behaviour
  int min_replicas = 1;                     // KEDA minReplicaCount: 0 lets KEDA scale the deployment to zero
  int initial_replicas = 1;                 // ready at t = 0 (the deployment ran before the simulated period)
  double sync_period_s = 15;                // --horizontal-pod-autoscaler-sync-period
  double polling_interval_s = 30;           // KEDA pollingInterval
  double cooldown_s = 300;                  // KEDA cooldownPeriod: idle time before scaling to zero
  double activation_threshold = 0;          // KEDA activationThreshold: active while the metric exceeds it
  Distribution startup = ConstantDist{60};  // scheduling to Triton serving: image pull plus model load
  double readiness_delay_s = 10;            // readinessProbe initialDelaySeconds
  double readiness_period_s = 10;           // readinessProbe periodSeconds
  double prestop_sleep_s = 0;               // preStop sleep: serving on, out of the proxy, before SIGTERM
  double grace_period_s = 60;               // terminationGracePeriodSeconds: preStop and draining together
};

}  // namespace sonicsim
