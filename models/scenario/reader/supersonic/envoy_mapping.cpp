// Envoy (helm/supersonic/templates/envoy/configmaps.yaml and deployment.yaml at e5788010), the load
// metric and its threshold (templates/_helpers/_scaling-metric.tpl, keda/so.yaml, cfg/envoy-filter.lua)
// and Prometheus's scrape interval (templates/monitoring/prometheus-configmap.yaml).
#include <algorithm>
#include <cmath>

#include "models/io/limits.hpp"
#include "models/scenario/reader/platform/platform_choices.hpp"
#include "models/scenario/reader/supersonic/mapper.hpp"
#include "models/scenario/reader/supersonic/values_fields.hpp"

namespace sonicsim::supersonic {
namespace {

// envoy.loadBalancerPolicy, the lb_policy of the cluster triton_grpc_service, among the options
// the chart's values.yaml lists. RING_HASH and MAGLEV hash each request, and the route has no
// hash policy, so Envoy hashes a random number (thread_aware_lb_impl.cc): a random host.
constexpr Choice<LoadBalancing> kEnvoyPolicies[]{
    {"ROUND_ROBIN", LoadBalancing::RoundRobin}, {"LEAST_REQUEST", LoadBalancing::LeastRequest},
    {"RING_HASH", LoadBalancing::Random},       {"RANDOM", LoadBalancing::Random},
    {"MAGLEV", LoadBalancing::Random},
};

std::string number_text(double x) {
  std::string text = nlohmann::json(x).dump();
  return text.size() > 2 && text.substr(text.size() - 2) == ".0" ? text.substr(0, text.size() - 2) : text;
}

}  // namespace

void Mapper::envoy() {
  if (!envoy_) {
    unused("/envoy");
    note(
        "envoy.enabled is false: the jobs reach the Triton pods through their headless Service, without a proxy "
        "(/platform/load_balancing from the scenario; its default per_job is one address per job)");
    return;
  }
  const JsonNode envoy = section({"envoy"});
  // replicas: {{ .Values.envoy.replicas | default 1 }} (envoy/deployment.yaml).
  const std::int64_t replicas =
      defaulted(envoy, "replicas", 1, 0, 1'000'000, "Envoy pods", template_default("envoy/deployment.yaml", 1));
  if (replicas > 1)
    note("envoy.replicas is " + std::to_string(replicas) +
         ": sonicsim simulates one Envoy, which sees every request "
         "(each of several Envoys would balance on its own counts)");
  // lb_policy: {{ .envoy.loadBalancerPolicy }} (configmaps.yaml, cluster triton_grpc_service).
  const auto policy_node = find({"envoy", "loadBalancerPolicy"});
  if (!policy_node) {  // rendered empty: the cluster keeps Envoy's default lb_policy, ROUND_ROBIN
    set(true, "/load_balancing", std::string(choice_name(kLoadBalancing, LoadBalancing::RoundRobin)), "");
    note("envoy.loadBalancerPolicy is null: the cluster gets Envoy's default, ROUND_ROBIN");
  }
  const std::string policy_name = policy_node ? policy_node->string() : "";
  if (policy_node)
    set(true, "/load_balancing",
        std::string(choice_name(kLoadBalancing,
                                policy_node->choice(kEnvoyPolicies, "Envoy's lb_policy, as the chart lists them"))),
        policy_node->pointer());
  if (policy_name == "RING_HASH" || policy_name == "MAGLEV")
    note("envoy.loadBalancerPolicy " + policy_name +
         ": the route sets no hash policy, so Envoy hashes a random "
         "number and picks a random host; simulated as random (the hash ring's unequal shares are not)");
  // The chart sets no dns_refresh_rate (Envoy's 5 s) and a connect_timeout of 0.25 s for Triton.
  set(true, "/proxy/dns_refresh", "5s", "");
  set(true, "/proxy/connect_timeout", "0.25s", "");
  // resources.limits.cpu: the CPU time Envoy's worker threads get at once (a CFS quota).
  if (const auto cpu = find({"envoy", "resources", "limits", "cpu"})) {
    const double cores = cpu_quantity(*cpu);
    const int threads = static_cast<int>(std::clamp(std::floor(cores), 1.0, double(limits::kMaxFrontendThreads)));
    set(true, "/proxy/threads", threads, cpu->pointer());
    const std::string given = "envoy.resources.limits.cpu " + number_text(cores);
    if (cores < 1)
      note(given + " is less than a core: simulated as one thread");
    else if (cores > limits::kMaxFrontendThreads)
      note(given + " is more than the " + std::to_string(limits::kMaxFrontendThreads) +
           " threads sonicsim's proxy may have: simulated as " + std::to_string(threads));
    else if (cores != threads)
      note(given + " is simulated as " + std::to_string(threads) + " threads (a whole number of Envoy worker threads)");
  } else {
    note(
        "envoy.resources.limits.cpu is not set: Envoy may use every core of its node, which the values do not say "
        "(platform.proxy.threads from the scenario)");
  }
  // route timeout: {{ .envoy.grpc_route_timeout }}; 0s disables it, as sonicsim's proxy has none.
  if (const auto timeout = find({"envoy", "grpc_route_timeout"})) {
    const double s = envoy_duration_s(*timeout);
    if (s > 0)
      note("envoy.grpc_route_timeout " + timeout->string() +
           " is not simulated: Envoy answers UNAVAILABLE to a request "
           "not answered within it of reaching the proxy, and sonicsim's proxy waits for every answer");
  } else {
    note(
        "envoy.grpc_route_timeout is null: the route renders without a timeout and Envoy's default of 15s applies, "
        "which sonicsim does not simulate");
  }
  // The listener's local rate limit: a token bucket on new connections.
  if (enabled({"envoy", "rate_limiter", "listener_level", "enabled"})) {
    const JsonNode bucket = section({"envoy", "rate_limiter", "listener_level"});
    const auto required = [&](const char* key) {
      const auto node = member(bucket, key);
      if (!node) bucket.fail(std::string("expected \"") + key + "\": Envoy's token bucket requires it");
      return *node;
    };
    const JsonNode tokens = required("max_tokens");
    set(true, "/proxy/connection_limit/max_tokens", rendered_integer(tokens, 1, 1'000'000'000, "Envoy's max_tokens"),
        tokens.pointer());
    if (const auto fill = member(bucket, "tokens_per_fill"))  // absent: Envoy's default, 1
      set(true, "/proxy/connection_limit/tokens_per_fill",
          rendered_integer(*fill, 1, 1'000'000'000, "Envoy's tokens_per_fill"), fill->pointer());
    const JsonNode interval = required("fill_interval");
    const double s = envoy_duration_s(interval);
    if (s < 0.05) interval.fail("expected at least 50ms (Envoy's bound on a token bucket's fill_interval)");
    set(true, "/proxy/connection_limit/fill_interval", duration_text(s), interval.pointer());
  } else {
    unused("/envoy/rate_limiter/listener_level");
  }
  if (gate_) {
    const auto lua = find({"envoy", "rate_limiter", "prometheus_based", "luaConfig"});
    if (lua && (!lua->raw().is_string() || lua->raw() != "cfg/envoy-filter.lua"))
      note(
          "envoy.rate_limiter.prometheus_based.luaConfig names another file than the chart's cfg/envoy-filter.lua: "
          "sonicsim simulates the chart's filter");
  } else {
    unused("/envoy/rate_limiter/prometheus_based");
  }
  if (enabled({"envoy", "external_config", "load_from_configmap"}))
    note(
        "envoy.external_config.load_from_configmap: Envoy's configuration comes from a ConfigMap sonicsim cannot "
        "read; the proxy keeps the settings the chart would generate (set /platform/proxy and load_balancing to "
        "yours)");
}

// serverLoadThreshold: the trigger's threshold (so.yaml, `| quote`) and the Lua gate's (tonumber).
void Mapper::threshold() {
  const auto node = find({"serverLoadThreshold"});
  if (!node)
    root_.fail(
        "expected \"serverLoadThreshold\": KEDA's trigger and the saturation gate compare the load metric to it");
  const double t = number_or_numeric_string(*node);
  if (!(t >= 0 && t <= 1e12)) node->fail("expected a threshold from 0 to 1e12, got " + node->raw().dump());
  if (keda_ && !(t > 0)) node->fail("expected a positive threshold (KEDA's trigger divides the metric by it)");
  const nlohmann::json value =
      std::floor(t) == t && t < 1e15 ? nlohmann::json(static_cast<std::int64_t>(t)) : nlohmann::json(t);
  if (keda_) set(false, "/autoscaling/threshold", value, node->pointer());
  if (gate_) set(true, "/proxy/saturation_gate/threshold", value, node->pointer());
}

// serverLoadMetric: the query of KEDA's trigger and of the Lua gate, "" for the chart's default.
void Mapper::load_metric() {
  const auto node = find({"serverLoadMetric"});
  const std::string query = node ? node->string() : "";
  const auto known = recognise_load_metric(query);
  if (!known) {
    std::vector<std::string> missing;
    if (keda_ && !(inline_has(false, "/autoscaling/metric") && inline_has(false, "/autoscaling/metric_window")))
      missing.push_back(in_.group_pointer + "/autoscaling/metric and metric_window");
    if (gate_ &&
        !(inline_has(true, "/proxy/saturation_gate/metric") && inline_has(true, "/proxy/saturation_gate/window")))
      missing.push_back("/platform/proxy/saturation_gate/metric and window");
    std::string keys;
    for (const std::string& m : missing) keys += (keys.empty() ? "" : ", and ") + m;
    if (!missing.empty())
      node->fail(
          "a PromQL query sonicsim cannot evaluate: it knows the chart's default (\"\") and the per-series sum "
          "of values-geddes-cms.yaml (scenarios/README.md); give the scenario's " +
          keys + " to simulate one of its metrics instead");
    note("serverLoadMetric is a query sonicsim cannot evaluate: the scenario's metric and window stand for it");
    return;
  }
  const std::string name(choice_name(kScalingMetrics, known->metric));
  const std::string source = node ? node->pointer() : "";
  if (keda_) {
    set(false, "/autoscaling/metric", name, source);
    set(false, "/autoscaling/metric_window", duration_text(known->window_s), source);
  }
  if (gate_) {
    set(true, "/proxy/saturation_gate/metric", name, source);
    set(true, "/proxy/saturation_gate/window", duration_text(known->window_s), source);
  }
  if (known->metric == ScalingMetric::SupersonicLoadSummed)
    note(
        "serverLoadMetric divides per pod and then sums (sum by (release) (rate(queue) / (rate(exec) * 1000 + "
        "0.001))), "
        "not the chart's ratio of sums: simulated as " +
        name + ", which n equally loaded pods make n times larger");
}

// The gate and the trigger read what Prometheus scraped; the chart's own Prometheus scrapes every
// prometheus.server.global.scrape_interval.
void Mapper::scrape_interval() {
  const std::string fallback = inline_has(true, "/scrape_interval")
                                   ? "the scenario's platform.scrape_interval"
                                   : "sonicsim's default of 5s (platform.scrape_interval)";
  if (enabled({"prometheus", "external", "enabled"})) {
    note(
        "the metric comes from an external Prometheus (prometheus.external) whose scrape interval is not in the "
        "values: " +
        fallback);
  } else if (enabled({"prometheus", "enabled"})) {
    if (const auto interval = find({"prometheus", "server", "global", "scrape_interval"})) {
      const double s = prometheus_duration_s(*interval);
      if (!(s > 0)) interval->fail("expected a positive scrape interval");
      set(true, "/scrape_interval", duration_text(s), interval->pointer());
    } else {
      set(true, "/scrape_interval", "60s", "");
      note("prometheus.server.global.scrape_interval is null: Prometheus scrapes at its default, every 1m");
    }
  } else {
    note(
        "neither the chart's Prometheus (prometheus.enabled) nor an external one: the chart looks for one in the "
        "namespace, whose scrape interval is not in the values: " +
        fallback);
  }
}

}  // namespace sonicsim::supersonic
