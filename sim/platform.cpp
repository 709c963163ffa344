#include "sim/platform.hpp"

#include <algorithm>

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;
namespace {

sg4::SplitDuplexLink* make_link(sg4::NetZone* zone, const std::string& name, const LinkSpec& spec) {
  auto* link = zone->create_split_duplex_link(name, spec.bandwidth_Bps);
  link->set_latency(spec.latency_s);
  link->seal();
  return link;
}

// In a star zone, the route of a node is its link to the centre; traffic between two nodes
// crosses the link of each.
void attach(sg4::NetZone* star, simgrid::kernel::routing::NetPoint* point, sg4::SplitDuplexLink* link) {
  std::vector<sg4::LinkInRoute> links;
  if (link) links.emplace_back(link, sg4::LinkInRoute::Direction::UP);
  star->add_route(point, nullptr, nullptr, nullptr, links, true);
}

// Triton runs each CPU-kind instance on its own thread: a server gets a core for each.
int cpu_instances(const Scenario& scenario, const ServerGroup& group) {
  int count = 0;
  for (const std::string& name : group.models) {
    const ModelSpec& model = scenario.models[scenario.model_index(name)];
    for (const triton::InstanceGroup& g : model.triton.instance_groups)
      if (!g.passive && (g.kind == triton::InstanceKind::Cpu || g.kind == triton::InstanceKind::Model))
        count += g.count;
  }
  return count;
}

}  // namespace

FarmPlatform build_platform(const Scenario& scenario) {
  const Platform& spec = scenario.platform;
  FarmPlatform farm;

  auto* root = sg4::create_full_zone("farm");

  auto* site = sg4::create_star_zone("site");
  site->set_parent(root);
  auto* site_gateway = site->create_router("site-gateway");
  attach(site, site_gateway, nullptr);
  for (std::size_t p = 0; p < spec.worker_pools.size(); ++p) {
    const WorkerPool& pool = spec.worker_pools[p];
    for (int n = 0; n < pool.nodes; ++n) {
      const std::string name = worker_node_name(pool, n);
      auto* host = site->create_host(name, pool.cpu_speed * kReferenceSpeed);
      host->set_core_count(pool.cores_per_node);
      host->seal();
      auto* nic = make_link(site, "nic:" + name, pool.nic);
      attach(site, host->get_netpoint(), nic);
      farm.workers.push_back({host, static_cast<int>(p), pool.cores_per_node});
      farm.worker_nics.push_back(nic->get_link_up());
      farm.worker_nics.push_back(nic->get_link_down());
    }
  }
  site->seal();

  auto* datacentre = sg4::create_star_zone("datacentre");
  datacentre->set_parent(root);
  auto* dc_gateway = datacentre->create_router("datacentre-gateway");
  attach(datacentre, dc_gateway, nullptr);
  for (std::size_t g = 0; g < spec.servers.size(); ++g) {
    const ServerGroup& group = spec.servers[g];
    for (int i = 0; i < group.count; ++i) {
      ServerNode server;
      server.name = server_name(group, i);
      server.group = static_cast<int>(g);
      server.host = datacentre->create_host(server.name, kReferenceSpeed);
      server.host->set_core_count(std::max(1, cpu_instances(scenario, group)));  // one core per CPU instance
      server.host->seal();
      attach(datacentre, server.host->get_netpoint(), make_link(datacentre, "nic:" + server.name, group.nic));
      for (int k = 0; k < group.gpus_per_server; ++k) {
        auto* gpu = datacentre->create_host(server.name + "/gpu" + std::to_string(k), kReferenceSpeed);
        gpu->seal();
        server.gpus.push_back(gpu);
      }
      farm.servers.push_back(std::move(server));
    }
  }
  if (spec.proxy) {  // one core per Envoy worker thread
    farm.proxy = datacentre->create_host("proxy", kReferenceSpeed);
    farm.proxy->set_core_count(spec.proxy->threads);
    farm.proxy->seal();
    attach(datacentre, farm.proxy->get_netpoint(), make_link(datacentre, "nic:proxy", spec.proxy->nic));
  }
  datacentre->seal();

  // Between the zones: the site uplink, then the WAN if the servers are off site.
  std::vector<sg4::LinkInRoute> between{
      {make_link(root, "site-uplink", spec.site_uplink), sg4::LinkInRoute::Direction::UP}};
  if (spec.wan) between.emplace_back(make_link(root, "wan", *spec.wan), sg4::LinkInRoute::Direction::UP);
  root->add_route(site->get_netpoint(), datacentre->get_netpoint(), site_gateway, dc_gateway, between, true);
  root->seal();
  return farm;
}

}  // namespace sonicsim::sim
