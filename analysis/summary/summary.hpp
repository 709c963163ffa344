#pragma once
// The headline numbers of one run, computed from its records: the typed form of summary.json,
// holding what the document holds and nothing more, so that a summary read back from its JSON
// (from a child process, or a sweep point on disk) equals the one written. Planners read these
// fields; summary_json.hpp writes and reads the document, summary_text.hpp prints it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/records.hpp"
#include "analysis/summary/job_threads.hpp"
#include "analysis/stats/statistics.hpp"
#include "analysis/stats/steady_state.hpp"
#include "analysis/triton/statistics_api.hpp"

namespace sonicsim {

struct EventBreakdown {
  double cpu_s = 0, preprocess_s = 0, fallback_s = 0, inference_s = 0, network_s = 0, frontend_s = 0, queue_s = 0,
         gpu_s = 0;
  bool operator==(const EventBreakdown&) const = default;
};

struct GpuUtilization {
  std::string server;
  int gpu = 0;
  double utilization = 0;
  bool operator==(const GpuUtilization&) const = default;
};

struct LinkUtilization {
  std::string name;
  double bandwidth_bps = 0;  // bits per second
  double bytes = 0;
  double utilization = 0;  // bytes / (bandwidth x simulated time)
  bool operator==(const LinkUtilization&) const = default;
};

// A mean with the half-width of its 95% interval.
struct Interval95 {
  double mean = 0, half_width = 0;
  bool operator==(const Interval95&) const = default;
};

// A dynamic farm's estimate over whole load cycles (cycle_estimate.hpp): the cycle, the cycles with
// events, and how many of them MSER cut as the farm's transient.
struct CycleSummary {
  double cycle_s = 0;
  std::size_t cycles = 0, cut = 0;
  bool operator==(const CycleSummary&) const = default;
};

// MSER-5's warm-up cut and the steady-state 95% intervals (steady_estimates.hpp).
struct SteadySummary {
  std::size_t warmup_cut_events = 0;  // of the events that started after the scenario's warm-up
  double warmup_until_s = 0;          // when the last cut event completed (the scenario's warm-up if none)
  bool warmup_at_limit = false;       // the cut reached half of them: no steady state yet
  std::size_t events_after_cut = 0;
  std::optional<stats::Interval> event_time_s;  // batch means, with their count and size
  double window_s = 0;
  std::optional<Interval95> events_per_s, device_utilization;
  std::optional<CycleSummary> cycles;  // over whole load cycles instead of batches of events
  bool operator==(const SteadySummary&) const = default;
};

struct QueueWait {
  double mean = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
  bool operator==(const QueueWait&) const = default;
};

// Batch-system workloads: how jobs waited for and used the worker cores.
struct JobsSummary {
  // Runs: a resubmitted job counts once per submission.
  std::int64_t submitted = 0, started = 0, done = 0, running_at_end = 0, queued_at_end = 0;
  std::int64_t failed = 0, resubmitted = 0;  // runs ended by a failure: for good, or submitted again
  QueueWait queue_wait_s;                    // submit to start, over started jobs
  double slot_occupancy = 0;      // core-seconds held by jobs (threads x time) / (worker cores x simulated time)
  std::int64_t peak_running = 0;  // the most jobs running at once
  bool operator==(const JobsSummary&) const = default;
};

// Where requests can fail: what failed, and what it cost.
struct FailureSummary {
  std::int64_t server_failures = 0, server_restarts = 0;
  std::int64_t unavailable = 0, deadline_exceeded = 0, cancelled = 0;  // failed requests by cause
  std::int64_t retried = 0, failed_over = 0;                           // failed attempts followed by another try
  std::int64_t events_on_cpu = 0;  // events whose module fell back to the CPU after a failure
  std::int64_t jobs_failed = 0, events_lost = 0;
  double cpu_lost_s = 0;  // core seconds of the failed job runs
  std::int64_t requests_failed() const { return unavailable + deadline_exceeded + cancelled; }
  bool operator==(const FailureSummary&) const = default;
};

// The saturation gate's decisions at job starts.
struct GateSummary {
  std::int64_t checks = 0, refused = 0, without_metric = 0;
  std::int64_t events_on_cpu = 0;  // events of the refused jobs
  double threshold_ms = 0;         // the load metric above which it refuses a starting job
  bool operator==(const GateSummary&) const = default;
};

// The proxy's token bucket on new connections.
struct ConnectionSummary {
  std::int64_t opened = 0, refused = 0;
  std::int64_t events_on_cpu = 0;  // events of every refused job, by the bucket or the gate
  bool operator==(const ConnectionSummary&) const = default;
};

// Where Prometheus scraped the farm (a gate or an autoscaler): what the farm held and cost.
struct UsageSummary {
  double gpu_hours = 0;                             // fixed groups over the run, plus the GPUs autoscaled pods held
  double core_hours = 0;                            // worker cores held by running jobs
  std::optional<double> gpu_hours_per_1000_events;  // over completed events, warm-up included; none without
  std::optional<std::string> currency;
  std::optional<double> cost_per_event;  // (GPU-hours and core-hours at the scenario's prices) / events
  bool operator==(const UsageSummary&) const = default;
};

// The autoscaled deployment over the run (with a usage summary: an autoscaler is scraped).
struct AutoscalingSummary {
  double mean_ready_replicas = 0, mean_gpus_held = 0;
  // The devices' busy time over the device-seconds in service (pods ready or draining, and every
  // fixed group's), where the pool's mean utilisation counts devices no pod held.
  double gpu_utilization_in_service = 0;
  int max_ready_replicas = 0;
  std::int64_t pods_created = 0, pods_ready = 0, pods_deleted = 0;
  std::int64_t requests_refused_draining = 0;  // reached a draining pod (UNAVAILABLE)
  std::int64_t requests_killed = 0;            // still held by a pod at the end of its grace period
  double threshold = 0;                        // the autoscaler's target for its metric
  bool operator==(const AutoscalingSummary&) const = default;
};

// Where the scenario asks for the upload fast path: whether the run used it, or why not.
struct NetworkSummary {
  std::string fast_path;  // "on", or "off: " and the reason
  bool operator==(const NetworkSummary&) const = default;
};

// Declared unknowns (models/scenario/unknowns/): the design run over them, each output's band over its
// runs and the share of its variance each unknown explains (analysis/stats/uncertainty.hpp). The rest
// of the summary is the nominal run's: every range at its median, every choice at its first.
struct UnknownIndex {
  std::string pointer;
  std::optional<double> index;  // none where the output does not vary
  bool operator==(const UnknownIndex&) const = default;
};
struct OutputBand {
  std::string output, unit;
  double median = 0, p5 = 0, p95 = 0;
  std::vector<UnknownIndex> first_order_index;
  bool operator==(const OutputBand&) const = default;
};
struct DeclaredUnknownEntry {
  std::string pointer, declared, why;
  bool operator==(const DeclaredUnknownEntry&) const = default;
};
// One run of the design, in the design's order: each unknown's value in it (JSON text, as --set takes
// it, in the order of `unknowns`), and each output's value (in the order of `outputs`), or, for a run
// left out of the bands, none and why.
struct DesignRun {
  std::vector<std::string> values;
  std::vector<double> outputs;
  std::string unsound;
  bool operator==(const DesignRun&) const = default;
};
struct UnknownsSummary {
  std::string design;  // "latin hypercube", "full factorial over the choices, latin hypercube of the ranges"
  std::uint64_t design_seed = 0;
  std::int64_t runs = 0, batches = 0;
  std::string stopped;            // why the design ended: "--samples", "the band steady", "--max-samples"
  std::int64_t unsound_runs = 0;  // left out of the bands (run_soundness.hpp), with the first's reasons
  std::string unsound_reason;
  std::vector<DeclaredUnknownEntry> unknowns;
  std::vector<OutputBand> outputs;
  std::vector<DesignRun> run_records;  // every run, sound or not: what a derived quantity's band is taken from
  bool operator==(const UnknownsSummary&) const = default;
};

struct Summary {
  std::string scenario;
  std::uint64_t seed = 0;
  std::optional<double> latency_quantile;  // none: calibrated kernel latencies at their fitted curves
  DeviceNaming device_naming = DeviceNaming::Gpu;
  double simulated_s = 0;
  double warmup_s = 0;
  stats::Description event_time;  // per-event wall time, events starting after the warm-up
  std::int64_t events_incomplete = 0;
  EventBreakdown breakdown;  // means per event
  SteadySummary steady;      // after MSER-5's cut too, with 95% intervals
  double events_per_s = 0;
  double requests_per_s = 0;
  std::int64_t requests_sent = 0, requests_completed = 0, requests_rejected = 0, requests_in_flight = 0;
  std::int64_t batches = 0;
  double mean_batch_items = 0;
  double gpu_utilization = 0;  // mean over all GPUs, 0..1
  std::vector<GpuUtilization> gpus;
  std::vector<LinkUtilization> links;            // shared links, then the busiest worker NIC
  std::vector<TritonServerStatistics> triton;    // whole run, like Triton's counters since model load
  std::optional<JobsSummary> jobs;               // batch-system workloads only
  std::optional<JobThreadsSummary> job_threads;  // jobs with threads and streams only
  std::optional<FailureSummary> failures;
  std::optional<GateSummary> gate;
  std::optional<NetworkSummary> network;  // only where the scenario asks for the upload fast path
  std::optional<ConnectionSummary> connections;
  std::optional<UsageSummary> usage;
  std::optional<AutoscalingSummary> autoscaling;
  std::optional<PrecisionStop> precision_stop;       // with a stopping rule: how the run ended
  std::optional<UnknownsSummary> declared_unknowns;  // with declared unknowns only
  bool operator==(const Summary&) const = default;
};

Summary summarize(const SimulationResults& results);

}  // namespace sonicsim
