// Triton's Deployment, KEDA's ScaledObject and the pods' probes and lifecycle, as the chart's
// templates at e5788010 render them (helm/supersonic/templates/triton/deployment.yaml,
// templates/keda/so.yaml).
#include <algorithm>

#include "models/io/limits.hpp"
#include "models/io/text_format.hpp"
#include "models/scenario/reader/platform/platform_choices.hpp"
#include "models/scenario/reader/supersonic/mapper.hpp"
#include "models/scenario/reader/supersonic/values_fields.hpp"

namespace sonicsim::supersonic {
namespace {

std::string seconds_text(std::int64_t s) { return std::to_string(s) + "s"; }

}  // namespace

Mapper::Mapper(const ValuesInput& input) : in_(input), root_(input.merged, "", input.values_file) {}

std::optional<JsonNode> Mapper::find(std::initializer_list<std::string_view> keys) const {
  std::optional<JsonNode> node = root_;
  std::size_t i = 0;
  for (std::string_view key : keys) {
    // Every step but the last must be a map: `.Values.a.b` on a scalar fails Helm's rendering.
    node = ++i < keys.size() ? map_member(*node, std::string(key)) : member(*node, std::string(key));
    if (!node) return std::nullopt;
  }
  return node;
}

bool Mapper::file_sets(const std::string& pointer) const {
  const nlohmann::json::json_pointer p(pointer);
  return in_.file_values.contains(p) && !in_.file_values.at(p).is_null();
}

bool Mapper::inline_has(bool platform, const std::string& pointer) const {
  const nlohmann::json& scenario = platform ? in_.inline_platform : in_.inline_group;
  try {
    const nlohmann::json::json_pointer p(pointer);
    return scenario.contains(p) && !scenario.at(p).is_null();
  } catch (const nlohmann::json::exception&) {
    return false;  // a parent that is not an object: the scenario reader will say so
  }
}

bool Mapper::enabled(std::initializer_list<std::string_view> keys) {
  const auto node = find(keys);
  if (!node) return false;
  const bool on = truthy(node->raw());
  if (node->raw().is_string())
    note(dotted(node->pointer()) + " is the string \"" + node->raw().get<std::string>() +
         "\", which the chart's `if` takes as " + (on ? "true" : "false") +
         " (a Go template tests strings for emptiness)");
  return on;
}

void Mapper::set(bool platform, const std::string& pointer, nlohmann::json value, const std::string& source) {
  nlohmann::json& target = platform ? out_.platform : out_.group;
  target[nlohmann::json::json_pointer(pointer)] = std::move(value);
  out_.keys.push_back({platform, pointer, source});
}

std::int64_t Mapper::defaulted(const JsonNode& map, const std::string& key, std::int64_t fallback, std::int64_t min,
                               std::int64_t max, std::string_view what, const std::string& becomes) {
  const std::int64_t value = integer_or_default(map, key, fallback, min, max, what);
  const auto given = member(map, key);
  if (given && helm_empty(given->raw()) && file_sets(given->pointer()))
    note(dotted(given->pointer()) + " " + given->raw().dump() + " " + becomes);
  return value;
}

JsonNode Mapper::section(std::initializer_list<std::string_view> keys) const {
  if (auto node = find(keys)) {
    if (!node->raw().is_object()) node->fail(std::string("expected a map, got ") + node->raw().type_name());
    return *node;
  }
  std::string pointer;
  for (std::string_view key : keys)
    pointer.append(1, '/').append(key);               // (not "/" + key: GCC 12's -Wrestrict misfires)
  return JsonNode(empty_, pointer, in_.values_file);  // removed by a null in the file: nothing given
}

ValuesMapping Mapper::run() {
  if (!in_.merged.is_object()) root_.fail(std::string("expected a map of values, got ") + in_.merged.type_name());
  envoy_ = enabled({"envoy", "enabled"});
  keda_ = enabled({"keda", "enabled"});
  gate_ = envoy_ && enabled({"envoy", "rate_limiter", "prometheus_based", "enabled"});
  triton_and_keda();
  envoy();
  if (keda_ || gate_) {
    threshold();
    load_metric();
    scrape_interval();
  } else {
    for (const char* p : {"/serverLoadMetric", "/serverLoadThreshold", "/prometheus/enabled",
                          "/prometheus/external/enabled", "/prometheus/server/global/scrape_interval"})
      unused(p);
  }
  ignored_values();
  return std::move(out_);
}

void Mapper::triton_and_keda() {
  devices_key_ = in_.inline_group.contains("gpu") || in_.inline_group.contains("gpus_per_server")
                     ? "gpus_per_server"
                     : "devices_per_server";
  // spec.replicas: {{ .Values.triton.replicas | default 1 }} (0 renders as 1).
  const std::int64_t replicas = defaulted(section({"triton"}), "replicas", 1, 0, limits::kMaxServersPerGroup,
                                          "servers of a group", template_default("triton/deployment.yaml", 1));
  // resources: the pod's GPUs, one server of the group per pod. Kubernetes takes an extended
  // resource's limit as its request, and refuses a pod whose request differs from it.
  std::optional<JsonNode> gpus;
  for (const char* resource : {"nvidia.com/gpu", "amd.com/gpu"}) {
    const auto limit = find({"triton", "resources", "limits", resource});
    const auto request = find({"triton", "resources", "requests", resource});
    if (limit && request && limit->raw() != request->raw())
      request->fail("Kubernetes refuses a pod whose request of " + std::string(resource) + " differs from its limit (" +
                    limit->raw().dump() + ")");
    if (!gpus && (limit || request)) gpus = limit ? limit : request;
  }
  const std::int64_t devices = gpus ? rendered_integer(*gpus, 0, limits::kMaxGpusPerServer, "devices per server") : 0;
  const bool inline_devices =
      in_.inline_group.contains("devices_per_server") || in_.inline_group.contains("gpus_per_server");
  if (devices > 0 && !inline_devices)
    set(false, "/" + devices_key_, devices, gpus->pointer());
  else if (devices == 0 && !inline_devices)
    (gpus ? *gpus : section({"triton", "resources"}))
        .fail(
            "the Triton pods request no GPU (resources.limits.\"nvidia.com/gpu\" or \"amd.com/gpu\"): give the server "
            "group's devices_per_server in the scenario");

  if (!keda_) {
    if (!in_.inline_group.contains("count"))
      set(false, "/count", replicas, file_sets("/triton/replicas") ? "/triton/replicas" : "");
    unused("/keda");
    unused("/triton/readinessProbe");  // fixed servers are ready from the start
    unused("/triton/startupProbe");
    return;
  }
  const JsonNode keda = section({"keda"});
  if (!envoy_)
    find({"keda", "enabled"})
        ->fail(
            "KEDA scales Triton pods that Envoy finds by DNS, and envoy.enabled is false: "
            "sonicsim scales a group only behind its proxy");
  // minReplicaCount: {{ default 1 .Values.keda.minReplicaCount }}; maxReplicaCount: {{ default 14 ... }}.
  const std::int64_t min =
      integer_or_default(keda, "minReplicaCount", 1, 0, limits::kMaxServersPerGroup, "KEDA's minReplicaCount");
  const std::int64_t max = defaulted(keda, "maxReplicaCount", 14, 1, limits::kMaxServersPerGroup,
                                     "KEDA's maxReplicaCount", template_default("so.yaml", 14));
  if (min > max)
    find({"keda", "minReplicaCount"})
        ->fail("KEDA refuses a minReplicaCount above maxReplicaCount (" + std::to_string(max) + ")");
  if (file_sets("/keda/minReplicaCount") && find({"keda", "minReplicaCount"})->raw() == 0)
    note(
        "keda.minReplicaCount 0 renders as 1 (so.yaml: `default 1`, and Helm's default takes 0 for unset): "
        "keda.zeroIdleReplicas is the chart's way to scale to zero");
  // idleReplicaCount: 0 only if zeroIdleReplicas is true: KEDA then takes the deployment between 0
  // and 1 itself, which is sonicsim's min_replicas 0.
  const auto zero_idle = find({"keda", "zeroIdleReplicas"});
  const bool to_zero = zero_idle && zero_idle->raw() == true;
  set(false, "/autoscaling/min_replicas", to_zero ? 0 : min,
      to_zero ? "/keda/zeroIdleReplicas" : "/keda/minReplicaCount");
  set(false, "/autoscaling/max_replicas", max, "/keda/maxReplicaCount");
  // The Deployment starts with triton.replicas; the HPA brings it within its bounds (an error about
  // the count names the bound that set it).
  const std::int64_t low = to_zero ? 0 : min;
  set(false, "/autoscaling/initial_replicas", std::clamp<std::int64_t>(replicas, low, max),
      replicas < low   ? "/keda/minReplicaCount"
      : replicas > max ? "/keda/maxReplicaCount"
                       : "/triton/replicas");
  if (!in_.inline_group.contains("count")) {
    set(false, "/count", max, "/keda/maxReplicaCount");
    note("the group's GPU pool (count) is keda.maxReplicaCount, " + std::to_string(max) +
         ": a values file does not say how many GPUs the cluster has (set the group's count)");
  }
  set(false, "/autoscaling/metric_type", std::string(choice_name(kMetricTypes, MetricTarget::Value)), "");
  set(false, "/autoscaling/polling_interval", "30s", "");  // so.yaml: pollingInterval 30, cooldownPeriod 120
  set(false, "/autoscaling/cooldown", "120s", "");
  scaling_rules("scale_up", "scaleUp");
  scaling_rules("scale_down", "scaleDown");
  readiness();
  // preStop (triton/deployment.yaml): ["/bin/sh", "-c", "touch", "/tmp/shutdown;", "sleep 60"] gives
  // sh -c the script "touch" alone, which fails without an operand: Triton gets SIGTERM at once.
  set(false, "/autoscaling/prestop_sleep", "0s", "");
  if (!inline_has(false, "/autoscaling/prestop_sleep"))
    note(
        "the chart's preStop hook runs `sh -c touch` without its operand (the script and `sleep 60` are separate "
        "arguments in triton/deployment.yaml), so Triton gets SIGTERM at once: prestop_sleep 0s (set "
        "autoscaling.prestop_sleep \"60s\" for the hook as intended)");
  set(false, "/autoscaling/grace_period", "60s", "");  // terminationGracePeriodSeconds: 60, fixed
  if (!inline_has(false, "/autoscaling/startup"))
    note(
        "a pod's start-up time (image pull and model load) is not in a values file: sonicsim's default, 60s "
        "(set autoscaling.startup)");
}

// behavior.<direction> of the HPA (so.yaml): one Pods policy of `stepsize` pods per periodSeconds,
// and the stabilization window; `default` turns 0 into the template's 120 (window) or 30 (period).
void Mapper::scaling_rules(const char* direction, const char* key) {
  // {{- $scaleUp := .Values.keda.scaleUp | default dict }}: an empty value is an empty map.
  const std::string from = "/keda/" + std::string(key);
  const auto given = find({"keda", key});
  const JsonNode rules =
      given && truthy(given->raw()) ? section({"keda", key}) : JsonNode(empty_, from, in_.values_file);
  const std::int64_t window =
      defaulted(rules, "stabilizationWindowSeconds", 120, 0, 3600, "the HPA's bound on stabilizationWindowSeconds",
                template_default("so.yaml", 120));
  const std::int64_t period = defaulted(rules, "periodSeconds", 30, 1, 1800, "the HPA's bound on periodSeconds",
                                        template_default("so.yaml", 30));
  const std::int64_t step = defaulted(rules, "stepsize", 1, 1, limits::kMaxServersPerGroup * 100, "pods per period",
                                      template_default("so.yaml", 1));
  const std::string to = "/autoscaling/" + std::string(direction);
  set(false, to + "/stabilization_window", seconds_text(window), from + "/stabilizationWindowSeconds");
  set(false, to + "/select", std::string(choice_name(kPolicySelects, PolicySelect::Max)), "");
  set(false, to + "/policies/0/type", std::string(choice_name(kPolicyTypes, ScalingPolicyKind::Pods)), "");
  set(false, to + "/policies/0/value", step, from + "/stepsize");
  set(false, to + "/policies/0/period", seconds_text(period), from + "/periodSeconds");
}

// A pod is ready at the first readiness probe after Triton serves. Kubernetes runs the readiness
// probe once the startup probe has passed: with the chart's probes (startup every 10 s from 0,
// readiness every 10 s from 10 s) every readiness probe falls on a startup probe, and the readiness
// probe alone decides. reset: true drops a probe (triton/deployment.yaml); with no readiness probe
// the pod is ready when the startup probe passes.
void Mapper::readiness() {
  const auto probe = [&](const char* name) {
    const auto reset = find({"triton", name, "reset"});
    struct Probe {
      bool present;
      std::int64_t delay, period;
      std::string from;
    } p{!(reset && reset->raw() == true), 0, 10, "/triton/" + std::string(name)};
    if (p.present) {
      const JsonNode node = section({"triton", name});
      // An absent value renders empty, which Kubernetes defaults: initialDelaySeconds 0, periodSeconds 10.
      p.delay =
          integer_or_default(node, "initialDelaySeconds", 0, 0, static_cast<std::int64_t>(limits::kMaxDurationS), "");
      // Kubernetes defaults a probe's periodSeconds of 0 (pkg/apis/core/v1/defaults.go, SetDefaults_Probe).
      p.period = defaulted(node, "periodSeconds", 10, 1, static_cast<std::int64_t>(limits::kMaxDurationS), "",
                           "is 10 to Kubernetes (a probe's periodSeconds of 0 takes the default)");
    }
    return p;
  };
  const auto ready = probe("readinessProbe");
  const auto startup = probe("startupProbe");
  const auto& used = ready.present ? ready : startup;
  if (ready.present || startup.present) {
    set(false, "/autoscaling/readiness/initial_delay", seconds_text(used.delay), used.from + "/initialDelaySeconds");
    set(false, "/autoscaling/readiness/period", seconds_text(used.period), used.from + "/periodSeconds");
  } else {
    set(false, "/autoscaling/readiness/initial_delay", "0s", "/triton/readinessProbe/reset");
    set(false, "/autoscaling/readiness/period", "1s", "/triton/readinessProbe/reset");
    note(
        "both probes are reset: Kubernetes would take a pod as ready when its container starts, before Triton "
        "serves; sonicsim makes it ready when Triton serves (readiness every 1s)");
  }
  if (ready.present && startup.present &&
      !(ready.delay >= startup.delay && (ready.delay - startup.delay) % startup.period == 0 &&
        ready.period % startup.period == 0))
    note(printf_string(
        "the readiness probe (from %llds every %llds) does not fall on the startup probe (from %llds every %llds): "
        "a pod may be ready up to one startup period later than sonicsim says",
        static_cast<long long>(ready.delay), static_cast<long long>(ready.period),
        static_cast<long long>(startup.delay), static_cast<long long>(startup.period)));
}

ValuesMapping map_values(const ValuesInput& input) { return Mapper(input).run(); }

}  // namespace sonicsim::supersonic
