// The HPA's replica sequence for scripted metrics, against sequences worked out by hand from the
// rules in docs/reference/supersonic.md §3 (Kubernetes horizontal.go and replica_calculator.go). Syncs
// every 15 s; pods are ready the moment they are asked for unless a test says otherwise.
#include <doctest/doctest.h>

#include <functional>
#include <vector>

#include "models/control/hpa.hpp"

using namespace sonicsim;

namespace {

// Replicas after each sync at 0, 15, 30 ... s, for `syncs` syncs, starting from `replicas`.
std::vector<int> run_hpa(HorizontalPodAutoscaler& hpa, int replicas, int syncs,
                         const std::function<double(double)>& metric) {
  std::vector<int> out;
  for (int k = 0; k < syncs; ++k) {
    const double t = 15.0 * k;
    replicas = hpa.sync(t, replicas, replicas, replicas, metric(t));
    out.push_back(replicas);
  }
  return out;
}

// SuperSONIC at Purdue's Geddes (docs/reference/supersonic.md §1.8, §3.3): Value metric, threshold 20,
// 1 to 11 replicas; one pod up per 15 s after a 30 s window, one down per 45 s after 45 s. Here the
// chart's values instead, slower and easier to follow: up one pod per 60 s after a 60 s window, down
// one per 120 s after a 600 s window.
HpaSpec supersonic_values() {
  HpaSpec spec;
  spec.target_kind = MetricTarget::Value;
  spec.target = 20;
  spec.min_replicas = 1;
  spec.max_replicas = 11;
  spec.scale_up = {60, {{ScalingPolicyKind::Pods, 1, 60}}, PolicySelect::Max};
  spec.scale_down = {600, {{ScalingPolicyKind::Pods, 1, 120}}, PolicySelect::Max};
  return spec;
}

}  // namespace

TEST_CASE("HPA: a metric within the tolerance changes nothing") {
  HpaSpec spec = supersonic_values();
  HorizontalPodAutoscaler hpa(spec);
  // 3 replicas at 1.09 x the target: |1 - 1.09| <= 0.1, so 3 stays.
  CHECK(run_hpa(hpa, 3, 8, [](double) { return 20 * 1.09; }) == std::vector<int>(8, 3));
  // 1.11 x: ceil(1.11 x 3) = 4 is the recommendation; the 60 s window has no lower one: up by one.
  HorizontalPodAutoscaler above(spec);
  CHECK(above.sync(0, 3, 3, 3, 20 * 1.11) == 4);
}

TEST_CASE("HPA: a step up adds one pod per period, to the maximum") {
  // The metric jumps to 5x the target at t = 0 and stays. Each sync recommends ceil(5 x ready),
  // always above the current count; the 60 s window's minimum is one of those, so the rate policy
  // decides: one pod per 60 s (an event leaves the period once it is 60 s old, not at exactly 60 s,
  // so the next pod comes at the sync 60 s after the last). 1 -> 2 at 0 s, 3 at 60 s, ... 11 at 540 s.
  HorizontalPodAutoscaler hpa(supersonic_values());
  const std::vector<int> got = run_hpa(hpa, 1, 45, [](double) { return 100.0; });
  for (int k = 0; k < 45; ++k) {
    const int expected = std::min(11, 2 + (15 * k) / 60);
    CHECK_MESSAGE(got[static_cast<std::size_t>(k)] == expected, "sync at " << 15 * k << " s");
  }
}

TEST_CASE("HPA: a step down waits out the stabilisation window, then removes one pod per period") {
  // 11 replicas at the target until t = 300 s (ratio 1: no change), then the metric falls to 0. The
  // recommendations up to 285 s are 11; from 300 s they are 0. The highest in the 600 s window stays
  // 11 while the 285 s one is in it, i.e. strictly after now - 600 s: until the sync at 885 s. From
  // then one pod per 120 s: 10 at 885 s, 9 at 1005 s, ... 1 at 1965 s.
  HorizontalPodAutoscaler hpa(supersonic_values());
  const std::vector<int> got = run_hpa(hpa, 11, 150, [](double t) { return t < 300 ? 20.0 : 0.0; });
  for (int k = 0; k < 150; ++k) {
    const double t = 15.0 * k;
    const int expected = t < 885 ? 11 : std::max(1, 10 - static_cast<int>((t - 885) / 120));
    CHECK_MESSAGE(got[static_cast<std::size_t>(k)] == expected, "sync at " << t << " s");
  }
}

TEST_CASE("HPA: a ramp under Kubernetes' default behaviour") {
  // AverageValue target 10 per pod, metric 10 t/15 (one more target's worth each sync); defaults:
  // up without a window, at most max(100 %, 4 pods) per 15 s, never binding here. Sync k (t = 15 k)
  // asks for k pods against the current r, unless k/r is within the 10 % tolerance: from r = 11 on,
  // one sync's growth (12/11 = 1.09) is tolerated and the count moves every second sync.
  HpaSpec spec;
  spec.target_kind = MetricTarget::AverageValue;
  spec.target = 10;
  spec.max_replicas = 100;
  HorizontalPodAutoscaler hpa(spec);
  const std::vector<int> got = run_hpa(hpa, 1, 30, [](double t) { return 10 * t / 15; });
  int r = 1;
  for (int k = 0; k < 30; ++k) {
    if (static_cast<double>(k) / r - 1 > 0.1) r = k;
    CHECK_MESSAGE(got[static_cast<std::size_t>(k)] == r, "sync " << k);
  }
  CHECK(got[11] == 11);
  CHECK(got[12] == 11);  // 12/11 within the tolerance
  CHECK(got[13] == 13);
}

TEST_CASE("HPA: Value and AverageValue as KEDA's documentation computes them") {
  // keda-docs scaledobject-spec.md: 3 replicas, metric 20, target 5 -> AverageValue 20/5 = 4,
  // Value 3 x 20/5 = 12.
  HpaSpec spec;
  spec.target = 5;
  spec.max_replicas = 100;
  spec.target_kind = MetricTarget::AverageValue;
  CHECK(HorizontalPodAutoscaler(spec).metric_replicas(3, 3, 3, 20) == 4);
  spec.target_kind = MetricTarget::Value;
  CHECK(HorizontalPodAutoscaler(spec).metric_replicas(3, 3, 3, 20) == 12);
  // With Kubernetes' default rate limits the first sync reaches max(3 x 2, 3 + 4) = 7 of the 12.
  CHECK(HorizontalPodAutoscaler(spec).sync(0, 3, 3, 3, 20) == 7);
  // Only ready pods count for Value: 3 asked for, 1 ready -> ceil(4 x 1) = 4.
  CHECK(HorizontalPodAutoscaler(spec).metric_replicas(3, 3, 1, 20) == 4);
}

TEST_CASE("HPA: counts outside [min, max] are brought back first") {
  HpaSpec spec = supersonic_values();
  CHECK(HorizontalPodAutoscaler(spec).sync(0, 14, 14, 14, 0) == 11);
  CHECK(HorizontalPodAutoscaler(spec).sync(0, 0, 0, 0, 1000) == 1);
  // A huge metric never asks for more than max, nor an idle one for fewer than min.
  HpaSpec fast;
  fast.target_kind = MetricTarget::Value;
  fast.target = 1;
  fast.min_replicas = 2;
  fast.max_replicas = 5;
  fast.scale_up = {0, {{ScalingPolicyKind::Pods, 100, 15}}, PolicySelect::Max};
  fast.scale_down = {0, {{ScalingPolicyKind::Pods, 100, 15}}, PolicySelect::Max};
  HorizontalPodAutoscaler hpa(fast);
  CHECK(hpa.sync(0, 3, 3, 3, 1e9) == 5);
  CHECK(hpa.sync(15, 5, 5, 5, 0) == 2);
}

TEST_CASE("HPA: Percent policies and the Min select") {
  // Scale-up from 4 with Percent 50 (ceil(4 x 1.5) = 6) and Pods 1 (5): Max allows 6, Min 5.
  HpaSpec spec;
  spec.target_kind = MetricTarget::AverageValue;
  spec.target = 1;
  spec.max_replicas = 100;
  spec.scale_up = {0, {{ScalingPolicyKind::Percent, 50, 60}, {ScalingPolicyKind::Pods, 1, 60}}, PolicySelect::Max};
  CHECK(HorizontalPodAutoscaler(spec).sync(0, 4, 4, 4, 40) == 6);
  spec.scale_up.select = PolicySelect::Min;
  CHECK(HorizontalPodAutoscaler(spec).sync(0, 4, 4, 4, 40) == 5);
  spec.scale_up.select = PolicySelect::Disabled;
  CHECK(HorizontalPodAutoscaler(spec).sync(0, 4, 4, 4, 40) == 4);
  // Scale-down from 10 with Percent 30 (10 x 0.7 = 7): no window, metric 0 -> 7, then 15 s later
  // the period still holds the 3 removed pods: the start is 10 again, so 7 stays the limit.
  HpaSpec down;
  down.target_kind = MetricTarget::AverageValue;
  down.target = 1;
  down.max_replicas = 100;
  down.scale_down = {0, {{ScalingPolicyKind::Percent, 30, 60}}, PolicySelect::Max};
  HorizontalPodAutoscaler hpa(down);
  CHECK(hpa.sync(0, 10, 10, 10, 0) == 7);
  CHECK(hpa.sync(15, 7, 7, 7, 0) == 7);
  CHECK(hpa.sync(61, 7, 7, 7, 0) == 4);  // the event at 0 s has left its 60 s period: 7 x 0.7 = 4.9 -> 4
}
