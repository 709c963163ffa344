#pragma once
// A perf_analyzer-like run of one load level against one model (scenario.perf_analyzer). Like
// simulate(), call it once per process.
#include <cstddef>

#include "analysis/outputs/perf_report.hpp"
#include "models/scenario/scenario.hpp"

namespace sonicsim {

PerfMeasurement simulate_perf_level(const Scenario& scenario, std::size_t level_index);

}  // namespace sonicsim
