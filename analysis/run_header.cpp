#include "analysis/run_header.hpp"

namespace sonicsim {

RunHeader run_header(const Scenario& scenario) {
  const Workload& workload = scenario.workload;
  RunHeader h;
  h.scenario = scenario.name;
  h.seed = scenario.simulation.seed;
  h.latency_quantile = scenario.simulation.latency_quantile.value_or(0);
  h.device_naming = scenario.device_naming;
  h.warmup_s = workload.warmup_s;
  h.concurrent_jobs = workload.submit ? 0 : workload.jobs * workload.streams;
  for (const ServerGroup& group : scenario.platform.servers)
    for (int i = 0; i < group.count; ++i) h.server_names.push_back(server_name(group, i));
  for (const ModelSpec& m : scenario.models) h.model_names.push_back(m.name);
  for (const Module& m : workload.modules) h.module_names.push_back(module_name(m));
  h.batch_system = workload.submit.has_value();
  h.threaded = workload.threaded();
  h.threads = workload.threads;
  h.streams = workload.streams;
  if (h.batch_system) h.worker_cores = scenario.total_worker_cores();
  // A batch system's jobs and a static farm's jobs with threads name their node in jobs.csv.
  if (h.batch_system || h.threaded)
    for (const WorkerPool& pool : scenario.platform.worker_pools)
      for (int n = 0; n < pool.nodes; ++n) h.worker_names.push_back(worker_node_name(pool, n));
  if (scenario.costs) {
    h.currency = scenario.costs->currency;
    h.cpu_core_hour_price = scenario.costs->cpu_core_hour;
    h.gpu_hour_price = scenario.costs->gpu_hour;
  }
  return h;
}

}  // namespace sonicsim
