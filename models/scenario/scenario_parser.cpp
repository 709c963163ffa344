#include "models/scenario/scenario_parser.hpp"

#include "models/io/json_pointer.hpp"
#include "models/io/limits.hpp"
#include "models/jobs/job_trace.hpp"
#include "models/scenario/perf_load_parser.hpp"
#include "models/scenario/scenario_size.hpp"
#include "models/scenario/scenario_triton.hpp"
#include "models/workload/latency_model_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <fstream>
#include <set>
#include <sstream>

namespace sonicsim {
namespace {

using nlohmann::json;

LinkSpec parse_link(const JsonNode& node) {
  node.allow_only({"bandwidth", "latency"});
  return LinkSpec{node.at("bandwidth").bandwidth_Bps(), node.at("latency").duration_s()};
}

Distribution parse_distribution(const JsonNode& node) {
  if (node.raw().is_string()) return ConstantDist{node.duration_s()};  // "110s" is shorthand for a constant
  if (!node.raw().is_object())
    node.fail(std::string("expected a duration like \"110s\" or a distribution object, got ") +
              node.raw().type_name() + " " + node.raw().dump());
  const std::string kind = node.at("distribution").string();
  if (kind == "constant") {
    node.allow_only({"distribution", "value"});
    return ConstantDist{node.at("value").duration_s()};
  }
  if (kind == "normal" || kind == "lognormal") {
    node.allow_only({"distribution", "mean", "stddev"});
    const double mean = node.at("mean").duration_s();
    const double stddev = node.at("stddev").duration_s();
    if (kind == "lognormal" && !(mean > 0)) node.at("mean").fail("expected a positive mean for a lognormal");
    if (kind == "normal") return NormalDist{mean, stddev};
    return LognormalDist{mean, stddev};
  }
  if (kind == "exponential") {
    node.allow_only({"distribution", "mean"});
    return ExponentialDist{node.at("mean").positive_duration_s()};
  }
  if (kind == "empirical") {
    node.allow_only({"distribution", "samples"});
    EmpiricalDist dist;
    for (const JsonNode& s : node.at("samples").non_empty_elements()) dist.samples.push_back(s.duration_s());
    return dist;
  }
  node.at("distribution").fail("expected one of \"constant\", \"normal\", \"lognormal\", \"exponential\", "
                               "\"empirical\", got \"" + kind + "\"");
}

// items_per_event: a positive integer, or a count distribution drawn once per event.
ItemCount parse_item_count(const JsonNode& node) {
  if (node.raw().is_number()) return node.int_at_least(1);
  if (!node.raw().is_object())
    node.fail(std::string("expected a positive integer or a count distribution object, got ") + node.raw().type_name() +
              " " + node.raw().dump());
  const std::string kind = node.at("distribution").string();
  if (kind == "constant") {
    node.allow_only({"distribution", "value"});
    return node.at("value").int_at_least(1);
  }
  if (kind == "poisson") {
    node.allow_only({"distribution", "mean"});
    const double mean = node.at("mean").number();
    if (!(mean > 0 && mean <= kMaxPoissonMean))
      node.at("mean").fail("expected a mean above 0 and at most " + std::to_string(static_cast<int>(kMaxPoissonMean)) +
                           " (for larger counts use \"uniform\" or \"empirical\")");
    return PoissonCount{mean};
  }
  if (kind == "uniform") {
    node.allow_only({"distribution", "min", "max"});
    const int min = node.at("min").int_at_least(0);
    const int max = node.at("max").int_at_least(1);
    if (max < min) node.at("max").fail("expected max at least min (" + std::to_string(min) + ")");
    return UniformCount{min, max};
  }
  if (kind == "empirical") {
    node.allow_only({"distribution", "samples"});
    EmpiricalCount count;
    for (const JsonNode& sample : node.at("samples").non_empty_elements()) count.samples.push_back(sample.int_at_least(0));
    if (*std::max_element(count.samples.begin(), count.samples.end()) == 0)
      node.at("samples").fail("expected at least one sample above 0 (an event without items sends no request)");
    return count;
  }
  node.at("distribution").fail("expected one of \"constant\", \"poisson\", \"uniform\", \"empirical\" (a count of "
                               "items per event), got \"" + kind + "\"");
}

// What kernel-latency parsing needs from the rest of the scenario.
struct LatencyContext {
  std::string scenario_file;
  std::optional<double> quantile;  // /simulation/latency_quantile
  int calibrated_count = 0;        // "calibrated" latencies seen, so an unused quantile is an error
};

KernelLatency parse_calibrated_latency(const JsonNode& node, LatencyContext& context) {
  node.allow_only({"type", "file", "form"});
  const JsonNode file_key = node.at("file");
  const std::string path = path_beside(context.scenario_file, file_key.string());
  if (!std::ifstream(path)) file_key.fail("cannot open the latency model file \"" + path + "\"");
  const LatencyModelFile model_file = read_latency_model_file(path);
  std::string form = model_file.selected;
  if (auto f = node.find("form")) {
    form = f->string();
    if (!model_file.forms.count(form)) {
      std::string names;
      for (const auto& [name, unused] : model_file.forms) names += (names.empty() ? "\"" : ", \"") + name + "\"";
      f->fail("expected one of the forms in \"" + path + "\" (" + names + "), got \"" + form + "\"");
    }
  }
  ++context.calibrated_count;
  const CalibratedForm& calibrated = model_file.forms.at(form);
  if (!context.quantile) return calibrated.curve;
  if (!calibrated.band)
    node.fail("/simulation/latency_quantile asks for a quantile, but the \"" + form + "\" form in \"" + path +
              "\" has no uncertainty band (calibrate with --bootstrap N)");
  const double q = *context.quantile;
  const auto& levels = calibrated.band->levels;
  if (q < levels.front() || q > levels.back())
    node.fail("/simulation/latency_quantile is " + std::to_string(q) + ", outside the levels " +
              std::to_string(levels.front()) + " to " + std::to_string(levels.back()) + " of the band in \"" +
              path + "\"");
  return band_quantile(*calibrated.band, q);
}

KernelLatency parse_kernel_latency(const JsonNode& node, LatencyContext& context) {
  const std::string kind = node.at("type").string();
  if (kind == "affine") {
    node.allow_only({"type", "intercept", "per_item"});
    return AffineLatency{node.at("intercept").duration_s(), node.at("per_item").duration_s()};
  }
  if (kind == "table") {
    node.allow_only({"type", "points"});
    TableLatency table;
    for (const JsonNode& point : node.at("points").non_empty_elements()) {
      point.allow_only({"batch", "latency"});
      const double batch = point.at("batch").int_at_least(1);
      if (!table.points.empty() && batch <= table.points.back().first)
        point.at("batch").fail("expected batch sizes in strictly increasing order");
      table.points.emplace_back(batch, point.at("latency").duration_s());
    }
    return table;
  }
  if (kind == "knee") {
    node.allow_only({"type", "flat", "knee_batch", "per_item"});
    return KneeLatency{node.at("flat").positive_duration_s(), node.at("knee_batch").number_positive(),
                       node.at("per_item").duration_s()};
  }
  if (kind == "calibrated") return parse_calibrated_latency(node, context);
  node.at("type").fail("expected \"affine\", \"table\", \"knee\" or \"calibrated\", got \"" + kind + "\"");
}

// Worker pools and server groups name hosts ("NAME-3", "NAME-0/gpu1") and output files.
std::string host_prefix(const JsonNode& node) {
  const std::string name = node.name();
  if (name.size() > 64 || name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
                              std::string::npos)
    node.fail("expected a name of at most 64 letters, digits, '.', '_' or '-' (it names hosts and files), got \"" +
              name + "\"");
  return name;
}

WorkerPool parse_worker_pool(const JsonNode& node) {
  node.allow_only({"name", "nodes", "cores_per_node", "cpu_speed", "nic"});
  WorkerPool pool;
  pool.name = host_prefix(node.at("name"));
  pool.nodes = node.at("nodes").int_in(1, limits::kMaxNodesPerPool);
  pool.cores_per_node = node.at("cores_per_node").int_in(1, limits::kMaxCoresPerNode);
  pool.cpu_speed = node.at("cpu_speed").number_in(limits::kMinCpuSpeed, limits::kMaxCpuSpeed);
  pool.nic = parse_link(node.at("nic"));
  return pool;
}

ServerFailures parse_failures(const JsonNode& node) {
  node.allow_only({"at", "time_between", "repair"});
  ServerFailures failures;
  const auto at = node.find("at");
  const auto between = node.find("time_between");
  if (at.has_value() == between.has_value())
    node.fail("expected exactly one of \"at\" (failure times) and \"time_between\" (up time before each failure)");
  if (at) {
    const auto times = at->non_empty_elements();
    if (times.size() > static_cast<std::size_t>(limits::kMaxFailureTimes))
      at->fail("expected at most " + std::to_string(limits::kMaxFailureTimes) + " failure times");
    for (const JsonNode& t : times) {
      failures.at_s.push_back(t.duration_s());
      if (failures.at_s.size() > 1 && failures.at_s.back() <= failures.at_s[failures.at_s.size() - 2])
        t.fail("expected failure times in strictly increasing order");
    }
  }
  if (between) {
    failures.time_between = parse_distribution(*between);
    if (!(mean(*failures.time_between) > 0)) between->fail("expected a positive mean time between failures");
    if (!node.has("repair"))
      node.fail("expected a \"repair\" time with \"time_between\" (servers that never come back fail once: use \"at\")");
  }
  if (auto repair = node.find("repair")) failures.repair = parse_distribution(*repair);
  return failures;
}

ProxySpec parse_proxy(const JsonNode& node) {
  node.allow_only({"nic", "threads", "per_request", "dns_refresh", "connect_timeout", "saturation_gate",
                   "connection_limit"});
  ProxySpec proxy;
  proxy.nic = parse_link(node.at("nic"));
  if (auto t = node.find("threads")) proxy.threads = t->int_in(1, limits::kMaxFrontendThreads);
  if (auto d = node.find("per_request")) proxy.per_request_s = d->duration_s();
  if (auto d = node.find("dns_refresh")) proxy.dns_refresh_s = d->positive_duration_s();
  if (auto d = node.find("connect_timeout")) proxy.connect_timeout_s = d->duration_s();
  if (auto g = node.find("saturation_gate")) {
    g->allow_only({"threshold", "window"});
    SaturationGateSpec gate;
    gate.threshold_ms = g->at("threshold").number_in(0, 1e12);
    if (auto w = g->find("window")) gate.window_s = w->positive_duration_s();
    proxy.gate = gate;
  }
  if (auto limit = node.find("connection_limit")) {
    limit->allow_only({"max_tokens", "tokens_per_fill", "fill_interval"});
    TokenBucketSpec bucket;
    if (auto t = limit->find("max_tokens")) bucket.max_tokens = t->int_in(1, 1'000'000'000);
    if (auto t = limit->find("tokens_per_fill")) bucket.tokens_per_fill = t->int_in(1, 1'000'000'000);
    if (auto d = limit->find("fill_interval")) bucket.fill_interval_s = d->positive_duration_s();
    proxy.connection_limit = bucket;
  }
  return proxy;
}

// One direction of the HPA's behaviour; what is not given keeps Kubernetes' default, as the HPA
// controller fills in unset fields (pkg/apis/autoscaling/v2/defaults.go, GenerateHPAScaleUpRules).
ScalingRules parse_scaling_rules(const JsonNode& node, ScalingRules rules) {
  node.allow_only({"stabilization_window", "select", "policies"});
  if (auto w = node.find("stabilization_window")) {
    rules.stabilization_window_s = w->duration_s();
    if (rules.stabilization_window_s > 3600) w->fail("expected at most 3600 s (the HPA's bound on stabilizationWindowSeconds)");
  }
  if (auto select = node.find("select")) {
    const std::string p = select->string();
    if (p == "max")
      rules.select = PolicySelect::Max;
    else if (p == "min")
      rules.select = PolicySelect::Min;
    else if (p == "disabled")
      rules.select = PolicySelect::Disabled;
    else
      select->fail("expected \"max\", \"min\" or \"disabled\", got \"" + p + "\"");
  }
  if (auto policies = node.find("policies")) {
    rules.policies.clear();
    for (const JsonNode& p : policies->non_empty_elements()) {
      p.allow_only({"type", "value", "period"});
      ScalingPolicy policy;
      const std::string type = p.at("type").string();
      if (type == "pods")
        policy.kind = ScalingPolicyKind::Pods;
      else if (type == "percent")
        policy.kind = ScalingPolicyKind::Percent;
      else
        p.at("type").fail("expected \"pods\" or \"percent\", got \"" + type + "\"");
      policy.value = p.at("value").int_in(1, limits::kMaxServersPerGroup * 100);
      policy.period_s = p.at("period").positive_duration_s();
      if (policy.period_s > 1800) p.at("period").fail("expected at most 1800 s (the HPA's bound on periodSeconds)");
      rules.policies.push_back(policy);
    }
  }
  return rules;
}

ScalingMetric parse_scaling_metric(const JsonNode& node) {
  const std::string m = node.string();
  if (m == "supersonic_load") return ScalingMetric::SupersonicLoad;
  if (m == "queue_time_per_request") return ScalingMetric::QueueTimePerRequest;
  if (m == "gpu_utilization") return ScalingMetric::GpuUtilization;
  if (m == "in_flight_per_replica") return ScalingMetric::InFlightPerReplica;
  node.fail("expected \"supersonic_load\", \"queue_time_per_request\", \"gpu_utilization\" or "
            "\"in_flight_per_replica\", got \"" + m + "\"");
}

AutoscalingSpec parse_autoscaling(const JsonNode& node, int pool) {
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
    node.at("min_replicas").fail("expected at most " + std::to_string(pool) +
                                 " (the group's count: its GPU pool has that many servers)");
  }
  if (auto m = node.find("metric")) a.metric = parse_scaling_metric(*m);
  if (auto w = node.find("metric_window")) a.metric_window_s = w->positive_duration_s();
  a.hpa.target = node.at("threshold").number_in(0, 1e12);
  if (!(a.hpa.target > 0)) node.at("threshold").fail("expected a positive threshold");
  a.hpa.target_kind = MetricTarget::AverageValue;  // KEDA's default metricType
  if (auto t = node.find("metric_type")) {
    const std::string kind = t->string();
    if (kind == "Value")
      a.hpa.target_kind = MetricTarget::Value;
    else if (kind != "AverageValue")
      t->fail("expected \"Value\" or \"AverageValue\", got \"" + kind + "\"");
  }
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
  if (auto r = node.find("scale_up")) a.hpa.scale_up = parse_scaling_rules(*r, default_scale_up());
  if (auto r = node.find("scale_down")) a.hpa.scale_down = parse_scaling_rules(*r, default_scale_down());
  if (auto d = node.find("startup")) a.startup = parse_distribution(*d);
  if (auto r = node.find("readiness")) {
    r->allow_only({"initial_delay", "period"});
    if (auto d = r->find("initial_delay")) a.readiness_delay_s = d->duration_s();
    if (auto d = r->find("period")) a.readiness_period_s = at_least_a_second(*d);
  }
  if (auto d = node.find("prestop_sleep")) a.prestop_sleep_s = d->duration_s();
  if (auto d = node.find("grace_period")) a.grace_period_s = d->duration_s();
  return a;
}

ServerGroup parse_server_group(const JsonNode& node) {
  node.allow_only({"name", "count", "devices_per_server", "gpus_per_server", "device", "gpu", "nic", "models", "frontend",
                   "failures", "autoscaling"});
  ServerGroup group;
  group.name = host_prefix(node.at("name"));
  group.count = node.at("count").int_in(1, limits::kMaxServersPerGroup);
  group.gpus_per_server = either_name(node, "devices_per_server", "gpus_per_server", true)->int_in(1, limits::kMaxGpusPerServer);
  group.gpu_type = either_name(node, "device", "gpu", true)->name();
  group.nic = parse_link(node.at("nic"));
  for (const JsonNode& m : node.at("models").non_empty_elements()) {
    group.models.push_back(m.name());
    if (std::count(group.models.begin(), group.models.end(), group.models.back()) > 1)
      m.fail("model \"" + group.models.back() + "\" is listed twice (a server loads a model once)");
  }
  if (auto f = node.find("frontend")) {
    f->allow_only({"threads", "per_request", "input_bandwidth", "per_response", "output_bandwidth"});
    FrontendSpec frontend;
    if (auto t = f->find("threads")) frontend.threads = t->int_in(1, limits::kMaxFrontendThreads);
    if (auto d = f->find("per_request")) frontend.per_request_s = d->duration_s();
    if (auto b = f->find("input_bandwidth")) frontend.input_rate_Bps = b->bandwidth_Bps();
    if (auto d = f->find("per_response")) frontend.per_response_s = d->duration_s();
    if (auto b = f->find("output_bandwidth")) frontend.output_rate_Bps = b->bandwidth_Bps();
    group.frontend = frontend;
  }
  if (auto f = node.find("failures")) group.failures = parse_failures(*f);
  if (auto a = node.find("autoscaling")) {
    if (group.failures) a->fail("a group either fails or is autoscaled, not both (sonicsim simulates them apart)");
    group.autoscaling = parse_autoscaling(*a, group.count);
  }
  return group;
}

Platform parse_platform(const JsonNode& node) {
  node.allow_only({"worker_pools", "placement", "site_uplink", "wan", "servers", "load_balancing", "proxy",
                   "scrape_interval"});
  Platform platform;
  std::set<std::string> names;  // pools and groups share one namespace: their hosts' names
  for (const JsonNode& p : node.at("worker_pools").non_empty_elements()) {
    platform.worker_pools.push_back(parse_worker_pool(p));
    if (!names.insert(platform.worker_pools.back().name).second) p.at("name").fail("duplicate worker pool name");
  }
  if (auto placement = node.find("placement")) {
    const std::string p = placement->string();
    if (p == "fill")
      platform.placement = JobPlacement::Fill;
    else if (p == "spread")
      platform.placement = JobPlacement::Spread;
    else
      placement->fail("expected \"fill\" or \"spread\", got \"" + p + "\"");
  }
  platform.site_uplink = parse_link(node.at("site_uplink"));
  if (auto wan = node.find("wan")) platform.wan = parse_link(*wan);
  std::int64_t hosts = 0;
  for (const WorkerPool& pool : platform.worker_pools) hosts += pool.nodes;
  for (const JsonNode& s : node.at("servers").elements()) {
    platform.servers.push_back(parse_server_group(s));
    const ServerGroup& group = platform.servers.back();
    if (!names.insert(group.name).second)
      s.at("name").fail("\"" + group.name + "\" already names a worker pool or server group (their hosts share names)");
    hosts += static_cast<std::int64_t>(group.count) * (1 + group.gpus_per_server);
    if (hosts > limits::kMaxHosts)
      s.fail("the platform has more than " + std::to_string(limits::kMaxHosts) +
             " hosts (worker nodes, servers and GPUs), the most sonicsim simulates");
  }
  if (auto lb = node.find("load_balancing")) {
    const std::string p = lb->string();
    if (p == "per_job")
      platform.load_balancing = LoadBalancing::PerJob;
    else if (p == "round_robin")
      platform.load_balancing = LoadBalancing::RoundRobin;
    else if (p == "random")
      platform.load_balancing = LoadBalancing::Random;
    else if (p == "least_request")
      platform.load_balancing = LoadBalancing::LeastRequest;
    else
      lb->fail("expected \"per_job\", \"round_robin\", \"random\" or \"least_request\", got \"" + p + "\"");
  }
  if (auto scrape = node.find("scrape_interval")) platform.scrape_interval_s = scrape->positive_duration_s();
  if (auto proxy = node.find("proxy")) {
    platform.proxy = parse_proxy(*proxy);
    // A job configured with one server address does not go through a proxy.
    if (platform.load_balancing == LoadBalancing::PerJob)
      proxy->fail("a proxy balances requests: expected /platform/load_balancing \"round_robin\", \"random\" or "
                  "\"least_request\" with it");
  }
  const JsonNode groups = node.at("servers");
  int autoscaled = 0;
  for (std::size_t g = 0; g < platform.servers.size(); ++g) {
    if (!platform.servers[g].autoscaling) continue;
    const JsonNode a = groups.elements()[g].at("autoscaling");
    if (++autoscaled > 1) a.fail("only one server group may be autoscaled");
    if (!platform.proxy)
      a.fail("KEDA scales pods behind an Envoy proxy, which learns of them by DNS: expected /platform/proxy");
  }
  return platform;
}

// Bytes per item: a bare number, as always, or, where the scenario leaves it out, from the model's
// tensors (inline "input"/"output", or its config.pbtxt). Only a model whose input bytes come from
// its tensors can have a variable dim (a padded or ragged layout); with bare input bytes its
// requests are fixed-size, as before tensors were read.
void read_model_bytes(const JsonNode& node, ModelSpec& model) {
  const bool input_from_shapes = !node.find("input_bytes_per_item");
  const auto bytes_of = [&](const char* key, const ItemBytes* from_shapes) {
    if (auto bare = node.find(key)) return ItemBytes{bare->bytes(), 0, {}, true};
    if (!from_shapes || !from_shapes->given)
      node.fail(std::string("expected \"") + key + "\", or the model's tensors (\"input\" and \"output\" here, or in "
                "its config.pbtxt) to compute it from");
    if (!from_shapes->unknown.empty()) throw InputError(from_shapes->unknown);
    if (from_shapes->variable() && !input_from_shapes)
      node.at("input_bytes_per_item").fail("the model's outputs have a variable (-1) dim: its bytes must come from its "
                                           "tensors too (drop \"input_bytes_per_item\")");
    return *from_shapes;
  };
  const ItemBytes input = bytes_of("input_bytes_per_item", model.shapes ? &model.shapes->input : nullptr);
  const ItemBytes output = bytes_of("output_bytes_per_item", model.shapes ? &model.shapes->output : nullptr);
  // A request carries at least its header; SimGrid never completes a transfer of 0 bytes between hosts.
  if (!(input.fixed_bytes > 0 || input.per_element_bytes > 0)) {
    if (auto bare = node.find("input_bytes_per_item")) bare->fail("expected a positive data size");
    node.fail("expected input tensors of a positive size");
  }
  model.input_bytes_per_item = input.fixed_bytes;
  model.input_bytes_per_element = input.per_element_bytes;
  model.output_bytes_per_item = output.fixed_bytes;
  model.output_bytes_per_element = output.per_element_bytes;
  if (model.shapes && input_from_shapes) model.layout = model.shapes->layout;
}

ModelSpec parse_model(const std::string& name, const JsonNode& node, const Platform& platform,
                      LatencyContext& latency_context) {
  const std::string& file = latency_context.scenario_file;
  node.allow_only({"input_bytes_per_item", "output_bytes_per_item", "max_batch_size", "instances_per_device", "instances_per_gpu",
                   "triton_config", "dynamic_batching", "instance_group", "batcher_wakeup", "kernel_latency",
                   "kernel_latency_by_device", "kernel_latency_by_gpu", "input", "output"});
  ModelSpec model;
  model.name = name;
  if (node.find("triton_config"))
    for (const char* key : {"input", "output"})
      if (auto conflicting = node.find(key))
        conflicting->fail(std::string("\"") + key + "\" cannot be used with \"triton_config\": the file gives the tensors");
  read_model_triton_settings(node, platform, file, model);
  read_model_bytes(node, model);
  if (auto k = node.find("kernel_latency")) model.kernel_latency = parse_kernel_latency(*k, latency_context);
  if (auto by_gpu = either_name(node, "kernel_latency_by_device", "kernel_latency_by_gpu", false)) {
    for (const std::string& gpu : by_gpu->keys())
      model.kernel_latency_by_gpu.emplace(gpu, parse_kernel_latency(by_gpu->at(gpu), latency_context));
  }
  if (!model.kernel_latency && model.kernel_latency_by_gpu.empty())
    node.fail("expected \"kernel_latency\" or \"kernel_latency_by_device\" (\"kernel_latency_by_gpu\") for model \"" + name + "\"");
  check_cpu_instance_latency(node, model);
  return model;
}

Module parse_module(const JsonNode& node, const Scenario& scenario) {
  const std::string type = node.at("type").string();
  if (type == "cpu") {
    node.allow_only({"type", "name", "time"});
    return CpuModule{node.at("name").name(), parse_distribution(node.at("time"))};
  }
  if (type == "inference") {
    node.allow_only({"type", "name", "model", "items_per_event", "elements_per_item", "items_per_request", "preprocess", "in_flight",
                     "cpu_fallback", "priority", "timeout", "allowed_tries", "client_timeout", "on_failure",
                     "fallback_scope"});
    InferenceModule m;
    m.name = node.at("name").name();
    const JsonNode model = node.at("model");
    m.model = scenario.model_index(model.string());
    if (m.model < 0) model.fail("unknown model \"" + model.string() + "\" (not defined under /models)");
    m.items_per_event = parse_item_count(node.at("items_per_event"));
    const ModelSpec& spec = scenario.models[static_cast<std::size_t>(m.model)];
    if (auto elements = node.find("elements_per_item")) {
      if (spec.layout == TensorLayout::Fixed)
        elements->fail("model \"" + spec.name + "\" has no variable (-1) dim: its items have no element count");
      m.elements_per_item = parse_item_count(*elements);
      // SimGrid never completes a transfer of 0 bytes: an item without elements needs fixed bytes.
      if (spec.input_bytes_per_item == 0 && probabilities(*m.elements_per_item).front().first == 0)
        elements->fail("model \"" + spec.name + "\" sends only its variable dim: an item of 0 elements would be a request "
                       "of 0 bytes; expected a count that is never 0");
    } else if (spec.layout != TensorLayout::Fixed) {
      node.fail("model \"" + spec.name + "\" has a variable (-1) dim: expected \"elements_per_item\" (an integer or a "
                "count distribution)");
    }
    m.items_per_request = node.at("items_per_request").int_at_least(1);
    m.preprocess = parse_distribution(node.at("preprocess"));
    m.in_flight = node.at("in_flight").int_in(1, limits::kMaxInFlight);
    if (auto fallback = node.find("cpu_fallback")) m.cpu_fallback = parse_distribution(*fallback);
    if (auto priority = node.find("priority")) m.priority = priority->int_at_least(0);
    if (auto timeout = node.find("timeout")) m.timeout_s = timeout->duration_s();
    // SonicClientBase: allowedTries 0 and 1 both make one attempt.
    if (auto tries = node.find("allowed_tries")) m.allowed_tries = std::max(1, tries->int_in(0, limits::kMaxAllowedTries));
    if (auto timeout = node.find("client_timeout")) m.client_timeout_s = timeout->positive_duration_s();
    if (auto on_failure = node.find("on_failure")) {
      const std::string action = on_failure->string();
      if (action == "fail_job")
        m.on_failure = OnFailure::FailJob;
      else if (action == "fallback")
        m.on_failure = OnFailure::Fallback;
      else if (action == "failover")
        m.on_failure = OnFailure::Failover;
      else
        on_failure->fail("expected \"fail_job\", \"fallback\" or \"failover\", got \"" + action + "\"");
      if (m.on_failure == OnFailure::Fallback && !m.cpu_fallback)
        node.fail("\"on_failure\": \"fallback\" runs the module on the CPU: expected a \"cpu_fallback\" time");
    }
    if (auto scope = node.find("fallback_scope")) {
      const std::string s = scope->string();
      if (s == "event")
        m.fallback_scope = FallbackScope::Event;
      else if (s == "job")
        m.fallback_scope = FallbackScope::Job;
      else
        scope->fail("expected \"event\" or \"job\", got \"" + s + "\"");
      if (m.on_failure != OnFailure::Fallback) scope->fail("expected only with \"on_failure\": \"fallback\"");
    }
    return m;
  }
  node.at("type").fail("expected \"cpu\" or \"inference\", got \"" + type + "\"");
}

StartPattern parse_start(const JsonNode& node) {
  const std::string pattern = node.at("pattern").string();
  if (pattern == "all_at_once") {
    node.allow_only({"pattern"});
    return StartAllAtOnce{};
  }
  if (pattern == "staggered") {
    node.allow_only({"pattern", "interval"});
    return StartStaggered{node.at("interval").duration_s()};
  }
  if (pattern == "spread") {
    node.allow_only({"pattern", "window"});
    return StartSpread{node.at("window").duration_s()};
  }
  if (pattern == "waves") {
    node.allow_only({"pattern", "jobs_per_wave", "period"});
    return StartWaves{node.at("jobs_per_wave").int_at_least(1), node.at("period").duration_s()};
  }
  node.at("pattern").fail("expected \"all_at_once\", \"staggered\", \"spread\" or \"waves\", got \"" + pattern + "\"");
}

SubmitPattern parse_submit(const JsonNode& node, const std::string& scenario_file) {
  const std::string pattern = node.at("pattern").string();
  if (pattern == "poisson") {
    node.allow_only({"pattern", "mean_interval"});
    return SubmitPoisson{node.at("mean_interval").positive_duration_s()};
  }
  if (pattern == "trace") {
    node.allow_only({"pattern", "file"});
    SubmitTrace trace;
    trace.file = path_beside(scenario_file, node.at("file").string());
    for (const TracedJob& job : read_job_trace(trace.file)) {
      trace.submit_s.push_back(job.submit_s);
      trace.events.push_back(job.events);
    }
    return trace;
  }
  if (pattern != "all_at_once" && pattern != "staggered" && pattern != "spread" && pattern != "waves")
    node.at("pattern").fail("expected \"all_at_once\", \"staggered\", \"spread\", \"waves\", \"poisson\" or "
                            "\"trace\", got \"" + pattern + "\"");
  return std::visit([](const auto& p) -> SubmitPattern { return p; }, parse_start(node));
}

EventCount parse_event_count(const JsonNode& node) {
  constexpr int kMost = static_cast<int>(limits::kMaxEvents);
  if (!node.raw().is_object()) return node.int_in(1, kMost);
  const std::string kind = node.at("distribution").string();
  if (kind == "uniform") {
    node.allow_only({"distribution", "min", "max"});
    UniformCount count{node.at("min").int_in(1, kMost), node.at("max").int_in(1, kMost)};
    if (count.max < count.min) node.at("max").fail("expected a maximum no smaller than the minimum");
    return count;
  }
  if (kind == "empirical") {
    node.allow_only({"distribution", "samples"});
    EmpiricalCount count;
    for (const JsonNode& n : node.at("samples").non_empty_elements())
      count.samples.push_back(n.int_in(1, kMost));
    return count;
  }
  node.at("distribution").fail("expected \"uniform\" or \"empirical\" (events per job), got \"" + kind + "\"");
}

Workload parse_workload(const JsonNode& node, const Scenario& scenario) {
  node.allow_only({"jobs", "events_per_job", "duration", "warmup", "start", "submit", "resubmit", "modules"});
  Workload w;
  const auto start = node.find("start");
  const auto submit = node.find("submit");
  if (start.has_value() == submit.has_value())
    node.fail("expected exactly one of \"start\" (a static farm: one job per core) and \"submit\" (jobs from a batch "
              "system, queued for free cores)");
  if (start) w.start = parse_start(*start);
  if (submit) w.submit = parse_submit(*submit, scenario.file);
  const auto* trace = w.submit ? std::get_if<SubmitTrace>(&*w.submit) : nullptr;
  if (trace && !node.has("jobs")) {
    w.jobs = static_cast<int>(trace->submit_s.size());
  } else {
    const JsonNode jobs = node.at("jobs");
    w.jobs = w.submit ? jobs.int_in(1, static_cast<int>(limits::kMaxSubmittedJobs)) : jobs.int_at_least(1);
    if (trace && static_cast<std::size_t>(w.jobs) > trace->submit_s.size())
      jobs.fail("expected at most the " + std::to_string(trace->submit_s.size()) + " jobs of the trace " + trace->file);
  }
  const auto events = node.find("events_per_job");
  const auto duration = node.find("duration");
  if (events.has_value() == duration.has_value())
    node.fail("expected exactly one of \"events_per_job\" and \"duration\"");
  if (events) w.events_per_job = parse_event_count(*events);
  if (duration) w.duration_s = duration->positive_duration_s();
  if (auto resubmit = node.find("resubmit")) {
    if (!w.submit) resubmit->fail("expected only with \"submit\": a batch system resubmits failed jobs");
    w.resubmit = resubmit->int_in(0, limits::kMaxResubmit);
  }
  if (auto warmup = node.find("warmup")) w.warmup_s = warmup->duration_s();
  if (w.duration_s && w.warmup_s >= *w.duration_s) node.at("warmup").fail("expected a warm-up shorter than the duration");
  for (const JsonNode& m : node.at("modules").non_empty_elements()) w.modules.push_back(parse_module(m, scenario));
  return w;
}

// A fraction: a number, or a percentage written "1%".
double fraction_or_percent(const JsonNode& node) {
  if (node.raw().is_string()) {
    const std::string text = node.string();
    char* end = nullptr;
    const double percent = text.ends_with('%') ? std::strtod(text.c_str(), &end) : std::nan("");
    if (!(end == text.c_str() + text.size() - 1 && std::isfinite(percent)))
      node.fail("expected a fraction (0.01) or a percentage (\"1%\"), got \"" + text + "\"");
    return percent / 100;
  }
  return node.number();
}

StoppingRule parse_stopping_rule(const JsonNode& node) {
  node.allow_only({"relative_half_width", "max_time"});
  StoppingRule rule;
  const JsonNode width = node.at("relative_half_width");
  rule.relative_half_width = fraction_or_percent(width);
  if (!(rule.relative_half_width > 0 && rule.relative_half_width < 1))
    width.fail("expected a relative half-width above 0 and below 1 (100%)");
  if (auto t = node.find("max_time")) rule.max_time_s = t->positive_duration_s();
  return rule;
}

SimulationOptions parse_simulation(const JsonNode& node) {
  node.allow_only({"seed", "network", "stack_size", "outputs", "latency_quantile", "stop_at_precision"});
  SimulationOptions options;
  options.seed = node.at("seed").unsigned_integer();
  if (auto q = node.find("latency_quantile")) {
    options.latency_quantile = q->number();
    if (!(*options.latency_quantile > 0 && *options.latency_quantile < 1))
      q->fail("expected a quantile level strictly between 0 and 1");
  }
  if (auto rule = node.find("stop_at_precision")) options.stop_at_precision = parse_stopping_rule(*rule);
  if (auto net = node.find("network")) {
    net->allow_only({"model", "tcp_gamma", "crosstraffic", "latency_factor", "bandwidth_factor"});
    if (auto m = net->find("model")) {
      options.network.model = m->string();
      if (options.network.model != "CM02" && options.network.model != "LV08")
        m->fail("expected \"CM02\" or \"LV08\", got \"" + options.network.model + "\"");
    }
    if (auto g = net->find("tcp_gamma")) options.network.tcp_gamma_bytes = g->bytes();
    if (auto c = net->find("crosstraffic")) options.network.crosstraffic = c->boolean();
    if (auto f = net->find("latency_factor")) options.network.latency_factor = f->number_in(limits::kMinFactor, limits::kMaxFactor);
    if (auto f = net->find("bandwidth_factor"))
      options.network.bandwidth_factor = f->number_in(limits::kMinFactor, limits::kMaxFactor);
  }
  if (auto stack = node.find("stack_size")) {
    const double bytes = stack->bytes();
    if (!(bytes >= 16 * 1024 && bytes <= limits::kMaxStackBytes)) stack->fail("expected a stack size from 16KiB to 64MiB");
    options.stack_size_kib = static_cast<int>(bytes / 1024);
  }
  if (auto outputs = node.find("outputs")) {
    options.outputs = Outputs{false, false, false, false, false, false};
    for (const JsonNode& o : outputs->elements()) {
      const std::string name = o.string();
      if (name == "events")
        options.outputs.events = true;
      else if (name == "requests")
        options.outputs.requests = true;
      else if (name == "batches")
        options.outputs.batches = true;
      else if (name == "metrics")
        options.outputs.metrics = true;
      else if (name == "jobs")
        options.outputs.jobs = true;
      else if (name == "timeseries")
        options.outputs.timeseries = true;
      else
        o.fail("expected one of \"events\", \"requests\", \"batches\", \"metrics\", \"jobs\", \"timeseries\", got \"" +
               name + "\"");
    }
  }
  return options;
}

bool is_served(const Scenario& s, const std::string& model) {
  for (const ServerGroup& group : s.platform.servers)
    for (const std::string& name : group.models)
      if (name == model) return true;
  return false;
}

void check_consistency(const JsonNode& root, Scenario& s) {
  // Every served model must exist and have a latency model for the group's GPU type.
  const JsonNode servers = root.at("platform").at("servers");
  for (std::size_t g = 0; g < s.platform.servers.size(); ++g) {
    const ServerGroup& group = s.platform.servers[g];
    const JsonNode models = servers.elements()[g].at("models");
    for (std::size_t i = 0; i < group.models.size(); ++i) {
      const int m = s.model_index(group.models[i]);
      if (m < 0) models.elements()[i].fail("unknown model \"" + group.models[i] + "\" (not defined under /models)");
      const ModelSpec& model = s.models[m];
      if (!model.kernel_latency && !model.kernel_latency_by_gpu.count(group.gpu_type))
        root.at("models").at(model.name).fail("no kernel latency for device type \"" + group.gpu_type +
                                               "\" (served by server group \"" + group.name + "\")");
    }
  }
  if (s.perf_analyzer) {
    const std::string& model = s.models[s.perf_analyzer->model].name;
    if (!is_served(s, model)) root.at("perf_analyzer").at("model").fail("model \"" + model + "\" is served by no server group");
    // perf_analyzer's clients stop at the first error; sonicsim models them on a farm that does not fail.
    if (s.platform.proxy) root.at("platform").at("proxy").fail("a proxy is for grid jobs: perf_analyzer talks to the servers");
    for (std::size_t g = 0; g < s.platform.servers.size(); ++g)
      if (s.platform.servers[g].failures)
        servers.elements()[g].at("failures").fail("server failures are for grid jobs: perf_analyzer stops at its first error");
    return;
  }
  // A model that no server serves needs a CPU fallback time; so does every model of a gated farm.
  const auto modules = root.at("workload").at("modules").elements();
  for (std::size_t i = 0; i < s.workload.modules.size(); ++i) {
    const auto* inference = std::get_if<InferenceModule>(&s.workload.modules[i]);
    if (!inference) continue;
    if (s.platform.proxy && s.platform.proxy->gate && !inference->cpu_fallback)
      modules[i].fail("a job the saturation gate refuses runs this module on its CPU: expected a \"cpu_fallback\" time");
    if (s.platform.proxy && s.platform.proxy->connection_limit && !inference->cpu_fallback)
      modules[i].fail("a job whose connection the proxy refuses runs this module on its CPU: expected a \"cpu_fallback\" time");
    if (!is_served(s, s.models[inference->model].name) && !inference->cpu_fallback)
      modules[i].fail("model \"" + s.models[inference->model].name +
                      "\" is served by no server group: expected a \"cpu_fallback\" time");
  }
  if (!s.workload.submit && s.workload.jobs > s.total_worker_cores())
    root.at("workload").at("jobs").fail("expected at most " + std::to_string(s.total_worker_cores()) +
                                        " jobs (the worker pools have that many cores; one job per core)");
}

}  // namespace

Scenario parse_scenario(const json& document, const std::string& file) {
  const JsonNode root(document, "", file);
  root.allow_only({"name", "description", "platform", "models", "workload", "perf_analyzer", "simulation", "costs"});
  Scenario s;
  s.file = file;
  s.name = root.at("name").string();
  if (auto d = root.find("description")) s.description = d->string();
  s.simulation = parse_simulation(root.at("simulation"));  // first: the latency quantile applies to the models
  s.platform = parse_platform(root.at("platform"));
  const JsonNode models = root.at("models");
  LatencyContext latency_context{file, s.simulation.latency_quantile};
  for (const std::string& name : models.keys())
    s.models.push_back(parse_model(name, models.at(name), s.platform, latency_context));
  if (s.simulation.latency_quantile && latency_context.calibrated_count == 0)
    root.at("simulation").at("latency_quantile").fail(
        "expected a model with a \"calibrated\" kernel_latency: the quantile selects a curve from a calibration's "
        "uncertainty band");
  if (root.has("workload") == root.has("perf_analyzer"))
    root.fail("expected exactly one of \"workload\" (grid jobs) and \"perf_analyzer\" (a perf_analyzer-like load)");
  if (root.has("workload"))
    s.workload = parse_workload(root.at("workload"), s);
  else
    s.perf_analyzer = parse_perf_analyzer(root.at("perf_analyzer"), s.models);
  if (s.perf_analyzer && s.simulation.stop_at_precision)
    root.at("simulation").at("stop_at_precision").fail(
        "a stopping rule is for grid-job workloads (their per-event time), not a perf_analyzer load");
  if (auto costs = root.find("costs")) {
    costs->allow_only({"currency", "cpu_core_hour", "device_hour", "gpu_hour", "target_events_per_hour"});
    Costs c;
    c.currency = costs->at("currency").string();
    c.cpu_core_hour = costs->at("cpu_core_hour").number_at_least(0);
    c.gpu_hour = either_name(*costs, "device_hour", "gpu_hour", true)->number_at_least(0);
    if (auto target = costs->find("target_events_per_hour")) c.target_events_per_hour = target->number_positive();
    s.costs = c;
  }
  s.device_naming = read_device_naming(root);
  check_consistency(root, s);
  check_scenario_size(root, s);
  return s;
}

Scenario load_scenario(const std::string& path, const std::vector<std::pair<std::string, std::string>>& overrides) {
  json document = read_json_file(path);
  for (const auto& [pointer, value] : overrides) apply_override(document, pointer, value, path);
  return parse_scenario(document, path);
}

}  // namespace sonicsim
