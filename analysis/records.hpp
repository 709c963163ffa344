#pragma once
// What a simulation produces, as plain data. Times are simulated seconds from the start of the run.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/request_record.hpp"
#include "analysis/triton/triton_stats.hpp"
#include "models/scenario/device_naming.hpp"

namespace sonicsim {

struct EventRecord {
  int job = 0;
  int event = 0;
  double start_s = 0, end_s = 0;
  double cpu_s = 0;         // non-ML CPU modules
  double preprocess_s = 0;  // preprocessing of inference modules (CPU)
  double fallback_s = 0;    // inference run on the CPU because no server serves the model
  double inference_s = 0;   // wall time from the first request sent to the last response received
  // Sums over the event's requests (they overlap when requests are asynchronous):
  double network_s = 0;   // request upload + response download
  double frontend_s = 0;  // server frontend: waiting for a handler thread, parsing, serialising
  double queue_s = 0;     // waiting in the server queue
  double gpu_s = 0;       // executing in a batch
  int requests = 0;
  int rejected_requests = 0;
  // Jobs with threads: the stream that ran the event, and the time it waited for a free thread
  // after an ExternalWork call (before produce, docs/reference/cmssw-sonic.md §2). 0 for single-threaded jobs.
  int stream = 0;
  double thread_wait_s = 0;

  double time_s() const { return end_s - start_s; }
};

struct BatchRecord {
  std::int64_t id = 0;
  int server = 0, model = 0, instance = 0, gpu = 0;
  int requests = 0, units = 0;
  double start_s = 0, end_s = 0;
};

enum class JobOutcome : std::uint8_t {
  Queued,       // still waiting for a core when the run ended
  Running,      // still running when the run ended
  Done,         // ran all its events
  Failed,       // ended by a failure, not submitted again
  Resubmitted,  // ended by a failure; the batch system submitted it again (a later record)
};

// A job from submission to its end. In a batch-system workload ("submit") a job waits for a core
// (or, with threads, as many cores of one node) and a resubmission is a new record; in a static
// farm a job starts at its start time (submit_s = start_s), runs once and has no node (-1) unless
// its jobs have threads (then jobs.csv names the node).
struct JobRecord {
  int job = 0;
  double submit_s = 0, start_s = 0, end_s = 0;  // start_s once started, end_s once ended
  int node = -1;                                // index into RunHeader::worker_names
  int events = 0;                               // events completed
  JobOutcome outcome = JobOutcome::Queued;
  int attempt = 1;           // 1: the first submission; a resubmission is a new record
  int threads = 1;           // cores it holds
  double busy_thread_s = 0;  // jobs with threads: thread-seconds spent computing (CPU work), up to its end
};

struct GpuRecord {
  int server = 0;
  int gpu = 0;
  double busy_s = 0;  // time with at least one kernel running
};

struct LinkRecord {
  std::string name;  // e.g. "wan (up)"
  double bandwidth_Bps = 0;
  double bytes = 0;
  bool shared = false;  // a link shared by all workers or a server NIC, as opposed to one worker's NIC
};

// The farm at one Prometheus scrape. Replicas are the autoscaled deployment's pods by phase (a farm
// without an autoscaler: its ready servers); metrics have no value before Prometheus has two samples.
struct TimeseriesRow {
  double t_s = 0;
  int pending = 0, starting = 0, ready = 0, draining = 0, desired = 0;
  std::optional<double> metric;           // what the autoscaler reads, else the gate's load (ms)
  std::optional<double> requests_per_s;   // sum(rate(nv_inference_request_success))
  std::optional<double> queue_ms;         // mean queue time per request over the window
  std::optional<double> gpu_utilization;  // mean busy fraction of the scraped GPUs over the window
  std::int64_t jobs_running = 0, jobs_queued = 0, jobs_gated = 0;
};

// What the autoscaled deployment cost and did over the run.
struct AutoscalingTotals {
  double gpu_seconds = 0;  // GPUs held by pods: starting, ready or draining
  double ready_replica_seconds = 0;
  double serving_gpu_seconds = 0;  // GPUs of pods in service: ready, or draining what they hold
  int max_ready = 0;
  std::int64_t pods_created = 0, pods_ready = 0, pods_deleted = 0;
  std::int64_t requests_refused_draining = 0;  // reached a draining pod (UNAVAILABLE)
  std::int64_t requests_killed = 0;            // still held by a pod at the end of its grace period
  double threshold = 0;                        // the HPA's target for its metric (the metric's units)
};

// A run with a stopping rule (simulation.stop_at_precision): its checks of the per-event time's
// interval, and whether one found it precise enough.
// Its checks start once the workload is at its load: every job submitted (or started), when the
// statistics start too. They stop if the workload then drains (its running jobs fall more than
// kDrainTolerance below their count at the first check at load): waves that end, a finite trace.
// A dynamic farm (models/scenario/load_cycle.hpp) is checked at the ends of its load cycles, and
// its estimate covers whole cycles (analysis/stats/cycle_estimate.hpp).
struct CycleStop {
  double cycle_s = 0;
  double repeats_from_s = 0;              // the start of the first cycle that repeats the load
  std::optional<double> repeats_until_s;  // the end of the last one (waves); unset: no end
  bool operator==(const CycleStop&) const = default;
};
struct PrecisionStop {
  double relative_half_width = 0;  // the target
  int checks = 0;
  bool reached = false;             // false: the run hit its maximum time, or its workload ended, first
  double load_from_s = 0;           // when the last job was submitted: the statistics start here
  bool drained = false;             // the workload drained, or ended, before the estimate was precise
  std::optional<CycleStop> cycles;  // a dynamic farm's
  bool operator==(const PrecisionStop&) const = default;
};
inline constexpr double kDrainTolerance = 0.05;

// The facts of the scenario that the outputs need, built once from it (run_header.hpp) before the
// run starts.
struct RunHeader {
  std::string scenario;
  std::uint64_t seed = 0;
  double latency_quantile = 0;  // of the calibrated kernel latencies; 0: the fitted curves themselves
  DeviceNaming device_naming = DeviceNaming::Gpu;  // the scenario's: outputs name accelerators as it does
  double warmup_s = 0;
  // Event flows at once: the workload's jobs (times their streams); 0 for a batch system's (not known).
  int concurrent_jobs = 0;
  std::vector<std::string> server_names, model_names, module_names;
  // A batch-system workload ("submit"): its jobs wait for worker cores (worker_cores, over every pool).
  bool batch_system = false;
  // Jobs with threads and streams (Workload::threaded): their per-job figures are written out.
  bool threaded = false;
  int threads = 1, streams = 1;
  // The worker nodes, named for jobs.csv: a batch system's, and a static farm's with threads; else none.
  std::vector<std::string> worker_names;
  std::int64_t worker_cores = 0;  // a batch system's only
  // The scenario's prices (its "costs"), for the cost per event.
  std::optional<std::string> currency;
  double cpu_core_hour_price = 0, gpu_hour_price = 0;
  bool operator==(const RunHeader&) const = default;
};

// Where requests can fail (Scenario::requests_can_fail): what failed, and what it cost.
struct FailureCounts {
  std::int64_t unavailable = 0, deadline_exceeded = 0, cancelled = 0;  // failed requests by cause
  std::int64_t retried = 0, failed_over = 0;                           // failed attempts followed by another try
  std::int64_t events_fallen_back = 0;  // events whose module ran on the CPU after a failure
  std::int64_t jobs_failed = 0;         // job runs ended by a failure (static farm and batch system)
  std::int64_t events_lost = 0;         // events completed by job runs that then failed
  double cpu_lost_s = 0;                // core seconds of job runs that failed (cores held x their time)
  std::int64_t server_failures = 0, server_restarts = 0;
  std::int64_t requests_failed() const { return unavailable + deadline_exceeded + cancelled; }
  bool operator==(const FailureCounts&) const = default;
};

// The saturation gate's checks of starting jobs.
struct GateCounts {
  std::int64_t checks = 0, refused = 0, without_metric = 0;
  double threshold_ms = 0;         // the load metric above which the gate refuses a job
  std::int64_t events_on_cpu = 0;  // events of jobs the gate (or the token bucket) refused
  bool operator==(const GateCounts&) const = default;
};

// The proxy's token bucket on new connections.
struct ConnectionLimit {
  std::int64_t opened = 0, refused = 0;
  std::int64_t events_on_cpu = 0;  // events of jobs the bucket (or the gate) refused
  bool operator==(const ConnectionLimit&) const = default;
};

// Prometheus scraped the servers (a gate or an autoscaler): the farm at each scrape.
struct Scrapes {
  std::vector<TimeseriesRow> timeseries;  // one row per scrape
  bool operator==(const Scrapes&) const = default;
};

// The run's records: its header, what every run has, and the sections of the features its
// scenario uses (the way Summary groups its own).
struct SimulationResults {
  RunHeader header;
  double end_s = 0;  // simulated time at which the run ended

  // Batch-system workloads: every job submitted before the end, in job order. A static farm: one
  // record per job, in job order.
  std::vector<JobRecord> jobs;

  std::vector<EventRecord> events;      // completed events, in completion order
  std::vector<RequestRecord> requests;  // kept only when requests.csv is wanted
  std::vector<BatchRecord> batches;     // kept only when batches.csv is wanted
  std::vector<GpuRecord> gpus;
  // Device busy time summed over the devices, in consecutive bins of busy_bin_s from t = 0.
  double busy_bin_s = 0;
  std::vector<double> busy_bins_s;
  std::vector<LinkRecord> links;
  std::vector<TritonModelStats> triton;  // one per (server, model it serves), in that order

  std::optional<FailureCounts> failures;            // where requests can fail
  std::optional<GateCounts> gate;                   // where the proxy has a saturation gate
  std::optional<ConnectionLimit> connection_limit;  // where the proxy has a token bucket on connections
  std::optional<Scrapes> scrapes;                   // where Prometheus scraped the servers
  std::optional<AutoscalingTotals> autoscaling;
  double fixed_gpu_seconds = 0;  // GPUs of the server groups that are not autoscaled, over the run
  double job_core_seconds = 0;   // worker cores held by running jobs, over the run
  // Where the scenario asks for the upload fast path (simulation.network.fast_path): "on", or
  // "off: " and why the uploads were SimGrid transfers. Empty where it does not ask.
  std::string network_fast_path;
  // Requests that failed: none where requests cannot fail.
  std::int64_t requests_failed() const { return failures ? failures->requests_failed() : 0; }

  std::int64_t requests_sent = 0, requests_completed = 0, requests_rejected = 0;
  std::int64_t requests_in_flight_at_end = 0;
  std::int64_t batches_executed = 0, batch_units_executed = 0;
  std::int64_t events_incomplete = 0;           // cut off by the end of a duration-limited run
  std::optional<PrecisionStop> precision_stop;  // with a stopping rule: how the run ended
};

}  // namespace sonicsim
