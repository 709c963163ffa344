// Each site values file of SuperSONIC at e5788010 (copies in tests/data/ and data/supersonic/), named by a
// scenario's server group, read into the scenario sonicsim simulates; the settings each case checks
// are those docs/reference/supersonic.md §1.8 documents for the site, and what the chart's values.yaml
// gives where the site's file is silent (§1.2, §1.3, §1.6). Also: the scenario's own keys override
// the file's, and an error in a value the file gave names the file and the value's key.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "models/scenario/reader/scenario_reader.hpp"
#include "tests/support/input_failure.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

const std::string kSites = std::string(SONICSIM_TEST_DATA_DIR) + "/supersonic/";
// The one site file a bundled scenario reads (scenarios/cms-t2-geddes-values.json) is product data.
const std::string kProductSites =
    std::filesystem::path(SONICSIM_SCENARIOS_DIR).parent_path().string() + "/data/supersonic/";

std::string site_path(const std::string& file) {
  return (file == "values-geddes-cms.yaml" ? kProductSites : kSites) + file;
}

// base_scenario() with its server group naming `file` and an Envoy NIC for the proxy the file may
// enable; `group` and `platform` add the scenario's own keys.
json naming(const std::string& file, const json& group = json::object(), const json& platform = json::object()) {
  json d = test::base_scenario();
  json& g = d["platform"]["servers"][0];
  g.erase("count");
  g.erase("gpus_per_server");
  g["supersonic_values"] = site_path(file);
  g.update(group);
  d["platform"]["proxy"] = {{"nic", {{"bandwidth", "10Gbps"}, {"latency", "10us"}}}};
  d["workload"]["modules"][1]["cpu_fallback"] = "1s";  // for jobs a gate or token bucket refuses
  d["platform"].update(platform);
  return d;
}

Scenario site(const std::string& file, const json& group = json::object(), const json& platform = json::object()) {
  return parse_scenario(naming(file, group, platform), "/scenarios/site.json");
}

bool site_noted(const Scenario& s, const std::string& text) {
  for (const std::string& note : s.notes)
    if (note.find(text) != std::string::npos) return true;
  return false;
}

const json kOneGpu = {{"gpus_per_server", 1}};  // for files whose pods request no GPU

}  // namespace

TEST_CASE("values-geddes-cms.yaml: ROUND_ROBIN, the gate at 20, KEDA 1 to 11 with Geddes's windows and policies") {
  const Scenario s = site("values-geddes-cms.yaml");
  const ServerGroup& g = s.platform.servers[0];
  CHECK(g.count == 11);           // the GPU pool: keda.maxReplicaCount
  CHECK(g.gpus_per_server == 1);  // resources.limits."nvidia.com/gpu": 1
  REQUIRE(g.autoscaling);
  const AutoscalingSpec& a = *g.autoscaling;
  CHECK(a.min_replicas == 1);
  CHECK(a.hpa.min_replicas == 1);
  CHECK(a.hpa.max_replicas == 11);
  CHECK(a.initial_replicas == 1);  // triton.replicas: 1 (the chart's)
  CHECK(a.hpa.target_kind == MetricTarget::Value);
  CHECK(a.hpa.target == 20);                               // serverLoadThreshold: 20
  CHECK(a.metric == ScalingMetric::SupersonicLoadSummed);  // Geddes's serverLoadMetric, [30s]
  CHECK(a.metric_window_s == 30);
  CHECK(a.hpa.scale_up.stabilization_window_s == 30);
  REQUIRE(a.hpa.scale_up.policies.size() == 1);
  CHECK(a.hpa.scale_up.policies[0].kind == ScalingPolicyKind::Pods);
  CHECK(a.hpa.scale_up.policies[0].value == 1);
  CHECK(a.hpa.scale_up.policies[0].period_s == 15);
  CHECK(a.hpa.scale_down.stabilization_window_s == 45);
  REQUIRE(a.hpa.scale_down.policies.size() == 1);
  CHECK(a.hpa.scale_down.policies[0].value == 1);
  CHECK(a.hpa.scale_down.policies[0].period_s == 45);
  CHECK(a.polling_interval_s == 30);  // so.yaml: pollingInterval 30, cooldownPeriod 120
  CHECK(a.cooldown_s == 120);
  CHECK(a.readiness_delay_s == 10);  // the chart's readinessProbe: from 10 s every 10 s
  CHECK(a.readiness_period_s == 10);
  CHECK(a.grace_period_s == 60);
  CHECK(a.prestop_sleep_s == 0);  // the hook as written at e5788010 fails at once (§1.2)
  CHECK(s.platform.load_balancing == LoadBalancing::RoundRobin);
  REQUIRE(s.platform.proxy);
  CHECK(s.platform.proxy->threads == 8);  // the chart's envoy.resources.limits.cpu: 8
  CHECK(s.platform.proxy->connect_timeout_s == 0.25);
  CHECK(s.platform.proxy->dns_refresh_s == 5);
  REQUIRE(s.platform.proxy->gate);
  CHECK(s.platform.proxy->gate->threshold_ms == 20);
  CHECK(s.platform.proxy->gate->window_s == 30);
  CHECK(s.platform.proxy->gate->metric == ScalingMetric::SupersonicLoadSummed);
  CHECK_FALSE(s.platform.proxy->connection_limit);
  CHECK(site_noted(s, "an external Prometheus"));  // prometheus.external: the scrape interval is the scenario's
  CHECK(s.platform.scrape_interval_s == 5);
  // Ingress, tracing and the monitoring subcharts are listed on one line, with the file's path.
  CHECK(site_noted(s, site_path("values-geddes-cms.yaml") + ": ignored, not simulated: "));
  for (const char* key : {"envoy.ingress.enabled", "envoy.tracing_sampling_rate", "grafana", "tempo",
                          "opentelemetry-collector", "triton.image", "triton.nodeSelector", "triton.tolerations"})
    CHECK_MESSAGE(site_noted(s, key), key);
  CHECK(site_noted(
      s, "not read by the chart's templates at e578801 (Helm would keep them unused): ingress"));  // top-level ingress
}

TEST_CASE("values-anvil-cms.yaml: 1 fixed replica, LEAST_REQUEST, no gate; KEDA's 1 to 5 unused while it is off") {
  // The pods request no GPU (the nodes' A10 and A100 come from an affinity): the scenario says.
  const test::Failure none = test::failure_of([] { site("values-anvil-cms.yaml"); });
  CHECK(none.file == kSites + "values-anvil-cms.yaml");
  CHECK(none.where == "/triton/resources");
  const Scenario s = site("values-anvil-cms.yaml", kOneGpu);
  CHECK(s.platform.servers[0].count == 1);
  CHECK_FALSE(s.platform.servers[0].autoscaling);
  CHECK(s.platform.load_balancing == LoadBalancing::LeastRequest);
  REQUIRE(s.platform.proxy);
  CHECK_FALSE(s.platform.proxy->gate);
  CHECK(site_noted(s, "unused, their feature is off in this file: keda.maxReplicaCount, keda.minReplicaCount"));
  // (in the order of the merged values' keys: sorted)
  CHECK(
      site_noted(s,
                 "ignored, not simulated: envoy.ingress.enabled, envoy.ingress.hostName, triton.affinity, triton.args, "
                 "triton.command, triton.image, triton.modelRepository, triton.resources"));
}

TEST_CASE(
    "values-nautilus-cms.yaml: 5 fixed replicas of one GPU, LEAST_REQUEST, no gate, the 5 s route timeout noted") {
  const Scenario s = site("values-nautilus-cms.yaml");
  CHECK(s.platform.servers[0].count == 5);
  CHECK(s.platform.servers[0].gpus_per_server == 1);
  CHECK_FALSE(s.platform.servers[0].autoscaling);
  CHECK(s.platform.load_balancing == LoadBalancing::LeastRequest);
  REQUIRE(s.platform.proxy);
  CHECK_FALSE(s.platform.proxy->gate);
  CHECK(site_noted(s, "envoy.grpc_route_timeout 5s is not simulated"));
  CHECK(site_noted(s, "keda.minReplicaCount"));  // min 1, max 100, windows: unused while KEDA is off
  CHECK(site_noted(s, "unused, their feature is off in this file: "));
}

TEST_CASE("values-nautilus-icecube.yaml: one replica, the chart's LEAST_REQUEST, the late probes unused without KEDA") {
  const Scenario s = site("values-nautilus-icecube.yaml", kOneGpu);
  CHECK(s.platform.servers[0].count == 1);
  CHECK_FALSE(s.platform.servers[0].autoscaling);
  CHECK(s.platform.load_balancing == LoadBalancing::LeastRequest);
  REQUIRE(s.platform.proxy);
  CHECK_FALSE(s.platform.proxy->gate);
  // Fixed servers are ready from the start: the probes (startup from 240 s, readiness from 250 s
  // every 30 s) matter only to pods KEDA adds (test_values_mapping.cpp maps them so).
  CHECK(site_noted(s,
                   "unused, their feature is off in this file: keda.maxReplicaCount, keda.minReplicaCount, "
                   "prometheus.external.enabled, serverLoadThreshold, triton.readinessProbe.initialDelaySeconds, "
                   "triton.readinessProbe.periodSeconds"));
  CHECK(site_noted(s, "triton.startupProbe.initialDelaySeconds"));
  CHECK(site_noted(s, "envoy.auth"));  // JWT authentication: not simulated
}

TEST_CASE("values-nautilus-atlas.yaml: one replica, ROUND_ROBIN, KEDA's 0 to 1 unused while it is off (False)") {
  const Scenario s = site("values-nautilus-atlas.yaml");
  CHECK(s.platform.servers[0].count == 1);
  CHECK(s.platform.servers[0].gpus_per_server == 1);
  CHECK_FALSE(s.platform.servers[0].autoscaling);  // keda.enabled: False, YAML's boolean
  CHECK(s.platform.load_balancing == LoadBalancing::RoundRobin);
  REQUIRE(s.platform.proxy);
  CHECK_FALSE(s.platform.proxy->gate);
  CHECK(site_noted(s, "not read by the chart's templates at e578801 (Helm would keep them unused): triton.name"));
}

TEST_CASE(
    "values-minimal.yaml and values-minimal-full.yaml: the chart's examples, the full one with its token bucket and "
    "KEDA") {
  const Scenario minimal = site("values-minimal.yaml", kOneGpu);
  CHECK(minimal.platform.servers[0].count == 1);
  CHECK_FALSE(minimal.platform.servers[0].autoscaling);
  CHECK(minimal.platform.load_balancing == LoadBalancing::LeastRequest);
  REQUIRE(minimal.platform.proxy);
  CHECK_FALSE(minimal.platform.proxy->connection_limit);
  const Scenario full = site("values-minimal-full.yaml", kOneGpu);
  REQUIRE(full.platform.proxy);
  REQUIRE(full.platform.proxy->connection_limit);  // listener_level: 5 tokens, 1 per 12 s
  CHECK(full.platform.proxy->connection_limit->max_tokens == 5);
  CHECK(full.platform.proxy->connection_limit->tokens_per_fill == 1);
  CHECK(full.platform.proxy->connection_limit->fill_interval_s == 12);
  REQUIRE(full.platform.servers[0].autoscaling);
  const AutoscalingSpec& a = *full.platform.servers[0].autoscaling;
  CHECK(a.hpa.min_replicas == 1);
  CHECK(a.hpa.max_replicas == 2);
  CHECK(a.hpa.target == 100);                          // the chart's serverLoadThreshold
  CHECK(a.metric == ScalingMetric::SupersonicLoad);    // the chart's default query, [30s]
  CHECK(a.hpa.scale_up.stabilization_window_s == 60);  // the chart's keda.scaleUp
  CHECK(a.hpa.scale_up.policies[0].period_s == 60);
  CHECK(a.hpa.scale_down.stabilization_window_s == 600);
  CHECK(a.hpa.scale_down.policies[0].period_s == 120);
  // readinessProbe reset: the startup probe's grid (from 0 s every 10 s).
  CHECK(a.readiness_delay_s == 0);
  CHECK(a.readiness_period_s == 10);
  CHECK(full.platform.scrape_interval_s == 5);  // the chart's Prometheus: global.scrape_interval 5s
  CHECK_FALSE(full.platform.proxy->gate);
}

TEST_CASE("the scenario's own keys override the file's; an error in a value the file gave names the file and its key") {
  const Scenario s = site("values-geddes-cms.yaml",
                          json{{"count", 4}, {"autoscaling", {{"max_replicas", 4}, {"prestop_sleep", "60s"}}}},
                          json{{"load_balancing", "least_request"}});
  CHECK(s.platform.servers[0].count == 4);
  CHECK(s.platform.servers[0].autoscaling->hpa.max_replicas == 4);
  CHECK(s.platform.servers[0].autoscaling->hpa.min_replicas == 1);  // the file's, kept
  CHECK(s.platform.servers[0].autoscaling->prestop_sleep_s == 60);
  CHECK(s.platform.load_balancing == LoadBalancing::LeastRequest);
  CHECK(s.platform.proxy->gate->threshold_ms == 20);
  // keda.minReplicaCount 3 over a pool of 2 GPUs: the autoscaling reader refuses the 5 pods at the
  // start, and the error names the values file's key, not the scenario key it became.
  const std::string three = test::write_scratch_file("values-three.yaml",
                                                     "triton: {resources: {limits: {nvidia.com/gpu: 1}}}\nkeda: "
                                                     "{enabled: true, minReplicaCount: 3, maxReplicaCount: 5}\n");
  json d = naming("values-geddes-cms.yaml", json{{"count", 2}});
  d["platform"]["servers"][0]["supersonic_values"] = three;
  const test::Failure f = test::failure_of([&] { parse_scenario(d, "/scenarios/site.json"); });
  CHECK(f.file == three);
  CHECK(f.where == "/keda/minReplicaCount");
  CHECK(f.message.find("(as /platform/servers/0/autoscaling/initial_replicas of /scenarios/site.json)") !=
        std::string::npos);
  CHECK(f.message.find("expected at most 2") != std::string::npos);
  // Two groups naming files: a deployment has one Envoy.
  json two = naming("values-geddes-cms.yaml");
  two["platform"]["servers"].push_back(two["platform"]["servers"][0]);
  two["platform"]["servers"][1]["name"] = "t";
  const test::Failure both = test::failure_of([&] { parse_scenario(two, "/scenarios/site.json"); });
  CHECK(both.where == "/platform/servers/1/supersonic_values");
  const test::Failure missing = test::failure_of([] { site("values-nowhere.yaml"); });
  CHECK(missing.file == kSites + "values-nowhere.yaml");
}

TEST_CASE("--set: a group's values file is chosen first; every other --set applies after the file, in its order") {
  json d = naming("values-geddes-cms.yaml");
  const std::string path = test::write_scratch_file("site-set.json", d.dump());
  // The file's count (11) and then an emptied server list: the order of the --set flags holds.
  const Scenario none = load_scenario(path, {{"/platform/servers/0/count", "4"}, {"/platform/servers", "[]"}});
  CHECK(none.platform.servers.empty());
  // Another site's file, and a key over what that file gives.
  const Scenario nautilus = load_scenario(
      path, {{"/platform/servers/0/count", "3"},
             {"/platform/servers/0/supersonic_values", json(kSites + "values-nautilus-cms.yaml").dump()}});
  CHECK(nautilus.platform.servers[0].count == 3);  // over the file's 5 replicas
  CHECK_FALSE(nautilus.platform.servers[0].autoscaling);
  // A new server list that names a file is expanded in turn.
  json group = d["platform"]["servers"][0];
  group["supersonic_values"] = kSites + "values-nautilus-atlas.yaml";
  const Scenario atlas = load_scenario(path, {{"/platform/servers", json::array({group}).dump()}});
  CHECK(atlas.platform.servers[0].count == 1);
  CHECK(atlas.platform.load_balancing == LoadBalancing::RoundRobin);
}
