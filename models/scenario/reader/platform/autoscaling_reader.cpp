#include "models/scenario/reader/platform/autoscaling_reader.hpp"

#include <algorithm>
#include <string>

#include "models/io/json/choice.hpp"
#include "models/io/limits.hpp"
#include "models/scenario/reader/platform/platform_choices.hpp"
#include "models/scenario/reader/value_readers.hpp"

namespace sonicsim {
namespace {

// One direction of the HPA's behaviour; what is not given keeps Kubernetes' default, as the HPA
// controller fills in unset fields (pkg/apis/autoscaling/v2/defaults.go, GenerateHPAScaleUpRules).
ScalingRules read_scaling_rules(const JsonNode& node, ScalingRules rules) {
  node.allow_only({"stabilization_window", "select", "policies"});
  if (auto w = node.find("stabilization_window")) {
    rules.stabilization_window_s = w->duration_s();
    if (rules.stabilization_window_s > 3600)
      w->fail("expected at most 3600 s (the HPA's bound on stabilizationWindowSeconds)");
  }
  if (auto select = node.find("select")) rules.select = select->choice(kPolicySelects);
  if (auto policies = node.find("policies")) {
    rules.policies.clear();
    for (const JsonNode& p : policies->non_empty_elements()) {
      p.allow_only({"type", "value", "period"});
      ScalingPolicy policy;
      policy.kind = p.at("type").choice(kPolicyTypes);
      policy.value = p.at("value").int_in(1, limits::kMaxServersPerGroup * 100);
      policy.period_s = p.at("period").positive_duration_s();
      if (policy.period_s > 1800) p.at("period").fail("expected at most 1800 s (the HPA's bound on periodSeconds)");
      rules.policies.push_back(policy);
    }
  }
  return rules;
}

}  // namespace

ScalingMetric read_scaling_metric(const JsonNode& node) { return node.choice(kScalingMetrics); }

AutoscalingSpec read_autoscaling(const JsonNode& node, int pool) {
  node.allow_only({"min_replicas", "max_replicas", "initial_replicas", "metric", "metric_window", "threshold",
                   "metric_type", "tolerance", "sync_period", "polling_interval", "cooldown", "activation_threshold",
                   "scale_up", "scale_down", "startup", "readiness", "prestop_sleep", "grace_period"});
  AutoscalingSpec a;
  a.hpa.max_replicas = node.at("max_replicas").int_in(1, limits::kMaxServersPerGroup);
  a.min_replicas = 1;
  if (auto m = node.find("min_replicas")) a.min_replicas = m->int_in(0, a.hpa.max_replicas);
  a.hpa.min_replicas = std::max(1, a.min_replicas);  // KEDA gives the HPA at least 1; it handles 0 itself
  a.initial_replicas = a.min_replicas;
  if (auto i = node.find("initial_replicas")) {
    a.initial_replicas = i->int_in(a.min_replicas, a.hpa.max_replicas);
    if (a.initial_replicas > pool)
      i->fail("expected at most " + std::to_string(pool) + " (the group's count: its GPU pool has that many servers)");
  } else if (a.initial_replicas > pool) {
    node.at("min_replicas")
        .fail("expected at most " + std::to_string(pool) + " (the group's count: its GPU pool has that many servers)");
  }
  if (auto m = node.find("metric")) a.metric = read_scaling_metric(*m);
  if (auto w = node.find("metric_window")) a.metric_window_s = w->positive_duration_s();
  a.hpa.target = node.at("threshold").number_in(0, 1e12);
  if (!(a.hpa.target > 0)) node.at("threshold").fail("expected a positive threshold");
  a.hpa.target_kind = MetricTarget::AverageValue;  // KEDA's default metricType
  if (auto t = node.find("metric_type")) a.hpa.target_kind = t->choice(kMetricTypes);
  if (auto t = node.find("tolerance")) a.hpa.tolerance = t->number_in(0, 1);
  // Kubernetes and KEDA take these in whole seconds: below 1 s a run would be all syncs.
  const auto at_least_a_second = [](const JsonNode& d) {
    const double s = d.duration_s();
    if (!(s >= 1)) d.fail("expected at least 1 s");
    return s;
  };
  if (auto d = node.find("sync_period")) a.sync_period_s = at_least_a_second(*d);
  if (auto d = node.find("polling_interval")) a.polling_interval_s = at_least_a_second(*d);
  if (auto d = node.find("cooldown")) a.cooldown_s = d->duration_s();
  if (auto t = node.find("activation_threshold")) a.activation_threshold = t->number_in(0, 1e12);
  if (auto r = node.find("scale_up")) a.hpa.scale_up = read_scaling_rules(*r, default_scale_up());
  if (auto r = node.find("scale_down")) a.hpa.scale_down = read_scaling_rules(*r, default_scale_down());
  if (auto d = node.find("startup")) a.startup = read_distribution(*d);
  if (auto r = node.find("readiness")) {
    r->allow_only({"initial_delay", "period"});
    if (auto d = r->find("initial_delay")) a.readiness_delay_s = d->duration_s();
    if (auto d = r->find("period")) a.readiness_period_s = at_least_a_second(*d);
  }
  if (auto d = node.find("prestop_sleep")) a.prestop_sleep_s = d->duration_s();
  if (auto d = node.find("grace_period")) a.grace_period_s = d->duration_s();
  return a;
}

}  // namespace sonicsim
