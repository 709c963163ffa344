#pragma once
// perf_analyzer's report (docs/reference/triton.md §9.1) from what one load level measured: client-side
// latencies of the requests answered inside the measurement windows, and the model's Triton
// statistics at the first window's start and the last window's end.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/perf_measurement.hpp"
#include "models/scenario/perf_load.hpp"
#include "models/scenario/scenario.hpp"

namespace sonicsim {

// One CSV row; times in integer microseconds (ns / 1000, truncated), as perf_analyzer writes them.
// A row of no requests is no measurement: it has no throughput or latency (see no_response).
struct PerfRow {
  double level = 0;
  std::int64_t requests = 0;  // answered inside the windows (perf_analyzer's "Request count")
  double inferences_per_s = 0;
  std::int64_t client_send_us = 0, network_server_us = 0, server_queue_us = 0, server_compute_input_us = 0,
               server_compute_infer_us = 0, server_compute_output_us = 0, client_recv_us = 0;
  std::int64_t p50_us = 0, p90_us = 0, p95_us = 0, p99_us = 0, avg_us = 0;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PerfRow, level, requests, inferences_per_s, client_send_us, network_server_us,
                                   server_queue_us, server_compute_input_us, server_compute_infer_us,
                                   server_compute_output_us, client_recv_us, p50_us, p90_us, p95_us, p99_us, avg_us)

// perf_analyzer's percentile: the sorted value at index floor(NN/100 * (n - 1) + 0.5).
std::int64_t perf_percentile(const std::vector<std::int64_t>& sorted, int nn);

PerfRow perf_row(const PerfMeasurement& m);

// The CSV of `perf_analyzer -f`: "Concurrency" or "Request Rate" first, rows by throughput; a
// level with no requests has no row, as perf_analyzer writes none.
std::string perf_csv(PerfLoadMode mode, std::vector<PerfRow> rows);

// A table for the terminal, in the order of the levels; a level with no requests says so instead
// of numbers.
std::string format_perf_table(PerfLoadMode mode, const std::vector<PerfRow>& rows);

// Why a level (or every level: `which` = "any of the 7 concurrency levels") has no measurement:
// no request came back inside its windows. perf_analyzer stops at such a level with an error
// (perf_analyzer/inference_profiler.cc, InferenceProfiler::SummarizeLatency: "No valid requests
// recorded within time interval. Please use a larger time window."); ProfileHelper returns it and
// no row is written.
std::string no_response(const PerfAnalyzerLoad& load, const std::string& which);

// The same for one level of a scenario's load, as its InputError's text: the scenario file and
// /perf_analyzer/measurement_interval, the window to lengthen.
std::string no_response_error(const Scenario& scenario, double level);

// "4" or "0.5": a level as perf_analyzer's CSV and the perf outputs write it.
std::string format_level(PerfLoadMode mode, double level);

// "concurrency 4" or "request rate 0.5".
std::string level_name(PerfLoadMode mode, double level);

// The scenario's JSON pointer of level `index`: /perf_analyzer/concurrency/INDEX or .../request_rate/INDEX.
std::string level_pointer(PerfLoadMode mode, std::size_t index);

}  // namespace sonicsim
