#pragma once
// What one perf_analyzer load level measured, as plain data: client-side latencies of the requests
// answered inside the measurement windows, and the model's Triton statistics at the first window's
// start and the last window's end. analysis/outputs/perf_report.hpp makes perf_analyzer's report of it.
#include <cstdint>
#include <vector>

#include "analysis/triton/triton_stats.hpp"

namespace sonicsim {

struct PerfMeasurement {
  double level = 0;  // concurrency or request rate
  int batch_size = 1;
  double window_s = 0;                        // total measured time
  std::vector<std::int64_t> latencies_ns;     // send start -> response handled, requests answered in the windows
  std::int64_t send_ns = 0, recv_ns = 0;      // summed client send / receive times of those requests
  std::int64_t failed = 0;                    // requests answered with an error in the windows
  TritonModelStats server_start, server_end;  // summed over the servers of the model

  // A request answered inside the windows: its latency and its client send / receive times.
  void count(std::int64_t latency, std::int64_t send, std::int64_t recv) {
    latencies_ns.push_back(latency);
    send_ns += send;
    recv_ns += recv;
  }
};

}  // namespace sonicsim
