#include "sim/perf_simulation.hpp"

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "models/io/input_error.hpp"
#include "models/scenario/scenario_size.hpp"
#include "sim/client/perf_client.hpp"
#include "sim/control/load_balancer.hpp"
#include "sim/engine_setup.hpp"
#include "sim/platform.hpp"
#include "sim/recorder.hpp"
#include "sim/server/inference_server.hpp"
#include "sim/upload_fast_path.hpp"

namespace sonicsim {
namespace sg4 = simgrid::s4u;
namespace {

TritonModelStats model_totals(sim::Recorder& recorder, std::size_t servers, int model) {
  TritonModelStats total;
  for (std::size_t s = 0; s < servers; ++s) {
    if (const TritonModelStats* stats = recorder.find_triton(static_cast<int>(s), model)) accumulate(total, *stats);
  }
  return total;
}

}  // namespace

PerfMeasurement simulate_perf_level(const Scenario& scenario_in, std::size_t level_index, RecordSink* records) {
  Scenario scenario = scenario_in;
  scenario.simulation.outputs = Outputs{false, false, false, false, false};  // rows only: no per-request records
  const PerfAnalyzerLoad& load = *scenario.perf_analyzer;

  const auto engine = sim::make_engine(scenario.simulation);
  sim::configure_stack_guards(simulated_actors(scenario));
  const sim::FarmPlatform farm = sim::build_platform(scenario);
  sim::Recorder recorder(scenario, farm);
  if (records) {
    RecordedNames names = recorder.recorded_names();
    names.modules = {"perf_analyzer"};
    records->open(names);
    recorder.stream_records(*records);
  }
  std::vector<std::unique_ptr<sim::InferenceServer>> servers = sim::start_servers(scenario, farm, recorder);
  RequestBalancer balancer = sim::make_balancer(scenario, farm);

  PerfMeasurement m;
  m.level = load.levels.at(level_index);
  m.batch_size = load.batch_size;
  const bool count_windows = load.measurement_mode == MeasurementMode::CountWindows;
  m.window_s = count_windows ? 0 : load.windows * load.measurement_interval_s;  // count windows add theirs
  sim::CountWindows windows(load.measurement_request_count, m);
  sim::UploadFastPath uploads(scenario, farm,
                              [&servers](sim::InFlightRequest* r) { servers[r->record.server]->receive(r); });
  if (!uploads.active() && !uploads.status().empty())  // asked for, and off: no summary to say why
    std::cerr << "sonicsim: note: upload fast path " << uploads.status() << "\n";
  sim::PerfClients clients(scenario, farm.workers.at(0).host, servers, balancer, recorder, m.level, m,
                           uploads.active() ? &uploads : nullptr);
  if (count_windows) clients.collect_into(&windows);
  clients.start();
  // The run ends when this actor does: the clients and servers are daemons.
  sg4::Actor::create("perf-measurement", farm.workers.at(0).host, [&]() {
    sg4::this_actor::sleep_until(load.warmup_s);
    m.server_start = model_totals(recorder, farm.servers.size(), load.model);
    if (count_windows) {
      for (int w = 0; w < load.windows; ++w) windows.measure_window();
    } else {
      sg4::this_actor::sleep_until(load.end_s());
    }
    m.server_end = model_totals(recorder, farm.servers.size(), load.model);
    uploads.halt();  // the run ends here: uploads still under way end nothing
  });
  engine->run();
  if (records) records->close();
  if (!clients.limit_reached().empty())
    throw InputError(scenario.file, "/perf_analyzer/request_rate/" + std::to_string(level_index),
                     clients.limit_reached());
  return m;
}

}  // namespace sonicsim
