#pragma once
// The scenario's /platform: the worker pools the jobs run on, the network, the server groups (their
// frontend, failures and autoscaling), how requests are balanced, and the proxy.
#include <optional>
#include <string>
#include <vector>

#include "models/control/request_balancer.hpp"
#include "models/scenario/autoscaling.hpp"
#include "models/scenario/link.hpp"
#include "models/scenario/proxy.hpp"
#include "models/scenario/request_path.hpp"
#include "models/workload/distribution.hpp"

namespace sonicsim {

enum class JobPlacement { Fill, Spread };

struct WorkerPool {
  std::string name;
  int nodes = 0;
  int cores_per_node = 0;
  double cpu_speed = 1.0;  // relative to the reference CPU on which module times are given
  LinkSpec nic;
};

// The host of node `n` of a worker pool, as the platform names it and jobs.csv shows it.
inline std::string worker_node_name(const WorkerPool& pool, int n) { return pool.name + "-" + std::to_string(n); }

// When the servers of a group fail and come back. A failing server loses its queue and the batches
// it is running; it answers nothing until it restarts, empty, after its repair time.
struct ServerFailures {
  std::vector<double> at_s;                  // every server of the group fails at these times (if up)
  std::optional<Distribution> time_between;  // or: up time before each failure, drawn per server
  std::optional<Distribution> repair;        // down time before the restart; unset: never comes back
};

// How a group's device runs the executions of its server's instances at once: time-sliced, or side
// by side by the share of the device each needs (scenarios/README.md, "Kernels sharing a device").
enum class KernelSharing { TimeSlicing, Occupancy };

struct ServerGroup {
  std::string name;
  int count = 1;
  int gpus_per_server = 1;
  std::string gpu_type;
  LinkSpec nic;
  std::vector<std::string> models;       // the models this group serves
  std::optional<FrontendSpec> frontend;  // absent: requests reach the scheduler the moment they arrive
  std::optional<ServerFailures> failures;
  std::optional<AutoscalingSpec> autoscaling;
  // How the kernels of instances sharing one of its devices progress (models/workload/shared_device.hpp):
  // by the overlap fraction f, or by each execution's occupancy with an interference cost s per
  // concurrent execution. Neither: SimGrid's time-sharing (f = 0, computed by SimGrid), unless a
  // switching cost is given (then f = 0 on the simulator's own clock).
  std::optional<double> kernel_overlap;
  KernelSharing kernel_sharing = KernelSharing::TimeSlicing;
  double kernel_interference = 0;   // s, with KernelSharing::Occupancy
  double kernel_switch_cost_s = 0;  // device work an execution adds when it starts while another runs
};

// Server `i` of a group, as the platform names its host and the outputs name the server.
inline std::string server_name(const ServerGroup& group, int i) { return group.name + "-" + std::to_string(i); }

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

}  // namespace sonicsim
