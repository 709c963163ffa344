#pragma once
// Triton's statistics API (GET v2/models/<m>/stats) at the end of a run, per server and model:
// what summary.json holds under "triton". The Prometheus counters stay with the run's
// TritonModelStats (triton_report.hpp writes them).
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/records.hpp"

namespace sonicsim {

struct TritonBatchStatistics {
  int batch_size = 0;
  TritonDuration compute_input, compute_infer, compute_output;
  bool operator==(const TritonBatchStatistics&) const = default;
};

// One statistics-API entry. Triton's version ("1") and its response cache (never hit: empty) are
// the same for every simulated model.
struct TritonModelStatistics {
  std::string name;
  std::uint64_t last_inference_ms = 0;  // from the start of the run
  std::uint64_t inference_count = 0, execution_count = 0;
  TritonDuration success, fail, queue, compute_input, compute_infer, compute_output;
  std::vector<TritonBatchStatistics> batch_stats;  // by executed batch size, smallest first
  std::int64_t pending_requests = 0;
  bool operator==(const TritonModelStatistics&) const = default;
};

struct TritonServerStatistics {
  std::string server;
  std::vector<TritonModelStatistics> models;  // the models it serves, in the scenario's order
  bool operator==(const TritonServerStatistics&) const = default;
};

// Every server of the run, in order, each with the models it serves.
std::vector<TritonServerStatistics> triton_statistics(const SimulationResults& results);

}  // namespace sonicsim
