#pragma once
// A perf_analyzer-like run of one load level against one model (scenario.perf_analyzer). Like
// simulate(), call it once per process.
#include <cstddef>

#include "analysis/perf_measurement.hpp"
#include "analysis/record_sink.hpp"
#include "models/scenario/scenario.hpp"

namespace sonicsim {

// With `records`, the level's requests and batches are handed to it as they are made (the CLI's
// are the level's part files, analysis/outputs/perf_records.hpp); their module is "perf_analyzer".
PerfMeasurement simulate_perf_level(const Scenario& scenario, std::size_t level_index, RecordSink* records = nullptr);

}  // namespace sonicsim
