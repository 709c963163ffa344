#include "sim/engine_setup.hpp"

#include <fstream>
#include <iostream>

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;
namespace {

void configure_engine(const SimulationOptions& options) {
  const NetworkModel& net = options.network;
  sg4::Engine::set_config("network/model:" + net.model);
  sg4::Engine::set_config("network/TCP-gamma", net.tcp_gamma_bytes);
  sg4::Engine::set_config("network/crosstraffic", net.crosstraffic);
  if (net.latency_factor) sg4::Engine::set_config("network/latency-factor", *net.latency_factor);
  if (net.bandwidth_factor) sg4::Engine::set_config("network/bandwidth-factor", *net.bandwidth_factor);
  sg4::Engine::set_config("contexts/stack-size", options.stack_size_kib);
}

bool deadlocked = false;

}  // namespace

std::unique_ptr<sg4::Engine> make_engine(const SimulationOptions& options) {
  char program[] = "sonicsim";
  char quiet_logs[] = "--log=root.thresh:warning";  // SimGrid's informational chatter stays off
  // The engine's deadlock report spans many lines; sonicsim reports a deadlock itself, in one.
  char quiet_engine[] = "--log=ker_engine.app:file:/dev/null";
  char engine_alone[] = "--log=ker_engine.additivity:off";
  char* argv[] = {program, quiet_logs, quiet_engine, engine_alone, nullptr};
  int argc = 4;
  auto engine = std::make_unique<sg4::Engine>(&argc, argv);
  configure_engine(options);
  static const bool connected = [] {  // the signal outlives engines: connect once per process
    sg4::Engine::on_deadlock_cb([] { deadlocked = true; });
    return true;
  }();
  (void)connected;
  deadlocked = false;
  return engine;
}

bool engine_deadlocked() { return deadlocked; }

void configure_stack_guards(std::int64_t actors) {
  std::int64_t max_maps = 65530;
  if (std::ifstream in("/proc/sys/vm/max_map_count"); in) in >> max_maps;
  // Two mappings per guarded stack (the guard splits the heap mapping), and room for the rest.
  constexpr std::int64_t kOtherMaps = 5000;
  if (2 * actors + kOtherMaps <= max_maps) return;
  sg4::Engine::set_config("contexts/guard-size", 0);
  std::cerr << "sonicsim: warning: " << actors << " simulated actors need more memory mappings than "
            << "vm.max_map_count (" << max_maps << ") allows with stack guard pages: running without them, so a "
            << "stack overflow would go undetected\n";
}

}  // namespace sonicsim::sim
