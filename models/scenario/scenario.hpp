#pragma once
// The scenario as plain data, after parsing and validation: one header per section (platform,
// models, workload, perf_analyzer, simulation, costs), gathered here. All quantities in SI base
// units: seconds, bytes, bytes per second. See scenarios/README.md for the file format, and
// models/scenario/reader/ for how a file becomes a Scenario.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "models/scenario/costs.hpp"
#include "models/scenario/device_naming.hpp"
#include "models/scenario/model_spec.hpp"
#include "models/scenario/perf_load.hpp"
#include "models/scenario/platform.hpp"
#include "models/scenario/simulation_options.hpp"
#include "models/scenario/workload.hpp"

namespace sonicsim {

struct Scenario {
  std::string file;  // the scenario file, for messages
  std::string name;
  std::string description;
  Platform platform;
  std::vector<ModelSpec> models;
  Workload workload;                              // grid jobs, unless perf_analyzer is set
  std::optional<PerfAnalyzerLoad> perf_analyzer;  // a perf_analyzer-like load instead of grid jobs
  SimulationOptions simulation;
  std::optional<Costs> costs;
  DeviceNaming device_naming = DeviceNaming::Gpu;  // how the scenario, and so its outputs, name accelerators
  // What a SuperSONIC values file named by a server group sets that the simulation leaves out, and
  // how the chart's quirks were followed: "FILE: ..." one line each, for the command line to print.
  std::vector<std::string> notes;

  // How the clients (grid jobs or perf_analyzer) hand their tensors to the servers.
  ClientProtocol client_protocol() const { return perf_analyzer ? perf_analyzer->protocol : workload.protocol; }
  int model_index(const std::string& model_name) const { return sonicsim::model_index(models, model_name); }
  // Whether requests can fail (servers that fail, or a client deadline): the outputs then say how.
  bool requests_can_fail() const {
    for (const ServerGroup& g : platform.servers)
      if (g.failures || g.autoscaling) return true;
    for (const Module& m : workload.modules)
      if (const auto* inference = std::get_if<InferenceModule>(&m); inference && inference->client_timeout_s)
        return true;
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
  // How many jobs the worker nodes hold at once: each takes workload.threads cores of one node
  // (the worker cores when jobs have one thread).
  std::int64_t job_slots() const {
    std::int64_t slots = 0;
    for (const auto& pool : platform.worker_pools)
      slots += static_cast<std::int64_t>(pool.nodes) * (pool.cores_per_node / workload.threads);
    return slots;
  }
};

}  // namespace sonicsim
