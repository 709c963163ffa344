#include "sim/control/saturation_gate.hpp"

namespace sonicsim::sim {

bool SaturationGate::admit() {
  bool any_ready = false;
  for (int s = 0; s < balancer_.servers(); ++s) any_ready = any_ready || balancer_.ready(s);
  const std::optional<double> load = prometheus_.query(spec_.metric, spec_.window_s);
  // No value yet (fewer than two scrapes in the window): let the job through. What the Lua filter
  // does with an empty result is not established (docs/reference/supersonic.md §1.4).
  const bool admitted = any_ready && (!load || *load <= spec_.threshold_ms);
  recorder_.job_gated(!admitted, !load.has_value());
  return admitted;
}

}  // namespace sonicsim::sim
