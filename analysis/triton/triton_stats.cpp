#include "analysis/triton/triton_stats.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <utility>

#include "analysis/request_record.hpp"

namespace sonicsim {
namespace {

std::uint64_t span_ns(std::int64_t from_ns, std::int64_t to_ns) {
  return to_ns > from_ns ? static_cast<std::uint64_t>(to_ns - from_ns) : 0;
}

void add(TritonDuration& d, std::uint64_t ns) {
  ++d.count;
  d.ns += ns;
}

void add(TritonDuration& a, const TritonDuration& b) {
  a.count += b.count;
  a.ns += b.ns;
}

}  // namespace

std::int64_t triton_timestamp_ns(double seconds) { return std::llround(seconds * 1e9); }

void TritonModelStats::batch_executed(int gpu, const std::vector<const RequestRecord*>& requests, int batch_units,
                                      const TritonExecTimes& times) {
  const std::int64_t exec_start = triton_timestamp_ns(times.exec_start_s);
  const std::int64_t compute_start = triton_timestamp_ns(times.compute_start_s);
  const std::int64_t compute_end = triton_timestamp_ns(times.compute_end_s);
  const std::int64_t exec_end = triton_timestamp_ns(times.exec_end_s);
  const std::uint64_t input_ns = span_ns(exec_start, compute_start);
  const std::uint64_t infer_ns = span_ns(compute_start, compute_end);
  const std::uint64_t output_ns = span_ns(compute_end, exec_end);

  TritonPromSeries& prom = series[gpu];
  for (const RequestRecord* r : requests) {
    // In the simulator a request enters the core and the queue at the same instant, its arrival,
    // and its statistics are reported when the batch ends.
    const std::int64_t arrived = triton_timestamp_ns(r->enqueued_s);
    const std::uint64_t request_ns = span_ns(arrived, exec_end);
    const std::uint64_t queue_ns = span_ns(arrived, exec_start);
    const auto units = static_cast<std::uint64_t>(std::max(1, r->items));

    inference_count += units;
    add(success, request_ns);
    add(queue, queue_ns);
    add(compute_input, input_ns);
    add(compute_infer, infer_ns);
    add(compute_output, output_ns);

    // Prometheus truncates each request's durations to whole microseconds before adding them.
    ++prom.request_success;
    prom.inference_count += units;
    prom.request_duration_us += request_ns / 1000;
    prom.queue_duration_us += queue_ns / 1000;
    prom.compute_input_duration_us += input_ns / 1000;
    prom.compute_infer_duration_us += infer_ns / 1000;
    prom.compute_output_duration_us += output_ns / 1000;
  }
  ++execution_count;
  ++prom.exec_count;
  TritonBatchStats& b = batch_stats[batch_units];
  add(b.compute_input, input_ns);
  add(b.compute_infer, infer_ns);
  add(b.compute_output, output_ns);
  last_inference_s = std::max(last_inference_s, times.exec_end_s);
}

void TritonModelStats::request_failed(const RequestRecord& request, double now_s) {
  --pending;
  add(fail, span_ns(triton_timestamp_ns(request.enqueued_s), triton_timestamp_ns(now_s)));
  ++failure_rejected;
}

void accumulate(TritonModelStats& a, const TritonModelStats& b) {
  a.inference_count += b.inference_count;
  a.execution_count += b.execution_count;
  for (auto [to, from] : {std::pair{&a.success, &b.success},
                          {&a.fail, &b.fail},
                          {&a.queue, &b.queue},
                          {&a.compute_input, &b.compute_input},
                          {&a.compute_infer, &b.compute_infer},
                          {&a.compute_output, &b.compute_output}})
    add(*to, *from);
}

}  // namespace sonicsim
