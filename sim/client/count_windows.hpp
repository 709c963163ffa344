#pragma once
// perf_analyzer's count windows (--measurement-mode count_windows), as its 21.12 release measures
// them (triton-inference-server/client@b359279d, src/c++/perf_analyzer/inference_profiler.cc):
// InferenceProfiler::Measure polls every second until --measurement-request-count requests have been
// answered since the last window, and the window's length W is the time it polled. Summarize then
// keeps only the requests that end inside a range of length W placed in the middle of the answered
// requests' span, from the first one's start to the last one's end (MeasurementTimestamp,
// ValidLatencyMeasurement). That span begins up to a latency before the window, so where the
// latency is not small against W the range reaches back before the window, over requests counted in
// the one before, and the throughput (valid requests / W) is low by about max latency / (2 W).
#include <cstdint>
#include <vector>

#include <simgrid/s4u.hpp>

#include "analysis/perf_measurement.hpp"

namespace sonicsim::sim {

class CountWindows {
 public:
  CountWindows(std::int64_t request_count, PerfMeasurement& measurement)
      : request_count_(request_count), measurement_(measurement) {}

  // A request answered at `end_ns`, timed from `start_ns`, after the warm-up.
  void collect(std::int64_t start_ns, std::int64_t end_ns, std::int64_t send_ns, std::int64_t recv_ns, bool failed);
  // One window from now, in the calling actor; adds its valid requests and its length to the measurement.
  void measure_window();

 private:
  struct Timestamp {
    std::int64_t start_ns, end_ns, send_ns, recv_ns;
  };
  void summarize(double window_s);

  std::int64_t request_count_;
  PerfMeasurement& measurement_;
  std::vector<Timestamp> answered_;  // since the last window: what SwapTimestamps hands over
  std::int64_t failed_ = 0;
  simgrid::s4u::SemaphorePtr enough_ = simgrid::s4u::Semaphore::create(0);
  bool waiting_ = false;
};

}  // namespace sonicsim::sim
