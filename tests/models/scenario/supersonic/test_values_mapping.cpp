// Each key of a SuperSONIC values file that gives a scenario key, against what the chart's
// templates at e5788010 render from it (helm/supersonic/templates/..., named beside each case), and
// Helm's merge of a file over the chart's defaults (helm/pkg/chartutil/coalesce.go).
#include <doctest/doctest.h>

#include <string>

#include "models/io/yaml/yaml_reader.hpp"
#include "models/scenario/reader/supersonic/chart_values.hpp"
#include "models/scenario/reader/supersonic/helm_values.hpp"
#include "models/scenario/reader/supersonic/values_mapping.hpp"
#include "tests/support/input_failure.hpp"

using namespace sonicsim;
using namespace sonicsim::supersonic;
using nlohmann::json;

namespace {

const json kGroup = {{"gpu", "T4"}};
const json kPlatform = json::object();

// The mapping of a values file written as YAML, for a group and platform that give nothing else.
ValuesMapping mapping_of(const std::string& yaml, const json& group = kGroup, const json& platform = kPlatform) {
  json file = parse_yaml_text(yaml, "v.yaml");
  if (file.is_null()) file = json::object();
  const json merged = coalesce_values(file, chart_defaults());
  return map_values({merged, file, "v.yaml", group, platform, "/platform/servers/0"});
}

test::Failure mapping_refusal(const std::string& yaml, const json& group = kGroup, const json& platform = kPlatform) {
  return test::failure_of([&] { mapping_of(yaml, group, platform); });
}

bool mapping_noted(const ValuesMapping& m, const std::string& text) {
  for (const std::string& note : m.notes)
    if (note.find(text) != std::string::npos) return true;
  return false;
}

const std::string kGpu = "triton:\n  resources:\n    limits: {nvidia.com/gpu: 1}\n";
const std::string kKedaOnly = "keda:\n  enabled: true\n";
const std::string kKeda = kGpu + kKedaOnly;

}  // namespace

TEST_CASE("Helm's coalescing: maps merge, the file's lists and scalars replace, a null removes the default") {
  const json file = {{"a", {{"b", 1}}}, {"l", {3}}, {"n", nullptr}, {"m", 5}, {"new", nullptr}};
  const json defaults = {{"a", {{"b", 0}, {"c", 2}}}, {"l", {1, 2}}, {"n", 1}, {"m", {{"x", 1}}}, {"d", 4}};
  CHECK(coalesce_values(file, defaults) ==
        json{{"a", {{"b", 1}, {"c", 2}}}, {"l", {3}}, {"m", 5}, {"d", 4}, {"new", nullptr}});
  // Through a values file: one list entry replaces the chart's three ports; the rest of the map stays.
  const json merged = coalesce_values(
      parse_yaml_text("triton:\n  service:\n    ports: [{name: grpc, port: 8001}]\n", "v.yaml"), chart_defaults());
  CHECK(merged["triton"]["service"]["ports"].size() == 1);
  CHECK(merged["triton"]["service"]["labels"] == json::object());
  CHECK(merged["triton"]["replicas"] == 1);
  // The scenario's keys over the file's: objects merge, arrays replace, null stays to mean "not given".
  CHECK(merge_over(json{{"p", {{"a", 1}, {"b", {1, 2}}}}}, json{{"p", {{"b", {3}}, {"c", nullptr}}}}) ==
        json{{"p", {{"a", 1}, {"b", {3}}, {"c", nullptr}}}});
}

TEST_CASE(
    "where the file is silent the chart's defaults apply: one replica, LEAST_REQUEST, Envoy's 8 CPUs, no KEDA, no "
    "gate") {
  const ValuesMapping m = mapping_of(kGpu);
  CHECK(m.group == json{{"count", 1}, {"gpus_per_server", 1}});  // triton.replicas 1 (deployment.yaml)
  CHECK(m.platform["load_balancing"] == "least_request");        // envoy.loadBalancerPolicy (configmaps.yaml)
  CHECK(m.platform["proxy"] == json{{"threads", 8}, {"dns_refresh", "5s"}, {"connect_timeout", "0.25s"}});
  CHECK_FALSE(m.platform.contains("scrape_interval"));  // nothing scrapes without KEDA or the gate
  CHECK(mapping_noted(m, "the pods serve the scenario's models"));
  // The file's own values over the defaults, a map at a time: keda.scaleUp keeps the chart's window.
  const ValuesMapping k = mapping_of(kKeda + "  scaleUp: {periodSeconds: 15}\n");
  CHECK(k.group["autoscaling"]["scale_up"] ==
        json{{"stabilization_window", "60s"},
             {"select", "max"},
             {"policies", {{{"type", "pods"}, {"value", 1}, {"period", "15s"}}}}});
  CHECK(k.group["autoscaling"]["scale_down"]["stabilization_window"] == "600s");
  CHECK(k.group["autoscaling"]["scale_down"]["policies"][0]["period"] == "120s");
}

TEST_CASE("triton: replicas and GPUs (templates/triton/deployment.yaml)") {
  CHECK(mapping_of(kGpu + "  replicas: 5\n").group["count"] == 5);
  CHECK(mapping_of(kGpu + "  replicas: 0\n").group["count"] == 1);  // `| default 1`: 0 renders as 1
  CHECK(mapping_of("triton:\n  resources:\n    requests: {nvidia.com/gpu: \"2\"}\n").group["gpus_per_server"] == 2);
  CHECK(mapping_of(kGpu, json{{"device", "U250"}}).group["devices_per_server"] == 1);  // the group's naming
  CHECK_FALSE(mapping_of("", json{{"gpu", "T4"}, {"gpus_per_server", 4}}).group.contains("gpus_per_server"));
  const test::Failure none = mapping_refusal("");
  CHECK(none.where == "/triton/resources");
  CHECK(none.message.find("devices_per_server") != std::string::npos);
  CHECK(mapping_refusal("triton:\n  resources:\n    limits: {nvidia.com/gpu: 1}\n    requests: {nvidia.com/gpu: 2}\n")
            .where == "/triton/resources/requests/nvidia.com~1gpu");
  CHECK(mapping_refusal(kGpu + "  replicas: many\n").where == "/triton/replicas");
  CHECK(mapping_refusal(kGpu + "  replicas: -2\n").where == "/triton/replicas");
}

TEST_CASE("keda: the ScaledObject's bounds, trigger and behaviour (templates/keda/so.yaml)") {
  const json a = mapping_of(kKeda +
                            "  minReplicaCount: 2\n  maxReplicaCount: 7\n"
                            "  scaleUp: {stabilizationWindowSeconds: 30, periodSeconds: 15, stepsize: 2}\n"
                            "  scaleDown: {stabilizationWindowSeconds: 45, periodSeconds: 45, stepsize: 1}\n")
                     .group["autoscaling"];
  CHECK(a["min_replicas"] == 2);
  CHECK(a["max_replicas"] == 7);
  CHECK(a["initial_replicas"] == 2);  // triton.replicas 1, brought up to the minimum by the HPA
  CHECK(a["metric_type"] == "Value");
  CHECK(a["threshold"] == 100);           // serverLoadThreshold's default
  CHECK(a["polling_interval"] == "30s");  // fixed in so.yaml
  CHECK(a["cooldown"] == "120s");
  CHECK(a["scale_up"]["stabilization_window"] == "30s");
  CHECK(a["scale_up"]["policies"][0] == json{{"type", "pods"}, {"value", 2}, {"period", "15s"}});
  CHECK(a["scale_down"]["stabilization_window"] == "45s");
  CHECK(a["scale_down"]["policies"][0] == json{{"type", "pods"}, {"value", 1}, {"period", "45s"}});
  CHECK(a["grace_period"] == "60s");  // terminationGracePeriodSeconds: 60 (deployment.yaml)
  CHECK(a["prestop_sleep"] == "0s");  // the preStop hook as written at HEAD: SIGTERM at once
  CHECK(mapping_of(kKeda + "  maxReplicaCount: 7\n").group["count"] == 7);  // the GPU pool
  // `default` takes 0 for unset: a window of 0 renders as 120, a minimum of 0 as 1.
  const ValuesMapping zero = mapping_of(kKeda + "  minReplicaCount: 0\n  scaleDown: {stabilizationWindowSeconds: 0}\n");
  CHECK(zero.group["autoscaling"]["min_replicas"] == 1);
  CHECK(zero.group["autoscaling"]["scale_down"]["stabilization_window"] == "120s");
  CHECK(mapping_noted(zero, "keda.minReplicaCount 0 renders as 1"));
  CHECK(mapping_noted(zero, "keda.scaleDown.stabilizationWindowSeconds 0 renders as 120"));
  // zeroIdleReplicas: idleReplicaCount 0, KEDA between 0 and 1.
  CHECK(mapping_of(kKeda + "  zeroIdleReplicas: true\n").group["autoscaling"]["min_replicas"] == 0);
  // Helm's `if` takes any non-empty string as true.
  const ValuesMapping quoted = mapping_of(kGpu + "keda:\n  enabled: \"false\"\n");
  CHECK(quoted.group.contains("autoscaling"));
  CHECK(mapping_noted(quoted, "keda.enabled is the string \"false\""));
  CHECK(mapping_refusal(kKeda + "  minReplicaCount: 5\n  maxReplicaCount: 3\n").where == "/keda/minReplicaCount");
  CHECK(mapping_refusal(kKeda + "  scaleUp: {periodSeconds: 3600}\n").where == "/keda/scaleUp/periodSeconds");
  CHECK(mapping_refusal(kKeda + "  maxReplicaCount: eleven\n").where == "/keda/maxReplicaCount");
  CHECK(mapping_refusal(kKeda + "envoy: {enabled: false}\n").where == "/keda/enabled");
}

TEST_CASE("probes: the readiness probe's grid, or the startup probe's when readiness is reset (deployment.yaml)") {
  const json chart = mapping_of(kKeda).group["autoscaling"]["readiness"];
  CHECK(chart == json{{"initial_delay", "10s"}, {"period", "10s"}});
  const ValuesMapping icecube =
      mapping_of(kKedaOnly +
                 "triton:\n  readinessProbe: {initialDelaySeconds: 250, periodSeconds: 30}\n"
                 "  startupProbe: {initialDelaySeconds: 240}\n  resources: {limits: {nvidia.com/gpu: 1}}\n");
  CHECK(icecube.group["autoscaling"]["readiness"] == json{{"initial_delay", "250s"}, {"period", "30s"}});
  CHECK_FALSE(mapping_noted(icecube, "does not fall on the startup probe"));  // 250 + 30k = 240 + 10(1 + 3k)
  CHECK(mapping_noted(
      mapping_of(kKedaOnly +
                 "triton:\n  readinessProbe: {initialDelaySeconds: 5}\n  resources: {limits: {nvidia.com/gpu: 1}}\n"),
      "does not fall on the startup probe"));
  const json reset =
      mapping_of(kKedaOnly + "triton:\n  readinessProbe: {reset: true}\n  resources: {limits: {nvidia.com/gpu: 1}}\n")
          .group["autoscaling"]["readiness"];
  CHECK(reset == json{{"initial_delay", "0s"}, {"period", "10s"}});  // the startup probe's
  const ValuesMapping both = mapping_of(kKedaOnly +
                                        "triton:\n  readinessProbe: {reset: true}\n  startupProbe: {reset: true}\n"
                                        "  resources: {limits: {nvidia.com/gpu: 1}}\n");
  CHECK(both.group["autoscaling"]["readiness"] == json{{"initial_delay", "0s"}, {"period", "1s"}});
  CHECK(mapping_noted(both, "both probes are reset"));
}

TEST_CASE("envoy: balancing, CPUs, rate limiters and timeouts (templates/envoy/configmaps.yaml, deployment.yaml)") {
  CHECK(mapping_of(kGpu + "envoy: {loadBalancerPolicy: ROUND_ROBIN}\n").platform["load_balancing"] == "round_robin");
  CHECK(mapping_of(kGpu + "envoy: {loadBalancerPolicy: RANDOM}\n").platform["load_balancing"] == "random");
  const ValuesMapping ring = mapping_of(kGpu + "envoy: {loadBalancerPolicy: RING_HASH}\n");
  CHECK(ring.platform["load_balancing"] == "random");
  CHECK(mapping_noted(ring, "RING_HASH: the route sets no hash policy"));
  const test::Failure unknown = mapping_refusal(kGpu + "envoy: {loadBalancerPolicy: FASTEST}\n");
  CHECK(unknown.where == "/envoy/loadBalancerPolicy");
  CHECK(unknown.message.find("\"ROUND_ROBIN\", \"LEAST_REQUEST\", \"RING_HASH\", \"RANDOM\" or \"MAGLEV\"") !=
        std::string::npos);
  CHECK(mapping_of(kGpu + "envoy: {resources: {limits: {cpu: \"500m\"}}}\n").platform["proxy"]["threads"] == 1);
  CHECK(mapping_of(kGpu + "envoy: {resources: {limits: {cpu: 16}}}\n").platform["proxy"]["threads"] == 16);
  CHECK(mapping_noted(mapping_of(kGpu + "envoy: {grpc_route_timeout: 5s}\n"),
                      "envoy.grpc_route_timeout 5s is not simulated"));
  CHECK_FALSE(mapping_noted(mapping_of(kGpu), "grpc_route_timeout"));  // 0s: no route timeout, as simulated
  CHECK(mapping_refusal(kGpu + "envoy: {grpc_route_timeout: 5m}\n").where == "/envoy/grpc_route_timeout");
  const json bucket = mapping_of(kGpu + "envoy: {rate_limiter: {listener_level: {enabled: true}}}\n")
                          .platform["proxy"]["connection_limit"];
  CHECK(bucket == json{{"max_tokens", 5}, {"tokens_per_fill", 1}, {"fill_interval", "12s"}});
  CHECK(
      mapping_refusal(kGpu + "envoy: {rate_limiter: {listener_level: {enabled: true, fill_interval: 10ms}}}\n").where ==
      "/envoy/rate_limiter/listener_level/fill_interval");
  const json gate =
      mapping_of(kGpu + "serverLoadThreshold: \"20\"\nenvoy: {rate_limiter: {prometheus_based: {enabled: true}}}\n")
          .platform["proxy"]["saturation_gate"];
  CHECK(gate == json{{"threshold", 20}, {"window", "30s"}, {"metric", "supersonic_load"}});
  const ValuesMapping direct = mapping_of(kGpu + "envoy: {enabled: false}\n");
  CHECK_FALSE(direct.platform.contains("proxy"));
  CHECK_FALSE(direct.platform.contains("load_balancing"));
}

TEST_CASE("serverLoadMetric: the chart's default or Geddes's per-series sum, with its window (_scaling-metric.tpl)") {
  const std::string gate = kKeda + "envoy: {rate_limiter: {prometheus_based: {enabled: true}}}\n";
  const ValuesMapping geddes = mapping_of(
      gate +
      "serverLoadMetric: 'sum by (release) (rate(nv_inference_queue_duration_us{release=~\"sonic-server\"}[30s]) / "
      "(rate(nv_inference_exec_count{release=~\"sonic-server\"}[30s]) * 1000 + 0.001))'\n");
  CHECK(geddes.group["autoscaling"]["metric"] == "supersonic_load_summed");
  CHECK(geddes.platform["proxy"]["saturation_gate"]["metric"] == "supersonic_load_summed");
  CHECK(mapping_noted(geddes, "divides per pod and then sums"));
  const ValuesMapping written = mapping_of(
      gate +
      "serverLoadMetric: |\n  sum by (release) (\n    rate(nv_inference_queue_duration_us{release=~\"x\"}[1m])\n  )\n"
      "  /\n  sum by (release) (\n    (rate(nv_inference_exec_count{release=~\"x\"}[1m]) * 1000) + 0.001\n  )\n");
  CHECK(written.group["autoscaling"]["metric"] == "supersonic_load");
  CHECK(written.group["autoscaling"]["metric_window"] == "60s");
  CHECK(written.platform["proxy"]["saturation_gate"]["window"] == "60s");
  const std::string custom = gate + "serverLoadMetric: 'avg(nv_gpu_utilization)'\n";
  const test::Failure f = mapping_refusal(custom);
  CHECK(f.where == "/serverLoadMetric");
  CHECK(f.message.find("/platform/servers/0/autoscaling/metric and metric_window") != std::string::npos);
  CHECK(f.message.find("/platform/proxy/saturation_gate/metric and window") != std::string::npos);
  // The scenario's metric stands for a query sonicsim cannot evaluate.
  const json group = {{"gpu", "T4"}, {"autoscaling", {{"metric", "gpu_utilization"}, {"metric_window", "1m"}}}};
  const json platform = {{"proxy", {{"saturation_gate", {{"metric", "gpu_utilization"}, {"window", "1m"}}}}}};
  CHECK(mapping_noted(mapping_of(custom, group, platform), "the scenario's metric and window stand for it"));
  CHECK(mapping_refusal(kKeda + "serverLoadThreshold: 0\n").where == "/serverLoadThreshold");
  CHECK(mapping_refusal(kKeda + "serverLoadThreshold: lots\n").where == "/serverLoadThreshold");
}

TEST_CASE("prometheus: the chart's own scrapes at its global scrape_interval; an external one is noted") {
  const std::string keda = kKeda + "prometheus:\n";
  CHECK(mapping_of(keda + "  enabled: true\n").platform["scrape_interval"] == "5s");
  CHECK(mapping_of(keda + "  enabled: true\n  server: {global: {scrape_interval: 1m30s}}\n")
            .platform["scrape_interval"] == "90s");
  const ValuesMapping external = mapping_of(keda + "  external: {enabled: true, url: p.example.org}\n");
  CHECK_FALSE(external.platform.contains("scrape_interval"));
  CHECK(mapping_noted(external, "an external Prometheus"));
  CHECK(mapping_refusal(keda + "  enabled: true\n  server: {global: {scrape_interval: 5 seconds}}\n").where ==
        "/prometheus/server/global/scrape_interval");
}

TEST_CASE(
    "a value the templates or Kubernetes replace (0 for unset, more CPUs than threads) is never replaced quietly") {
  // Each is the template's `default D` at e5788010 (sprig takes 0, "" and false for unset) or
  // Kubernetes's SetDefaults_Probe (a periodSeconds of 0 is 10); the note says what it becomes.
  const ValuesMapping triton = mapping_of(kGpu + "  replicas: 0\n");
  CHECK(triton.group["count"] == 1);
  CHECK(mapping_noted(triton, "triton.replicas 0 renders as 1 (triton/deployment.yaml: `default 1`"));
  const ValuesMapping keda =
      mapping_of(kKeda +
                 "  maxReplicaCount: 0\n"
                 "  scaleUp: {periodSeconds: 0, stepsize: 0}\n  scaleDown: {periodSeconds: \"\", stepsize: false}\n");
  const json& a = keda.group["autoscaling"];
  CHECK(a["max_replicas"] == 14);
  CHECK(a["scale_up"]["policies"][0] == json{{"type", "pods"}, {"value", 1}, {"period", "30s"}});
  CHECK(a["scale_down"]["policies"][0] == json{{"type", "pods"}, {"value", 1}, {"period", "30s"}});
  for (const char* text :
       {"keda.maxReplicaCount 0 renders as 14 (so.yaml: `default 14`",
        "keda.scaleUp.periodSeconds 0 renders as 30 (so.yaml: `default 30`",
        "keda.scaleUp.stepsize 0 renders as 1 (so.yaml: `default 1`", "keda.scaleDown.periodSeconds \"\" renders as 30",
        "keda.scaleDown.stepsize false renders as 1"})
    CHECK_MESSAGE(mapping_noted(keda, text), std::string(text));
  const ValuesMapping probes =
      mapping_of(kKedaOnly +
                 "triton:\n  readinessProbe: {periodSeconds: 0}\n  startupProbe: {periodSeconds: 0}\n"
                 "  resources: {limits: {nvidia.com/gpu: 1}}\n");
  CHECK(probes.group["autoscaling"]["readiness"]["period"] == "10s");
  CHECK(mapping_noted(probes, "triton.readinessProbe.periodSeconds 0 is 10 to Kubernetes"));
  CHECK(mapping_noted(probes, "triton.startupProbe.periodSeconds 0 is 10 to Kubernetes"));
  const ValuesMapping envoy = mapping_of(kGpu + "envoy: {replicas: 0, resources: {limits: {cpu: 1e9}}}\n");
  CHECK(envoy.platform["proxy"]["threads"] == 1024);
  CHECK(mapping_noted(envoy, "envoy.replicas 0 renders as 1 (envoy/deployment.yaml: `default 1`"));
  CHECK(mapping_noted(envoy,
                      "envoy.resources.limits.cpu 1000000000 is more than the 1024 threads sonicsim's proxy may have: "
                      "simulated as 1024"));
  const ValuesMapping fraction = mapping_of(kGpu + "envoy: {resources: {limits: {cpu: 2.5}}}\n");
  CHECK(fraction.platform["proxy"]["threads"] == 2);
  CHECK(mapping_noted(fraction, "envoy.resources.limits.cpu 2.5 is simulated as 2 threads"));
  // What the file sets to a value of its own, and what it leaves to the chart, is not noted.
  const ValuesMapping plain =
      mapping_of(kKeda + "  replicas: 2\n  maxReplicaCount: 3\nenvoy: {resources: {limits: {cpu: 4}}}\n");
  for (const char* text : {"renders as", "to Kubernetes", "is more than", "is simulated as"})
    CHECK_FALSE(mapping_noted(plain, text));
}

TEST_CASE("what the file sets and the simulation leaves out is listed, one line per kind") {
  const ValuesMapping m = mapping_of(kGpu +
                                     "  image: tritonserver\n  name: mine\ngrafana: {enabled: true}\n"
                                     "envoy:\n  ingress: {enabled: true, hosts: [a.example.org]}\n"
                                     "keda: {maxReplicaCount: 5, maxReplicas: 6}\n");
  // (in the order of the keys, as the merged values keep them)
  CHECK(mapping_noted(m, "ignored, not simulated: envoy.ingress.enabled, grafana, triton.image"));
  CHECK(
      mapping_noted(m,
                    "not read by the chart's templates at e578801 (Helm would keep them unused): envoy.ingress.hosts, "
                    "keda.maxReplicas, triton.name"));
  CHECK(mapping_noted(m, "unused, their feature is off in this file: keda.maxReplicaCount"));
}
