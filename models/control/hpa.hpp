#pragma once
// The Kubernetes Horizontal Pod Autoscaler as KEDA configures it for one external metric: each sync
// turns the metric into a replica count, stabilises it over the recommendations of a window, and
// limits the change by the scaling policies. Follows kubernetes pkg/controller/podautoscaler
// (horizontal.go: reconcileAutoscaler, normalizeDesiredReplicasWithBehaviors,
// stabilizeRecommendationWithBehaviors, convertDesiredReplicasWithBehaviorRate,
// calculateScaleUpLimitWithScalingRules, calculateScaleDownLimitWithBehaviors, storeScaleEvent;
// replica_calculator.go: getUsageRatioReplicaCount, GetExternalPerPodMetricReplicas), restated in
// docs/reference/supersonic.md §3. Pure: the caller says when it syncs and what the pods are.
#include <utility>
#include <vector>

namespace sonicsim {

enum class MetricTarget {
  Value,         // desired = ceil(metric / target x ready pods)
  AverageValue,  // desired = ceil(metric / target)
};
enum class ScalingPolicyKind { Pods, Percent };
struct ScalingPolicy {
  ScalingPolicyKind kind = ScalingPolicyKind::Pods;
  int value = 1;
  double period_s = 15;
};
enum class PolicySelect { Max, Min, Disabled };  // the policy allowing the largest, the smallest, or no change
struct ScalingRules {
  double stabilization_window_s = 0;
  std::vector<ScalingPolicy> policies;
  PolicySelect select = PolicySelect::Max;
};

// Kubernetes' defaults (HPA "Default behavior").
inline ScalingRules default_scale_up() {
  return {0, {{ScalingPolicyKind::Percent, 100, 15}, {ScalingPolicyKind::Pods, 4, 15}}, PolicySelect::Max};
}
inline ScalingRules default_scale_down() { return {300, {{ScalingPolicyKind::Percent, 100, 15}}, PolicySelect::Max}; }

struct HpaSpec {
  MetricTarget target_kind = MetricTarget::AverageValue;  // KEDA's default metricType
  double target = 1;                                      // the trigger's threshold
  double tolerance = 0.1;                                 // --horizontal-pod-autoscaler-tolerance
  int min_replicas = 1;
  int max_replicas = 1;
  ScalingRules scale_up = default_scale_up();
  ScalingRules scale_down = default_scale_down();
};

class HorizontalPodAutoscaler {
 public:
  explicit HorizontalPodAutoscaler(HpaSpec spec) : spec_(std::move(spec)) {}

  // One sync at `now_s`: the deployment asks for `replicas` pods (spec.replicas), `existing` of them
  // exist (status.replicas), `ready` are Running and Ready, and the metric reads `metric`. Returns
  // the replicas to ask for.
  int sync(double now_s, int replicas, int existing, int ready, double metric);

  // The replica count the metric alone asks for (before stabilisation and rate limits).
  int metric_replicas(int replicas, int existing, int ready, double metric) const;

 private:
  struct Recommendation {
    double at_s;
    int replicas;
  };
  struct ScaleEvent {
    double at_s;
    int change;  // pods added (scale-up events) or removed (scale-down events)
  };
  int stabilize(double now_s, int replicas, int desired);
  int limit_rate(double now_s, int replicas, int desired) const;
  void store_event(double now_s, int before, int after);

  HpaSpec spec_;
  std::vector<Recommendation> recommendations_;
  std::vector<ScaleEvent> scale_up_events_, scale_down_events_;
};

}  // namespace sonicsim
