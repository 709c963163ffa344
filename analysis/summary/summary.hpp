#pragma once
// The headline numbers of one run, computed from its records.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/records.hpp"
#include "analysis/stats/statistics.hpp"
#include "analysis/stats/steady_estimates.hpp"

namespace sonicsim {

struct EventBreakdown {
  double cpu_s = 0, preprocess_s = 0, fallback_s = 0, inference_s = 0, network_s = 0, frontend_s = 0, queue_s = 0,
         gpu_s = 0;
};

struct GpuUtilization {
  std::string server;
  int gpu = 0;
  double utilization = 0;
};

struct LinkUtilization {
  std::string name;
  double bandwidth_Bps = 0;
  double bytes = 0;
  double utilization = 0;  // bytes / (bandwidth x simulated time)
};

// Batch-system workloads: how jobs waited for and used the worker cores.
struct JobsSummary {
  // Runs: a resubmitted job counts once per submission.
  std::int64_t submitted = 0, started = 0, done = 0, running_at_end = 0, queued_at_end = 0;
  std::int64_t failed = 0, resubmitted = 0;  // runs ended by a failure: for good, or submitted again
  stats::Description queue_wait_s;  // submit to start, over started jobs
  double slot_occupancy = 0;        // core-seconds used by jobs / (worker cores x simulated time)
};

// Where requests can fail: what failed, and what it cost.
struct FailureSummary {
  std::int64_t server_failures = 0, server_restarts = 0;
  std::int64_t unavailable = 0, deadline_exceeded = 0, cancelled = 0;  // failed requests by cause
  std::int64_t retried = 0, failed_over = 0;  // failed attempts followed by another try
  std::int64_t events_on_cpu = 0;              // events whose module fell back to the CPU after a failure
  std::int64_t jobs_failed = 0, events_lost = 0;
  double cpu_lost_s = 0;  // core seconds of the failed job runs
};

// The saturation gate's decisions at job starts.
struct GateSummary {
  std::int64_t checks = 0, refused = 0, without_metric = 0;
  std::int64_t events_on_cpu = 0;  // events of the refused jobs
};

// The proxy's token bucket on new connections.
struct ConnectionSummary {
  std::int64_t opened = 0, refused = 0;
  std::int64_t events_on_cpu = 0;  // events of every refused job, by the bucket or the gate
};

// Where Prometheus scraped the farm (a gate or an autoscaler): what the farm held and cost.
struct UsageSummary {
  double gpu_hours = 0;   // fixed groups over the run, plus the GPUs autoscaled pods held
  double core_hours = 0;  // worker cores held by running jobs
  std::optional<std::string> currency;
  std::optional<double> cost_per_event;  // (GPU-hours and core-hours at the scenario's prices) / events
  std::optional<AutoscalingTotals> autoscaling;
  double mean_ready_replicas = 0, mean_gpus_held = 0;  // autoscaled group, over the run
  std::size_t events = 0;  // completed, warm-up included: what the hours bought
};

struct Summary {
  std::string scenario;
  std::uint64_t seed = 0;
  double latency_quantile = 0;  // 0: calibrated kernel latencies at their fitted curves
  DeviceNaming device_naming = DeviceNaming::Gpu;
  double simulated_s = 0;
  double warmup_s = 0;
  stats::Description event_time;  // per-event wall time, events starting after the warm-up
  SteadyState steady;             // after MSER-5's cut too, with 95% intervals
  std::optional<PrecisionStop> precision_stop;
  EventBreakdown breakdown;       // means per event
  double events_per_s = 0;
  double requests_per_s = 0;
  std::int64_t events_incomplete = 0;
  std::int64_t requests_sent = 0, requests_completed = 0, requests_rejected = 0, requests_in_flight = 0;
  double gpu_utilization = 0;  // mean over all GPUs, 0..1
  std::vector<GpuUtilization> gpus;
  std::vector<LinkUtilization> links;  // shared links, then the busiest worker NIC
  std::int64_t batches = 0;
  double mean_batch_items = 0;
  std::vector<std::string> server_names, model_names;
  std::vector<TritonModelStats> triton;  // whole run, like Triton's counters since model load
  std::optional<JobsSummary> jobs;       // batch-system workloads only
  std::optional<FailureSummary> failures;
  std::optional<GateSummary> gate;
  std::optional<UsageSummary> usage;
  std::optional<ConnectionSummary> connections;
};

Summary summarize(const SimulationResults& results);

nlohmann::json summary_to_json(const Summary& summary);

// How a summary.json names the accelerators ("gpu" or "device"), for what reads it back.
DeviceWords device_words_of(const nlohmann::json& summary);

// A human-readable table for the terminal.
std::string format_summary(const Summary& summary);

}  // namespace sonicsim
