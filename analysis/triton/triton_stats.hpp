#pragma once
// Triton's per-model statistics, kept the way Triton keeps them (docs/reference/triton.md §1, §10): the
// statistics-API counters in nanoseconds (model-wide) and the Prometheus counters in truncated
// microseconds (one series per GPU, one without gpu_uuid for CPU instances and the model reporter).
// Counters are cumulative from the start of the run, like Triton's from model load.
#include <cstdint>
#include <map>
#include <vector>

namespace sonicsim {

struct RequestRecord;

struct TritonDuration {
  std::uint64_t count = 0;
  std::uint64_t ns = 0;
  bool operator==(const TritonDuration&) const = default;
};

struct TritonBatchStats {
  TritonDuration compute_input, compute_infer, compute_output;
  bool operator==(const TritonBatchStats&) const = default;
};

// One Prometheus label set: a GPU's instances, or (gpu = -1) the CPU instances and model reporter.
struct TritonPromSeries {
  std::uint64_t request_success = 0;
  std::uint64_t inference_count = 0;
  std::uint64_t exec_count = 0;
  std::uint64_t request_duration_us = 0;
  std::uint64_t queue_duration_us = 0;
  std::uint64_t compute_input_duration_us = 0;
  std::uint64_t compute_infer_duration_us = 0;
  std::uint64_t compute_output_duration_us = 0;
  bool operator==(const TritonPromSeries&) const = default;
};

// The four timestamps a backend reports for a batch (identical for every request in it).
struct TritonExecTimes {
  double exec_start_s = 0, compute_start_s = 0, compute_end_s = 0, exec_end_s = 0;
};

struct TritonModelStats {
  int server = 0, model = 0;

  // Statistics API (GET v2/models/<m>/stats).
  std::uint64_t inference_count = 0, execution_count = 0;
  double last_inference_s = 0;  // simulated time of the last completed request
  TritonDuration success, fail, queue, compute_input, compute_infer, compute_output;
  std::map<int, TritonBatchStats> batch_stats;  // executed batch size -> durations

  // Prometheus.
  std::map<int, TritonPromSeries> series;  // gpu index (-1: no gpu_uuid label) -> counters
  std::uint64_t failure_rejected = 0;      // nv_inference_request_failure{reason="REJECTED"}
  std::int64_t pending = 0;                // nv_inference_pending_request_count

  // An instance of the model exists on `gpu` (-1: CPU): its series is exported from the start, at 0.
  void instance_loaded(int gpu) { series.try_emplace(gpu); }
  // A request entered the scheduler's queue (not for requests refused at submit).
  void request_arrived() { ++pending; }
  // A batch of `requests` left the queue for an instance.
  void execution_started(int requests) { pending -= requests; }
  // A batch finished on `gpu` (-1: a CPU instance). Every request is charged the batch's durations.
  void batch_executed(int gpu, const std::vector<const RequestRecord*>& requests, int batch_units,
                      const TritonExecTimes& times);
  // The batcher rejected a queued request (timeout with REJECT): Triton counts it as a failure.
  void request_failed(const RequestRecord& request, double now_s);

  bool operator==(const TritonModelStats&) const = default;
};

// Adds b's counters to a (for summing a model's statistics over servers).
void accumulate(TritonModelStats& a, const TritonModelStats& b);

// Simulated seconds to Triton's integer nanosecond timestamps.
std::int64_t triton_timestamp_ns(double seconds);

}  // namespace sonicsim
