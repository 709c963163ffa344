#include "sim/simulation.hpp"

#include <memory>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/engine_setup.hpp"
#include "sim/grid_job.hpp"
#include "sim/inference_server.hpp"
#include "sim/load_balancer.hpp"
#include "sim/platform.hpp"
#include "sim/recorder.hpp"

namespace sonicsim {
namespace sg4 = simgrid::s4u;
namespace {

// The worker node of each job: "fill" packs nodes one after the other; "spread" gives every node
// one job before any node gets a second.
std::vector<int> place_jobs(const Scenario& scenario, const sim::FarmPlatform& farm) {
  std::vector<int> slots;
  if (scenario.platform.placement == JobPlacement::Fill) {
    for (std::size_t n = 0; n < farm.workers.size(); ++n)
      for (int c = 0; c < farm.workers[n].cores; ++c) slots.push_back(static_cast<int>(n));
  } else {
    int max_cores = 0;
    for (const auto& w : farm.workers) max_cores = std::max(max_cores, w.cores);
    for (int c = 0; c < max_cores; ++c)
      for (std::size_t n = 0; n < farm.workers.size(); ++n)
        if (c < farm.workers[n].cores) slots.push_back(static_cast<int>(n));
  }
  slots.resize(static_cast<std::size_t>(scenario.workload.jobs));
  return slots;
}

double start_time(const StartPattern& pattern, int job, int jobs) {
  if (const auto* s = std::get_if<StartStaggered>(&pattern)) return job * s->interval_s;
  if (const auto* s = std::get_if<StartSpread>(&pattern)) return job * s->window_s / jobs;
  if (const auto* w = std::get_if<StartWaves>(&pattern)) return (job / w->jobs_per_wave) * w->period_s;
  return 0;
}

}  // namespace

SimulationResults simulate(const Scenario& scenario) {
  const auto engine_owner = sim::make_engine(scenario.simulation);
  sg4::Engine& engine = *engine_owner;

  const sim::FarmPlatform farm = sim::build_platform(scenario);
  sim::Recorder recorder(scenario, farm);
  std::vector<std::unique_ptr<sim::InferenceServer>> servers = sim::start_servers(scenario, farm, recorder);
  sim::LoadBalancer balancer(scenario, farm);

  const std::vector<int> placement = place_jobs(scenario, farm);
  for (int j = 0; j < scenario.workload.jobs; ++j) {
    sg4::Host* host = farm.workers[placement[j]].host;
    sg4::Actor::create("job-" + std::to_string(j), host,
                       sim::GridJob(j, host, start_time(scenario.workload.start, j, scenario.workload.jobs),
                                    sim::JobContext{scenario, servers, balancer, recorder}));
  }

  if (scenario.workload.duration_s) {
    engine.run_until(*scenario.workload.duration_s);
  } else {
    engine.run();
  }
  SimulationResults results = recorder.finish(sg4::Engine::get_clock());
  // A duration-limited run leaves actors blocked on the servers' semaphores: end them before the
  // servers go away.
  sg4::Actor::kill_all();
  engine.run();
  return results;
}

}  // namespace sonicsim
