#include "sim/engine_setup.hpp"

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

}  // namespace

std::unique_ptr<sg4::Engine> make_engine(const SimulationOptions& options) {
  int argc = 2;
  char program[] = "sonicsim";
  char quiet_logs[] = "--log=root.thresh:warning";  // SimGrid's informational chatter stays off
  char* argv[] = {program, quiet_logs, nullptr};
  auto engine = std::make_unique<sg4::Engine>(&argc, argv);
  configure_engine(options);
  return engine;
}

}  // namespace sonicsim::sim
