#pragma once
// The closed-form t_SONIC model (docs/reference/timing-model.md §2) of a grid-job scenario, extended to
// shared links (§3): one job's uncontended per-event time t_ideal, and with N concurrent jobs
//   t(N) = max(t_ideal, N · t_GPU / N_GPU, N · t_frontend / frontend threads,
//              max over shared links N · bytes_per_event / bandwidth).
// Worker NICs are left out: the jobs of one node share one, but their number stops growing with N.
// It assumes every GPU serves every inference module, mean module times, no batching across jobs,
// and a network that carries each request at one flow's rate; the simulator goes beyond all three.
#include <string>
#include <vector>

#include "models/scenario/scenario.hpp"

namespace sonicsim {

struct SharedLink {
  std::string name;
  double bandwidth_Bps = 0;
  double bytes_per_job_event = 0;  // what one event of one job moves over it in its busier direction
  double jobs_per_link = 1;        // jobs sharing one such link per job running (1/servers for server NICs)
};

struct AnalyticModel {
  double cpu_s = 0;               // non-ML CPU modules, mean, on the pool's CPU
  double preprocess_s = 0;        // inference modules' preprocessing, mean
  double gpu_s = 0;               // GPU-busy time per event: tau and staging over the event's requests (expected)
  double frontend_s = 0;          // server frontend per event: parsing requests, serialising responses
  int frontend_threads = 0;       // handler threads over all servers (0: no frontend)
  double transfer_s = 0;          // bytes / one flow's rate, requests and responses
  double round_trips_s = 0;       // one path latency each way per request
  double cpu_fallback_s = 0;      // modules with no server: their CPU fallback time
  double requests_per_event = 0;  // expected, where items per event are a distribution
  int gpus = 0;
  DeviceNaming device_naming = DeviceNaming::Gpu;  // the scenario's, for the text
  double flow_rate_Bps = 0;  // one flow's rate: the narrowest link, or the TCP window over the round trip
  std::vector<SharedLink> links;

  double latency_s() const { return transfer_s + round_trips_s; }
  double ideal_s() const { return cpu_s + preprocess_s + gpu_s + frontend_s + latency_s() + cpu_fallback_s; }
};

struct AnalyticPrediction {
  double per_event_s = 0;
  std::string regime;  // "CPU-bound", "GPU-saturated" (or "device-"), "frontend-saturated", "network-saturated (LINK)"
  std::string limit;   // "cpu", "gpu" (or "device"), "frontend" or the link's name
};

// Throws std::invalid_argument for a perf_analyzer scenario (no grid jobs).
AnalyticModel analytic_model(const Scenario& scenario);

AnalyticPrediction analytic_prediction(const AnalyticModel& model, double jobs);

// The largest job count before each resource saturates: N_GPU · t_ideal / t_GPU and
// bandwidth · t_ideal / bytes_per_event (per link); infinity when it never does.
double gpu_knee_jobs(const AnalyticModel& model);
double frontend_knee_jobs(const AnalyticModel& model);
double link_cap_jobs(const AnalyticModel& model, const SharedLink& link);

// "GPUs saturate at 270.0 jobs (67.5 per GPU), frontends at 548 jobs, site uplink at 3012 jobs, ..."
std::string describe_saturation(const AnalyticModel& model);

}  // namespace sonicsim
