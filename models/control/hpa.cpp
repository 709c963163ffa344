#include "models/control/hpa.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

namespace sonicsim {
namespace {

// A replica count from a ratio, capped where an int ends (Kubernetes converts to int32 unchecked).
int ceil_count(double x) { return x >= INT_MAX ? INT_MAX : x <= 0 ? 0 : static_cast<int>(std::ceil(x)); }

}  // namespace

int HorizontalPodAutoscaler::sync(double now_s, int replicas, int existing, int ready, double metric) {
  // reconcileAutoscaler: outside [min, max] the count is brought back first, without the metric.
  int desired;
  if (replicas > spec_.max_replicas) {
    desired = spec_.max_replicas;
  } else if (replicas < spec_.min_replicas) {
    desired = spec_.min_replicas;
  } else {
    desired = metric_replicas(replicas, existing, ready, metric);
    desired = stabilize(now_s, replicas, desired);
    desired = limit_rate(now_s, replicas, desired);
  }
  if (desired != replicas) store_event(now_s, replicas, desired);
  return desired;
}

int HorizontalPodAutoscaler::metric_replicas(int replicas, int existing, int ready, double metric) const {
  if (spec_.target_kind == MetricTarget::Value) {
    // getUsageRatioReplicaCount: only Running and Ready pods count.
    const double ratio = metric / spec_.target;
    if (replicas == 0) return ceil_count(ratio);
    if (std::abs(1.0 - ratio) <= spec_.tolerance) return replicas;
    return ceil_count(ratio * ready);
  }
  // GetExternalPerPodMetricReplicas: the ratio is per existing pod.
  const double ratio = metric / (spec_.target * existing);
  if (existing > 0 && std::abs(1.0 - ratio) <= spec_.tolerance) return existing;
  return ceil_count(metric / spec_.target);
}

// stabilizeRecommendationWithBehaviors: scale up no further than the lowest recommendation of the
// scale-up window, down no further than the highest of the scale-down window (the new one included).
int HorizontalPodAutoscaler::stabilize(double now_s, int replicas, int desired) {
  const double up_cutoff = now_s - spec_.scale_up.stabilization_window_s;
  const double down_cutoff = now_s - spec_.scale_down.stabilization_window_s;
  int up = desired, down = desired;
  std::size_t old = recommendations_.size();
  for (std::size_t i = 0; i < recommendations_.size(); ++i) {
    const Recommendation& r = recommendations_[i];
    if (r.at_s > up_cutoff) up = std::min(up, r.replicas);
    if (r.at_s > down_cutoff) down = std::max(down, r.replicas);
    if (r.at_s < up_cutoff && r.at_s < down_cutoff) old = i;  // the last such one is reused
  }
  const int stabilized = std::min(std::max(replicas, up), down);
  if (old < recommendations_.size())
    recommendations_[old] = {now_s, desired};
  else
    recommendations_.push_back({now_s, desired});
  return stabilized;
}

namespace {

template <typename Events>
int change_in_period(const Events& events, double now_s, double period_s) {
  int change = 0;
  for (const auto& e : events)
    if (e.at_s > now_s - period_s) change += e.change;
  return change;
}

}  // namespace

// convertDesiredReplicasWithBehaviorRate with calculateScaleUpLimitWithScalingRules and
// calculateScaleDownLimitWithBehaviors: each policy allows a change from the count at the start of
// its period; Max takes the most permissive policy, Min the least, Disabled none.
int HorizontalPodAutoscaler::limit_rate(double now_s, int replicas, int desired) const {
  if (desired > replicas) {
    const ScalingRules& rules = spec_.scale_up;
    int limit = replicas;
    if (rules.select != PolicySelect::Disabled) {
      limit = rules.select == PolicySelect::Max ? INT_MIN : INT_MAX;
      for (const ScalingPolicy& p : rules.policies) {
        const int start = replicas - change_in_period(scale_up_events_, now_s, p.period_s) +
                          change_in_period(scale_down_events_, now_s, p.period_s);
        const int proposed =
            p.kind == ScalingPolicyKind::Pods ? start + p.value : ceil_count(start * (1 + p.value / 100.0));
        limit = rules.select == PolicySelect::Max ? std::max(limit, proposed) : std::min(limit, proposed);
      }
      limit = std::max(limit, replicas);  // no further up until old events leave their periods
    }
    return std::min({desired, limit, spec_.max_replicas});
  }
  if (desired < replicas) {
    const ScalingRules& rules = spec_.scale_down;
    int limit = replicas;
    if (rules.select != PolicySelect::Disabled) {
      limit = rules.select == PolicySelect::Max ? INT_MAX : INT_MIN;
      for (const ScalingPolicy& p : rules.policies) {
        const int start = replicas + change_in_period(scale_down_events_, now_s, p.period_s) -
                          change_in_period(scale_up_events_, now_s, p.period_s);
        const int proposed =
            p.kind == ScalingPolicyKind::Pods ? start - p.value : static_cast<int>(start * (1 - p.value / 100.0));
        limit = rules.select == PolicySelect::Max ? std::min(limit, proposed) : std::max(limit, proposed);
      }
      limit = std::min(limit, replicas);
    }
    return std::max({desired, limit, spec_.min_replicas});
  }
  return desired;
}

// storeScaleEvent: events older than the longest policy period are replaced rather than kept.
void HorizontalPodAutoscaler::store_event(double now_s, int before, int after) {
  const bool up = after > before;
  const ScalingRules& rules = up ? spec_.scale_up : spec_.scale_down;
  std::vector<ScaleEvent>& events = up ? scale_up_events_ : scale_down_events_;
  double longest = 0;
  for (const ScalingPolicy& p : rules.policies) longest = std::max(longest, p.period_s);
  const ScaleEvent event{now_s, up ? after - before : before - after};
  for (ScaleEvent& e : events)
    if (e.at_s < now_s - longest) {
      e = event;
      return;
    }
  events.push_back(event);
}

}  // namespace sonicsim
