// The floor under sonicsim's speed: a scenario's request traffic straight on SimGrid, with no
// server model. Same engine settings, same platform, same jobs and start times; each request is
// its upload to server j mod n, a sleep of the kernel time of its batch, and its response, with no
// frontend, no batcher, no GPU queue, no recording. Its requests per wall second are what SimGrid
// itself costs for this traffic while each request is two SimGrid transfers.
//
//   simgrid_floor SCENARIO.json [--cfg=NAME:VALUE]...
//       prints: requests <n> wall_s <s> simulated_s <s> upload_mean_s <s>
// (upload_mean_s: the mean duration of the uploads that ended, latency included: what a setting
// that trades exactness for speed moves first).
// Each --cfg is handed to SimGrid after the scenario's own settings (network/optim:Full, ...), to
// measure what the engine's settings do to this traffic.
#include <chrono>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <simgrid/s4u.hpp>

#include "models/jobs/job_submission.hpp"
#include "models/scenario/reader/scenario_reader.hpp"
#include "models/workload/kernel_latency.hpp"
#include "sim/client/job_placement.hpp"
#include "sim/engine_setup.hpp"
#include "sim/platform.hpp"

namespace sg4 = simgrid::s4u;
using namespace sonicsim;

int main(int argc, char** argv) try {
  if (argc < 2) {
    std::fprintf(stderr, "usage: simgrid_floor SCENARIO.json [--cfg=NAME:VALUE]...\n");
    return 2;
  }
  const Scenario scenario = load_scenario(argv[1], {});
  const Workload& workload = scenario.workload;
  if (!workload.duration_s) throw std::runtime_error("the floor runs duration-limited workloads");
  if (workload.submit) throw std::runtime_error("the floor runs static farms (\"start\"), not batch-system workloads");
  const auto engine = sim::make_engine(scenario.simulation);
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--cfg=", 0) != 0) throw std::runtime_error("expected --cfg=NAME:VALUE, got " + arg);
    sg4::Engine::set_config(arg.substr(6));
  }
  const sim::FarmPlatform farm = sim::build_platform(scenario);

  // Every CPU module and preprocessing at its mean, then the inference modules' requests in turn.
  double cpu_s = 0;
  std::vector<const InferenceModule*> inference;
  for (const Module& m : workload.modules) {
    if (const auto* cpu = std::get_if<CpuModule>(&m)) cpu_s += mean(cpu->time);
    if (const auto* module = std::get_if<InferenceModule>(&m)) {
      if (!is_fixed(module->items_per_event)) throw std::runtime_error("the floor runs fixed items_per_event");
      cpu_s += mean(module->preprocess);
      inference.push_back(module);
    }
  }
  static long requests = 0;
  static long uploads = 0;
  static double upload_s = 0;
  const std::vector<int> placement = sim::place_jobs(scenario, farm);
  for (int j = 0; j < workload.jobs; ++j) {
    sg4::Host* host = farm.workers[static_cast<std::size_t>(placement[j])].host;
    const sim::ServerNode& server_node = farm.servers[static_cast<std::size_t>(j) % farm.servers.size()];
    sg4::Host* server = server_node.host;
    const std::string& gpu = scenario.platform.servers[server_node.group].gpu_type;
    const double start_s = start_time(workload.start, j, workload.jobs);
    sg4::Actor::create("job", host, [&, host, server, start_s, gpu]() {
      sg4::this_actor::sleep_until(start_s);
      for (;;) {
        sg4::this_actor::execute(cpu_s * sim::kReferenceSpeed);
        for (const InferenceModule* module : inference) {
          const ModelSpec& model = scenario.models[module->model];
          const int event_items = std::get<int>(module->items_per_event);
          for (std::int64_t k = 0; k < module->requests_for(event_items); ++k) {
            const int items = module->items_in_request(k, event_items);
            const double sent_at = sg4::Engine::get_clock();
            sg4::Comm::sendto(host, server, static_cast<std::uint64_t>(items * model.input_bytes_per_item));
            upload_s += sg4::Engine::get_clock() - sent_at;
            ++uploads;
            sg4::this_actor::sleep_for(kernel_latency_s(model.latency_for(gpu), items));
            sg4::Comm::sendto(server, host, static_cast<std::uint64_t>(items * model.output_bytes_per_item));
            ++requests;
          }
        }
      }
    });
  }
  const auto wall_start = std::chrono::steady_clock::now();
  engine->run_until(*workload.duration_s);
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  std::printf("requests %ld wall_s %.6f simulated_s %.3f upload_mean_s %.9f\n", requests, wall_s,
              sg4::Engine::get_clock(), uploads > 0 ? upload_s / static_cast<double>(uploads) : 0.0);
  sg4::Actor::kill_all();
  engine->run();
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "simgrid_floor: %s\n", e.what());
  return 2;
}
