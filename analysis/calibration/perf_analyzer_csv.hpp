#pragma once
// Reads perf_analyzer's CSV (-f FILE; columns in docs/reference/triton.md §9.1). Rows are
// sorted by throughput, not by load, and time columns are integer microseconds.
#include <optional>
#include <string>
#include <vector>

#include "analysis/calibration/latency_points.hpp"

namespace sonicsim::calibration {

struct PerfAnalyzerRow {
  int line = 0;
  double load = 0;  // concurrency, or request rate (per second)
  double inferences_per_s = 0;
  // Microseconds, as written. Server columns are absent when the server had no statistics.
  long long client_send_us = 0;
  std::optional<long long> network_server_us, server_queue_us, compute_input_us, compute_infer_us, compute_output_us;
  long long client_recv_us = 0;
  std::optional<long long> p50_us, p90_us, p95_us, p99_us;
};

struct PerfAnalyzerTable {
  std::string path;
  std::string load_column;            // "Concurrency" or "Request Rate"
  std::vector<PerfAnalyzerRow> rows;  // in file order
};

// Throws InputError("FILE", "line N, column NAME", ...) on anything malformed.
PerfAnalyzerTable read_perf_analyzer_csv(const std::string& path);
PerfAnalyzerTable parse_perf_analyzer_csv(const std::string& text, const std::string& path);

// The kernel latency at perf_analyzer's batch size (-b): "Server Compute Infer" of the row with the
// lowest load, where the dynamic batcher has the least to merge; the other columns of that row
// become the point's overheads.
CalibrationInput kernel_point_from_perf_analyzer(const PerfAnalyzerTable& table, int batch_size);

}  // namespace sonicsim::calibration
