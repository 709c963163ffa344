#include "sim/server/simulated_shared_device.hpp"

#include <cmath>

#include <simgrid/s4u/Engine.hpp>

#include "sim/simulated_time.hpp"

namespace sonicsim::sim {

void SimulatedSharedDevice::start(int slot, double work_s, double occupancy) {
  device_.start(slot, work_s, simgrid::s4u::Engine::get_clock(), occupancy);
  arm();
}

void SimulatedSharedDevice::clear() {
  device_.clear();
  ++generation_;
}

void SimulatedSharedDevice::arm() {
  const std::uint64_t generation = ++generation_;
  const double date = device_.next_end_s();
  if (std::isinf(date)) return;
  at_date(std::max(date, simgrid::s4u::Engine::get_clock()), [this, generation] { end_due(generation); });
}

void SimulatedSharedDevice::end_due(std::uint64_t generation) {
  if (generation != generation_) return;  // the kernels changed since: a later timer holds the end
  const std::vector<int> ended = device_.end_next(simgrid::s4u::Engine::get_clock());
  arm();
  end_(ended);
}

}  // namespace sonicsim::sim
