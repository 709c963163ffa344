#pragma once
// A perf_analyzer-like run of one load level against one model (scenario.perf_analyzer). Like
// simulate(), call it once per process.
#include <cstddef>

#include "analysis/outputs/perf_records.hpp"
#include "analysis/outputs/perf_report.hpp"
#include "models/scenario/scenario.hpp"

namespace sonicsim {

// With `records`, the level's requests and batches are streamed to its part files there
// (analysis/outputs/perf_records.hpp).
PerfMeasurement simulate_perf_level(const Scenario& scenario, std::size_t level_index,
                                    const PerfRecordOutput* records = nullptr);

}  // namespace sonicsim
