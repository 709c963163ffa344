#pragma once
// JSON round trip of the result records, so a simulation run in a child process can hand its
// results back to the test, exactly (nlohmann writes doubles with round-trip precision).
#include <optional>

#include <nlohmann/json.hpp>

#include "analysis/records.hpp"

// nlohmann 3.11 has no std::optional support: null for no value.
NLOHMANN_JSON_NAMESPACE_BEGIN
template <typename T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& x) { j = x ? json(*x) : json(nullptr); }
  static void from_json(const json& j, std::optional<T>& x) {
    x = j.is_null() ? std::nullopt : std::optional<T>(j.get<T>());
  }
};
NLOHMANN_JSON_NAMESPACE_END

namespace sonicsim {

NLOHMANN_JSON_SERIALIZE_ENUM(RequestStatus, {{RequestStatus::Completed, "completed"},
                                             {RequestStatus::Rejected, "rejected"},
                                             {RequestStatus::InFlight, "in_flight"},
                                             {RequestStatus::Failed, "failed"}})
NLOHMANN_JSON_SERIALIZE_ENUM(RejectReason, {{RejectReason::None, "none"},
                                            {RejectReason::BatchTooLarge, "batch_too_large"},
                                            {RejectReason::QueueFull, "queue_full"},
                                            {RejectReason::TimedOut, "timed_out"}})
NLOHMANN_JSON_SERIALIZE_ENUM(JobOutcome, {{JobOutcome::Queued, "queued"},
                                          {JobOutcome::Running, "running"},
                                          {JobOutcome::Done, "done"},
                                          {JobOutcome::Failed, "failed"},
                                          {JobOutcome::Resubmitted, "resubmitted"}})
NLOHMANN_JSON_SERIALIZE_ENUM(FailureCause, {{FailureCause::None, "none"},
                                            {FailureCause::Unavailable, "unavailable"},
                                            {FailureCause::DeadlineExceeded, "deadline_exceeded"},
                                            {FailureCause::Cancelled, "cancelled"}})
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(JobRecord, job, submit_s, start_s, end_s, node, events, outcome, attempt, threads,
                                   busy_thread_s)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TritonDuration, count, ns)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TritonBatchStats, compute_input, compute_infer, compute_output)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TritonPromSeries, request_success, inference_count, exec_count, request_duration_us,
                                   queue_duration_us, compute_input_duration_us, compute_infer_duration_us,
                                   compute_output_duration_us)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TritonModelStats, server, model, inference_count, execution_count, last_inference_s,
                                   success, fail, queue, compute_input, compute_infer, compute_output, batch_stats,
                                   series, failure_rejected, pending)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(EventRecord, job, event, start_s, end_s, cpu_s, preprocess_s, fallback_s,
                                   inference_s, network_s, frontend_s, queue_s, gpu_s, requests, rejected_requests,
                                   stream, thread_wait_s)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RequestRecord, id, job, event, module, model, server, items, input_bytes,
                                   output_bytes, sent_s, arrived_s, enqueued_s, exec_start_s, exec_end_s, responded_s,
                                   received_s, batch, status, reject_reason, failure, attempt, retried)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(BatchRecord, id, server, model, instance, gpu, requests, units, start_s, end_s)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(GpuRecord, server, gpu, busy_s)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(LinkRecord, name, bandwidth_Bps, bytes, shared)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TimeseriesRow, t_s, pending, starting, ready, draining, desired, metric,
                                   requests_per_s, queue_ms, gpu_utilization, jobs_running, jobs_queued, jobs_gated)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(AutoscalingTotals, gpu_seconds, ready_replica_seconds, serving_gpu_seconds,
                                   max_ready, pods_created, pods_ready, pods_deleted, requests_refused_draining,
                                   requests_killed, threshold)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CycleStop, cycle_s, repeats_from_s, repeats_until_s)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PrecisionStop, relative_half_width, checks, reached, load_from_s, drained, cycles)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RunHeader, scenario, seed, latency_quantile, device_naming, warmup_s,
                                   concurrent_jobs, server_names, model_names, module_names, batch_system, threaded,
                                   threads, streams, worker_names, worker_cores, currency, cpu_core_hour_price,
                                   gpu_hour_price)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(FailureCounts, unavailable, deadline_exceeded, cancelled, retried, failed_over,
                                   events_fallen_back, jobs_failed, events_lost, cpu_lost_s, server_failures,
                                   server_restarts)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(GateCounts, checks, refused, without_metric, threshold_ms, events_on_cpu)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ConnectionLimit, opened, refused, events_on_cpu)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Scrapes, timeseries)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SimulationResults, header, end_s, jobs, events, requests, batches, gpus, busy_bin_s,
                                   busy_bins_s, links, triton, failures, gate, connection_limit, scrapes, autoscaling,
                                   fixed_gpu_seconds, job_core_seconds, network_fast_path, requests_sent,
                                   requests_completed, requests_rejected, requests_in_flight_at_end, batches_executed,
                                   batch_units_executed, events_incomplete, precision_stop)

}  // namespace sonicsim
