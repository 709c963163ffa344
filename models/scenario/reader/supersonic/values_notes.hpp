#pragma once
// What sonicsim does with each key of SuperSONIC's values (the chart at e5788010): the keys the
// mapping reads (mapper.cpp, envoy_mapping.cpp) and those it leaves out because the
// simulator does not model them. A key of a values file under no entry is one no template of the
// chart reads (a typo, or a key of an older chart): Helm keeps it unused, and so does sonicsim,
// saying so. The longest entry that holds a key decides.
#include <string_view>

namespace sonicsim::supersonic {

enum class KeyUse { Mapped, Ignored, NotRead };

struct KeyRule {
  std::string_view pointer;
  KeyUse use;
};

inline constexpr KeyUse M = KeyUse::Mapped;
inline constexpr KeyUse I = KeyUse::Ignored;

inline constexpr KeyRule kChartKeys[]{
    {"/nameOverride", I},  // names only
    {"/serverLoadMetric", M},
    {"/serverLoadThreshold", M},
    // Triton (templates/triton/deployment.yaml, service.yaml, cvmfs-pvc.yaml)
    {"/triton/replicas", M},
    {"/triton/image", I},    // the kernel latency comes from /models
    {"/triton/command", I},  // Triton's command line; its model repository: see the models note
    {"/triton/args", I},
    {"/triton/resources", I},  // CPU and memory of a pod: server-side CPU is not simulated
    {"/triton/resources/limits/nvidia.com~1gpu", M},
    {"/triton/resources/requests/nvidia.com~1gpu", M},
    {"/triton/resources/limits/amd.com~1gpu", M},
    {"/triton/resources/requests/amd.com~1gpu", M},
    {"/triton/annotations", I},  // scheduling: the group's servers are the pods' nodes
    {"/triton/nodeSelector", I},
    {"/triton/tolerations", I},
    {"/triton/affinity", I},
    {"/triton/modelRepository", I},
    {"/triton/service", I},         // ports and labels
    {"/triton/readinessProbe", I},  // its command, timeout and thresholds
    {"/triton/readinessProbe/reset", M},
    {"/triton/readinessProbe/initialDelaySeconds", M},
    {"/triton/readinessProbe/periodSeconds", M},
    {"/triton/startupProbe", I},  // its budget (failureThreshold x period) and its HTTP check
    {"/triton/startupProbe/reset", M},
    {"/triton/startupProbe/initialDelaySeconds", M},
    {"/triton/startupProbe/periodSeconds", M},
    // Envoy (templates/envoy/*.yaml)
    {"/envoy/enabled", M},
    {"/envoy/replicas", M},
    {"/envoy/image", I},
    {"/envoy/args", I},
    {"/envoy/external_config", I},
    {"/envoy/external_config/load_from_configmap", M},
    {"/envoy/resources", I},
    {"/envoy/resources/limits/cpu", M},
    {"/envoy/annotations", I},
    {"/envoy/nodeSelector", I},
    {"/envoy/tolerations", I},
    {"/envoy/service", I},  // how clients reach Envoy: the scenario's links say
    {"/envoy/ingress/enabled", I},
    {"/envoy/ingress/hostName", I},
    {"/envoy/ingress/ingressClassName", I},
    {"/envoy/ingress/annotations", I},
    {"/envoy/grpc_route_timeout", M},
    {"/envoy/rate_limiter/listener_level/enabled", M},
    {"/envoy/rate_limiter/listener_level/max_tokens", M},
    {"/envoy/rate_limiter/listener_level/tokens_per_fill", M},
    {"/envoy/rate_limiter/listener_level/fill_interval", M},
    {"/envoy/rate_limiter/prometheus_based/enabled", M},
    {"/envoy/rate_limiter/prometheus_based/luaConfig", M},
    {"/envoy/loadBalancerPolicy", M},
    {"/envoy/auth", I},  // JWT authentication
    {"/envoy/tracing_sampling_rate", I},
    // KEDA (templates/keda/so.yaml)
    {"/keda/enabled", M},
    {"/keda/minReplicaCount", M},
    {"/keda/maxReplicaCount", M},
    {"/keda/zeroIdleReplicas", M},
    {"/keda/scaleUp/stabilizationWindowSeconds", M},
    {"/keda/scaleUp/periodSeconds", M},
    {"/keda/scaleUp/stepsize", M},
    {"/keda/scaleDown/stabilizationWindowSeconds", M},
    {"/keda/scaleDown/periodSeconds", M},
    {"/keda/scaleDown/stepsize", M},
    // Prometheus (a subchart; templates/monitoring/prometheus-configmap.yaml, _helpers/_prometheus.tpl)
    {"/prometheus", I},
    {"/prometheus/enabled", M},
    {"/prometheus/external/enabled", M},
    {"/prometheus/server/global/scrape_interval", M},
    // Monitoring and tracing: subcharts and the metrics collector
    {"/grafana", I},
    {"/tempo", I},
    {"/opentelemetry-collector", I},
    {"/metricsCollector", I},
};

// The use of the key at `pointer` (a JSON pointer into the values).
KeyUse key_use(std::string_view pointer);

}  // namespace sonicsim::supersonic
