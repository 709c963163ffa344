#pragma once
// Builds the SimGrid platform of a scenario: worker nodes on a site network (each with its NIC,
// all behind the site uplink), the WAN, and GPU servers (each with its NIC) in a data centre.
//
//   worker NIC -> site uplink -> WAN -> server NIC      (responses take the same links back)
//
// With a proxy, requests and responses are relayed by a proxy host in the data centre:
//   worker NIC -> site uplink -> WAN -> proxy NIC,  then  proxy NIC -> server NIC
//
// All links are split-duplex: the two directions do not share bandwidth.
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "models/scenario/scenario.hpp"

namespace sonicsim::sim {

struct WorkerNode {
  simgrid::s4u::Host* host = nullptr;
  int pool = 0;
  int cores = 0;
};

struct ServerNode {
  std::string name;
  int group = 0;
  simgrid::s4u::Host* host = nullptr;
  std::vector<simgrid::s4u::Host*> gpus;  // a GPU is a one-core host: kernels sharing it time-share it
};

struct FarmPlatform {
  std::vector<WorkerNode> workers;
  std::vector<ServerNode> servers;
  std::vector<const simgrid::s4u::Link*> worker_nics;  // private links (one node's jobs only)
  simgrid::s4u::Host* proxy = nullptr;                 // the scenario's proxy, if any
};

// Flops per second of the reference CPU and of a GPU host: module times and kernel latencies are
// converted to work amounts with these, so that SimGrid's precision settings act on sane magnitudes.
inline constexpr double kReferenceSpeed = 1e9;

FarmPlatform build_platform(const Scenario& scenario);

}  // namespace sonicsim::sim
