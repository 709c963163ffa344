#pragma once
// The scenario as plain data, after parsing and validation. All quantities in SI base units:
// seconds, bytes, bytes per second. See scenarios/README.md for the file format.
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "models/control/hpa.hpp"
#include "models/control/request_balancer.hpp"
#include "models/control/token_bucket.hpp"
#include "models/jobs/job_submission.hpp"
#include "models/scenario/device_naming.hpp"
#include "models/scenario/perf_load.hpp"
#include "models/triton/model_config.hpp"
#include "models/workload/distribution.hpp"
#include "models/workload/item_count.hpp"
#include "models/workload/kernel_latency.hpp"
#include "models/workload/tensor_bytes.hpp"

namespace sonicsim {

struct LinkSpec {
  double bandwidth_Bps = 0;
  double latency_s = 0;
};

enum class JobPlacement { Fill, Spread };

struct WorkerPool {
  std::string name;
  int nodes = 0;
  int cores_per_node = 0;
  double cpu_speed = 1.0;  // relative to the reference CPU on which module times are given
  LinkSpec nic;
};

// Triton's protocol frontend (gRPC/HTTP handler threads): parsing a request and serialising its
// response happen there, outside Triton's request statistics, and hold one handler thread each.
struct FrontendSpec {
  int threads = 2;               // Triton's --grpc-infer-thread-count default
  double per_request_s = 0;      // fixed cost of parsing one request
  double input_rate_Bps = 0;     // request bytes parsed per second; 0: no per-byte cost
  double per_response_s = 0;     // fixed cost of serialising one response
  double output_rate_Bps = 0;    // response bytes serialised per second; 0: no per-byte cost

  double request_s(double bytes) const { return per_request_s + (input_rate_Bps > 0 ? bytes / input_rate_Bps : 0); }
  double response_s(double bytes) const { return per_response_s + (output_rate_Bps > 0 ? bytes / output_rate_Bps : 0); }
};

// When the servers of a group fail and come back. A failing server loses its queue and the batches
// it is running; it answers nothing until it restarts, empty, after its repair time.
struct ServerFailures {
  std::vector<double> at_s;                  // every server of the group fails at these times (if up)
  std::optional<Distribution> time_between;  // or: up time before each failure, drawn per server
  std::optional<Distribution> repair;        // down time before the restart; unset: never comes back
};

// The metric an autoscaler reads from Prometheus (supersonic-deployment.md §1.5, §7).
enum class ScalingMetric {
  SupersonicLoad,       // sum(rate(queue_duration_us)) / (sum(rate(exec_count)) x 1000 + 0.001), in ms
  QueueTimePerRequest,  // sum(rate(queue_duration_us)) / sum(rate(request_success)) / 1000, in ms
  GpuUtilization,       // the mean over scraped GPUs of rate(busy seconds), between 0 and 1
  InFlightPerReplica,   // Envoy's active requests to the deployment over its ready replicas, last scrape
};

// KEDA scaling a server group as one Kubernetes Deployment (supersonic-deployment.md §1.6, §3, §4, §7).
// The group's servers are the GPU pool: a pod runs on one of them, and a pod with none free stays
// pending. The HPA syncs every sync_period; KEDA alone takes the deployment from 0 to 1 replica and
// back, at its polling interval.
struct AutoscalingSpec {
  ScalingMetric metric = ScalingMetric::SupersonicLoad;
  double metric_window_s = 30;  // the metric's rate() window
  HpaSpec hpa;                   // target, metric type, tolerance, bounds (min_replicas >= 1) and behaviour
  int min_replicas = 1;          // KEDA minReplicaCount: 0 lets KEDA scale the deployment to zero
  int initial_replicas = 1;      // ready at t = 0 (the deployment ran before the simulated period)
  double sync_period_s = 15;       // --horizontal-pod-autoscaler-sync-period
  double polling_interval_s = 30;  // KEDA pollingInterval
  double cooldown_s = 300;         // KEDA cooldownPeriod: idle time before scaling to zero
  double activation_threshold = 0; // KEDA activationThreshold: active while the metric exceeds it
  Distribution startup = ConstantDist{60};  // scheduling to Triton serving: image pull plus model load
  double readiness_delay_s = 10;   // readinessProbe initialDelaySeconds
  double readiness_period_s = 10;  // readinessProbe periodSeconds
  double prestop_sleep_s = 0;      // preStop sleep: serving on, out of the proxy, before SIGTERM
  double grace_period_s = 60;      // terminationGracePeriodSeconds: preStop and draining together
};

struct ServerGroup {
  std::string name;
  int count = 1;
  int gpus_per_server = 1;
  std::string gpu_type;
  LinkSpec nic;
  std::vector<std::string> models;  // the models this group serves
  std::optional<FrontendSpec> frontend;  // absent: requests reach the scheduler the moment they arrive
  std::optional<ServerFailures> failures;
  std::optional<AutoscalingSpec> autoscaling;
};

// SuperSONIC's saturation gate (Envoy Lua filter, supersonic-deployment.md §1.4): a job's first call
// (RepositoryIndex) is refused while the server load metric exceeds the threshold, and the job then
// runs its inference on its own CPU for its whole life.
struct SaturationGateSpec {
  double threshold_ms = 100;  // serverLoadThreshold: the load metric is in milliseconds
  double window_s = 30;       // the metric's rate() window
};

// An Envoy proxy in the data centre between the jobs and the servers: every request and response
// crosses its NIC, and each request costs it CPU time. Defaults are Envoy's (supersonic-deployment.md §2.3).
struct ProxySpec {
  LinkSpec nic;
  int threads = 1;              // Envoy worker threads (--concurrency); SuperSONIC requests 1 CPU
  double per_request_s = 0;     // CPU time to route one request (and relay its response)
  double dns_refresh_s = 5;     // STRICT_DNS dns_refresh_rate: when membership changes reach the proxy
  double connect_timeout_s = 5; // cluster connect_timeout: how long a request to a dead server waits
  std::optional<SaturationGateSpec> gate;
  // SuperSONIC's optional listener token bucket on new connections (supersonic-deployment.md §1.4(a)):
  // a job connects once, at its start; refused, it runs on its CPU as if gated.
  std::optional<TokenBucketSpec> connection_limit;
};

struct Platform {
  std::vector<WorkerPool> worker_pools;
  JobPlacement placement = JobPlacement::Fill;
  LinkSpec site_uplink;
  std::optional<LinkSpec> wan;  // absent: servers sit on the site network
  std::vector<ServerGroup> servers;
  LoadBalancing load_balancing = LoadBalancing::PerJob;
  std::optional<ProxySpec> proxy;  // absent: jobs talk to the servers directly
  double scrape_interval_s = 5;    // Prometheus scrapes the servers' metrics this often (SuperSONIC's chart)
};

struct ModelSpec {
  std::string name;
  double input_bytes_per_item = 0;
  double output_bytes_per_item = 0;
  // Models with a variable (-1) dim: bytes per element of it, and how their requests batch; the
  // kernel latency is then a function of the elements in a batch instead of its items.
  double input_bytes_per_element = 0;
  double output_bytes_per_element = 0;
  TensorLayout layout = TensorLayout::Fixed;
  std::optional<TensorBytes> shapes;  // from the model's input/output tensors, where given
  int max_batch_size = 0;
  int instances_per_gpu = 1;  // used when instance_groups is empty: this many on every GPU
  std::vector<triton::InstanceGroup> instance_groups;
  std::optional<triton::DynamicBatchingConfig> dynamic_batching;  // absent: Triton's default scheduler
  triton::BatcherWakeup batcher_wakeup = triton::BatcherWakeup::Idealised;
  std::string triton_config_path;  // the config.pbtxt these settings came from, if any
  std::optional<KernelLatency> kernel_latency;             // for GPU types not listed below
  std::map<std::string, KernelLatency> kernel_latency_by_gpu;

  // The latency model for a GPU type; the scenario parser guarantees one exists for every served type.
  const KernelLatency& latency_for(const std::string& gpu_type) const {
    const auto it = kernel_latency_by_gpu.find(gpu_type);
    return it != kernel_latency_by_gpu.end() ? it->second : *kernel_latency;
  }
};

struct CpuModule {
  std::string name;
  Distribution time;
};

// After the last allowed try fails: the job ends as failed (CMSSW today), the module runs on the
// worker's CPU (cpu_fallback) for this event or for the rest of the job, or the request is tried on
// another ready server (proposed for CMSSW).
enum class OnFailure { FailJob, Fallback, Failover };
enum class FallbackScope { Event, Job };

struct InferenceModule {
  std::string name;
  int model = -1;  // index into Scenario::models
  ItemCount items_per_event = 1;  // drawn once per event where it is a distribution
  int items_per_request = 0;
  // Models with a variable dim: elements of each item (particles of a jet), drawn per item.
  std::optional<ItemCount> elements_per_item;
  Distribution preprocess;
  int in_flight = 1;  // 1 = blocking; m > 1 = asynchronous with m requests outstanding
  std::optional<Distribution> cpu_fallback;  // time on the CPU when no server serves the model
  int priority = 0;       // Triton request priority; 0 = the model's default level
  double timeout_s = 0;   // Triton request "timeout" parameter; 0 = none
  // What the client does when a request fails (CMSSW SonicTriton; supersonic-deployment.md §5.1).
  int allowed_tries = 1;                   // attempts on the same server, retried at once
  std::optional<double> client_timeout_s;  // the client's deadline for an answer (gRPC DEADLINE_EXCEEDED)
  OnFailure on_failure = OnFailure::FailJob;
  FallbackScope fallback_scope = FallbackScope::Event;

  // Requests for an event of `items` items (none for an event without any).
  std::int64_t requests_for(int items) const {
    return (static_cast<std::int64_t>(items) + items_per_request - 1) / items_per_request;
  }
  // Items in the k-th request of an event of `items` items (all full but the last).
  int items_in_request(std::int64_t k, int items) const {
    return static_cast<int>(std::min<std::int64_t>(items_per_request, items - k * items_per_request));
  }
};

using Module = std::variant<CpuModule, InferenceModule>;

// The jobs (JobsSpec: jobs, events_per_job, start, submit), and what limits and runs in them.
struct Workload : JobsSpec {
  std::optional<double> duration_s;  // exactly one of events_per_job and duration_s is set
  double warmup_s = 0;  // events starting before this are left out of the statistics
  int resubmit = 0;  // batch system: how many times a failed job is submitted again
  std::vector<Module> modules;
};

struct NetworkModel {
  std::string model = "CM02";  // SimGrid network/model
  double tcp_gamma_bytes = 4194304;  // SimGrid network/TCP-gamma (TCP window); 0 disables the limit
  bool crosstraffic = false;
  // Unset: the model's own value (1 for CM02; LV08's calibrated 13.01 and 0.97).
  std::optional<double> latency_factor;
  std::optional<double> bandwidth_factor;
};

struct Outputs {
  bool events = true;
  bool requests = true;
  bool batches = true;
  bool metrics = true;  // metrics-<server>.prom, Triton's Prometheus text
  bool jobs = true;     // jobs.csv, for batch-system workloads
  bool timeseries = true;  // timeseries.csv, where Prometheus scrapes the farm (a gate or an autoscaler)
};

// End a run once its steady-state mean per-event time is known to a relative half-width of its 95%
// interval, or at max_time_s, whichever comes first (the workload's own end still ends it).
struct StoppingRule {
  double relative_half_width = 0.01;
  std::optional<double> max_time_s;
};

struct SimulationOptions {
  std::uint64_t seed = 1;
  NetworkModel network;
  int stack_size_kib = 64;
  Outputs outputs;
  // Replace each "calibrated" kernel latency by this quantile of its bootstrap band (a pessimistic
  // or optimistic GPU); unset: the fitted curve itself.
  std::optional<double> latency_quantile;
  std::optional<StoppingRule> stop_at_precision;
};

// Prices for `plan`'s cost per event, in one currency of the user's choice.
struct Costs {
  std::string currency;        // a label, e.g. "USD"
  double cpu_core_hour = 0;    // price of one worker core for one hour
  double gpu_hour = 0;         // price of one GPU (with its share of server) for one hour
  std::optional<double> target_events_per_hour;  // throughput the cheapest configuration must reach
};

struct Scenario {
  std::string file;  // the scenario file, for messages
  std::string name;
  std::string description;
  Platform platform;
  std::vector<ModelSpec> models;
  Workload workload;                               // grid jobs, unless perf_analyzer is set
  std::optional<PerfAnalyzerLoad> perf_analyzer;  // a perf_analyzer-like load instead of grid jobs
  SimulationOptions simulation;
  std::optional<Costs> costs;
  DeviceNaming device_naming = DeviceNaming::Gpu;  // how the scenario, and so its outputs, name accelerators

  int model_index(const std::string& model_name) const {
    for (std::size_t i = 0; i < models.size(); ++i)
      if (models[i].name == model_name) return static_cast<int>(i);
    return -1;
  }
  // Whether requests can fail (servers that fail, or a client deadline): the outputs then say how.
  bool requests_can_fail() const {
    for (const ServerGroup& g : platform.servers)
      if (g.failures || g.autoscaling) return true;
    for (const Module& m : workload.modules)
      if (const auto* inference = std::get_if<InferenceModule>(&m); inference && inference->client_timeout_s) return true;
    return false;
  }
  const ServerGroup* autoscaled_group() const {
    for (const ServerGroup& g : platform.servers)
      if (g.autoscaling) return &g;
    return nullptr;
  }
  // Prometheus scrapes the servers: for the saturation gate or an autoscaler.
  bool scraped() const { return autoscaled_group() || (platform.proxy && platform.proxy->gate); }
  std::int64_t total_worker_cores() const {
    std::int64_t cores = 0;
    for (const auto& pool : platform.worker_pools) cores += static_cast<std::int64_t>(pool.nodes) * pool.cores_per_node;
    return cores;
  }
};

}  // namespace sonicsim
