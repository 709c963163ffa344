#pragma once
// The SimGrid side of a SharedDevice (models/workload/shared_device.hpp): a device whose kernels
// share it by the overlap fraction of its server group, or by their occupancies, in simulated time:
// instead of SimGrid executions on the device's host, the pure model says when the next kernel
// ends, and a kernel timer ends it (sim/simulated_time.hpp). Its kernels of one date end together,
// in the order they started. A kernel starting or ending changes every running kernel's rate, so
// the timer is set again; one set before is recognised by its generation and does nothing.
#include <cstdint>
#include <functional>
#include <vector>

#include "models/workload/shared_device.hpp"

namespace sonicsim::sim {

class SimulatedSharedDevice {
 public:
  // `end` is called in maestro with the slots whose kernels end, in the order they started.
  SimulatedSharedDevice(DeviceSharing sharing, std::function<void(const std::vector<int>& slots)> end)
      : device_(sharing), end_(std::move(end)) {}
  SimulatedSharedDevice(const SimulatedSharedDevice&) = delete;
  SimulatedSharedDevice& operator=(const SimulatedSharedDevice&) = delete;

  // The kernel of the instance in `slot`, of `work_s` seconds alone on the device and needing
  // `occupancy` of it (by occupancy), starts now.
  void start(int slot, double work_s, double occupancy);
  // Every kernel is forgotten (the server failed or the run is over); timers set before do nothing.
  void clear();

 private:
  void arm();
  void end_due(std::uint64_t generation);

  SharedDevice device_;
  std::function<void(const std::vector<int>&)> end_;
  std::uint64_t generation_ = 0;
};

}  // namespace sonicsim::sim
