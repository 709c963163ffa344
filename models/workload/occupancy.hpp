#pragma once
// The share of a device one execution needs, read off the single-instance latency curve tau(B).
//
// A lone execution of B units takes tau(B), so it processes B / tau(B) units per second. The most
// any execution the model may run achieves is the device's peak rate
//
//     X* = sup over 1 <= B <= B_max of B / tau(B),
//
// reached first at B*, where the device is full. An execution of B units occupies
//
//     u(B) = B / (tau(B) X*)   for B < B*,     u(B) = 1   for B >= B*,
//
// the fraction of the peak it uses: where tau is flat, a batch twice as large costs no more time,
// so it used at most half of the device; where tau grows in proportion to B, the device is full.
// B_max is the model's max_batch_size for a fixed-size model, and unbounded where the kernel counts
// elements (a variable dim): then X* may be a limit that no batch reaches (B* infinite, u < 1
// everywhere). A curve whose rate grows without bound (a constant tau over an unbounded range)
// never fills the device: u = 0. How executions share a device by these shares:
// models/workload/shared_device.hpp.
#include <limits>

#include "models/workload/kernel_latency.hpp"

namespace sonicsim {

struct OccupancyCurve {
  double peak_rate = 0;                                         // X*: units per second (+inf: the device never fills)
  double full_units = std::numeric_limits<double>::infinity();  // B*: from here on u = 1

  // u(B) for an execution of `units` whose time alone is `tau_s` = tau(units).
  double at(double units, double tau_s) const;
};

// The curve of `latency` over batches of 1 to `max_units` units (+inf: unbounded).
OccupancyCurve occupancy_curve(const KernelLatency& latency, double max_units);

}  // namespace sonicsim
