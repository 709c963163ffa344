#include "sim/client/count_windows.hpp"

#include <algorithm>
#include <cmath>

#include "models/io/limits.hpp"

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;

void CountWindows::collect(std::int64_t start_ns, std::int64_t end_ns, std::int64_t send_ns, std::int64_t recv_ns,
                           bool failed) {
  if (failed) {  // a failed request stops its perf_analyzer thread: no timestamp
    ++failed_;
    return;
  }
  answered_.push_back({start_ns, end_ns, send_ns, recv_ns});
  if (waiting_ && static_cast<std::int64_t>(answered_.size()) == request_count_) {
    waiting_ = false;
    enough_->release();
  }
}

void CountWindows::measure_window() {
  const double start = sg4::Engine::get_clock();
  if (static_cast<std::int64_t>(answered_.size()) < request_count_) {
    waiting_ = true;
    // A level that answers nothing ends its window at the longest run instead of waiting forever.
    enough_->acquire_timeout(std::max(0.0, limits::kMaxDurationS - start));
    waiting_ = false;
  }
  // Measure looks every whole second, the first time one second after the window starts.
  const double polled_s = std::max(1.0, std::ceil(sg4::Engine::get_clock() - start));
  sg4::this_actor::sleep_until(start + polled_s);
  summarize(polled_s);
  answered_.clear();
  failed_ = 0;
}

// InferenceProfiler::MeasurementTimestamp and ValidLatencyMeasurement, in integer nanoseconds.
void CountWindows::summarize(double window_s) {
  measurement_.window_s += window_s;
  measurement_.failed += failed_;
  if (answered_.empty()) return;
  const auto window_ns = static_cast<std::int64_t>(std::llround(window_s * 1e9));
  std::int64_t first_start = answered_.front().start_ns, last_end = answered_.front().end_ns;
  for (const Timestamp& t : answered_) {
    first_start = std::min(first_start, t.start_ns);
    last_end = std::max(last_end, t.end_ns);
  }
  const std::int64_t offset = first_start + window_ns > last_end ? 0 : (last_end - (first_start + window_ns)) / 2;
  const std::int64_t from = first_start + offset, to = from + window_ns;
  for (const Timestamp& t : answered_) {
    if (t.end_ns < from || t.end_ns > to) continue;
    measurement_.count(t.end_ns - t.start_ns, t.send_ns, t.recv_ns);
  }
}

}  // namespace sonicsim::sim
