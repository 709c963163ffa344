#include "models/scenario/reader/platform/platform_reader.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>

#include "models/io/json/choice.hpp"
#include "models/io/limits.hpp"
#include "models/scenario/device_naming.hpp"
#include "models/scenario/reader/platform/autoscaling_reader.hpp"
#include "models/scenario/reader/platform/platform_choices.hpp"
#include "models/scenario/reader/platform/proxy_reader.hpp"
#include "models/scenario/reader/request_path_reader.hpp"
#include "models/scenario/reader/value_readers.hpp"

namespace sonicsim {
namespace {

constexpr Choice<JobPlacement> kPlacements[]{{"fill", JobPlacement::Fill}, {"spread", JobPlacement::Spread}};

// Worker pools and server groups name hosts ("NAME-3", "NAME-0/gpu1") and output files.
std::string host_prefix(const JsonNode& node) {
  const std::string name = node.name();
  if (name.size() > 64 ||
      name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != std::string::npos)
    node.fail("expected a name of at most 64 letters, digits, '.', '_' or '-' (it names hosts and files), got \"" +
              name + "\"");
  return name;
}

WorkerPool read_worker_pool(const JsonNode& node) {
  node.allow_only({"name", "nodes", "cores_per_node", "cpu_speed", "nic"});
  WorkerPool pool;
  pool.name = host_prefix(node.at("name"));
  pool.nodes = node.at("nodes").int_in(1, limits::kMaxNodesPerPool);
  pool.cores_per_node = node.at("cores_per_node").int_in(1, limits::kMaxCoresPerNode);
  pool.cpu_speed = node.at("cpu_speed").number_in(limits::kMinCpuSpeed, limits::kMaxCpuSpeed);
  pool.nic = read_link(node.at("nic"));
  return pool;
}

ServerFailures read_failures(const JsonNode& node) {
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
    failures.time_between = read_distribution(*between);
    if (!(mean(*failures.time_between) > 0)) between->fail("expected a positive mean time between failures");
    if (!node.has("repair"))
      node.fail(
          "expected a \"repair\" time with \"time_between\" (servers that never come back fail once: use \"at\")");
  }
  if (auto repair = node.find("repair")) failures.repair = read_distribution(*repair);
  return failures;
}

// A measured overlap fraction and the occupancies derived from the latency curves are two models of
// the same sharing: a group has one of them.
void read_kernel_sharing(const JsonNode& node, ServerGroup& group) {
  if (auto f = node.find("kernel_overlap")) group.kernel_overlap = f->number_in(0, 1);
  if (auto sharing = node.find("kernel_sharing")) {
    group.kernel_sharing = sharing->choice(kKernelSharing);
    if (group.kernel_sharing == KernelSharing::Occupancy && group.kernel_overlap)
      sharing->fail(
          "\"occupancy\" derives how kernels overlap from their latency curves, and \"kernel_overlap\" gives "
          "it as a measured fraction: expected one of the two");
  }
  if (auto s = node.find("kernel_interference")) {
    if (group.kernel_sharing != KernelSharing::Occupancy)
      s->fail("an interference cost per concurrent execution goes with \"kernel_sharing\": \"occupancy\"");
    group.kernel_interference = s->number_in(0, limits::kMaxFactor);
  }
  if (auto c = node.find("kernel_switch_cost")) group.kernel_switch_cost_s = c->duration_s();
}

ServerGroup read_server_group(const JsonNode& node) {
  // "supersonic_values" is expanded before (reader/supersonic/): here it can only be null.
  node.allow_only({"name", "count", "devices_per_server", "gpus_per_server", "device", "gpu", "nic", "models",
                   "frontend", "failures", "autoscaling", "kernel_overlap", "kernel_sharing", "kernel_interference",
                   "kernel_switch_cost", "supersonic_values"});
  ServerGroup group;
  group.name = host_prefix(node.at("name"));
  group.count = node.at("count").int_in(1, limits::kMaxServersPerGroup);
  group.gpus_per_server =
      either_name(node, "devices_per_server", "gpus_per_server", true)->int_in(1, limits::kMaxGpusPerServer);
  group.gpu_type = either_name(node, "device", "gpu", true)->name();
  group.nic = read_link(node.at("nic"));
  for (const JsonNode& m : node.at("models").non_empty_elements()) {
    group.models.push_back(m.name());
    if (std::count(group.models.begin(), group.models.end(), group.models.back()) > 1)
      m.fail("model \"" + group.models.back() + "\" is listed twice (a server loads a model once)");
  }
  if (auto f = node.find("frontend")) group.frontend = read_frontend(*f);
  read_kernel_sharing(node, group);
  if (auto f = node.find("failures")) group.failures = read_failures(*f);
  if (auto a = node.find("autoscaling")) {
    if (group.failures) a->fail("a group either fails or is autoscaled, not both (sonicsim simulates them apart)");
    group.autoscaling = read_autoscaling(*a, group.count);
  }
  return group;
}

// What the proxy and the autoscaled group need from the rest of the platform.
void check_proxy_and_autoscaling(const JsonNode& node, const Platform& platform) {
  if (auto proxy = node.find("proxy")) {
    // A job configured with one server address does not go through a proxy.
    if (platform.load_balancing == LoadBalancing::PerJob)
      proxy->fail("a proxy balances requests: expected /platform/load_balancing " +
                  choice_list_except(kLoadBalancing, LoadBalancing::PerJob) + " with it");
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
}

}  // namespace

Platform read_platform(const JsonNode& node) {
  node.allow_only(
      {"worker_pools", "placement", "site_uplink", "wan", "servers", "load_balancing", "proxy", "scrape_interval"});
  Platform platform;
  std::set<std::string> names;  // pools and groups share one namespace: their hosts' names
  for (const JsonNode& p : node.at("worker_pools").non_empty_elements()) {
    platform.worker_pools.push_back(read_worker_pool(p));
    if (!names.insert(platform.worker_pools.back().name).second) p.at("name").fail("duplicate worker pool name");
  }
  if (auto placement = node.find("placement")) platform.placement = placement->choice(kPlacements);
  platform.site_uplink = read_link(node.at("site_uplink"));
  if (auto wan = node.find("wan")) platform.wan = read_link(*wan);
  std::int64_t hosts = 0;
  for (const WorkerPool& pool : platform.worker_pools) hosts += pool.nodes;
  for (const JsonNode& s : node.at("servers").elements()) {
    platform.servers.push_back(read_server_group(s));
    const ServerGroup& group = platform.servers.back();
    if (!names.insert(group.name).second)
      s.at("name").fail("\"" + group.name + "\" already names a worker pool or server group (their hosts share names)");
    hosts += static_cast<std::int64_t>(group.count) * (1 + group.gpus_per_server);
    if (hosts > limits::kMaxHosts)
      s.fail("the platform has more than " + std::to_string(limits::kMaxHosts) +
             " hosts (worker nodes, servers and GPUs), the most sonicsim simulates");
  }
  if (auto lb = node.find("load_balancing")) platform.load_balancing = lb->choice(kLoadBalancing);
  if (auto scrape = node.find("scrape_interval")) platform.scrape_interval_s = scrape->positive_duration_s();
  if (auto proxy = node.find("proxy")) platform.proxy = read_proxy(*proxy);
  check_proxy_and_autoscaling(node, platform);
  return platform;
}

}  // namespace sonicsim
