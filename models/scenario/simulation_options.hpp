#pragma once
// The scenario's /simulation: the seed, SimGrid's network model, the outputs written, and when a
// run may stop early.
#include <cstdint>
#include <optional>
#include <string>

namespace sonicsim {

struct NetworkModel {
  std::string model = "CM02";        // SimGrid network/model
  double tcp_gamma_bytes = 4194304;  // SimGrid network/TCP-gamma (TCP window); 0 disables the limit
  bool crosstraffic = false;
  // Unset: the model's own value (1 for CM02; LV08's calibrated 13.01 and 0.97).
  std::optional<double> latency_factor;
  std::optional<double> bandwidth_factor;
  // Serve the uploads to the servers with the processor-sharing clock of sim/upload_fast_path.hpp
  // (exact against SimGrid's sharing to 1e-9) where its conditions hold; false: SimGrid transfers.
  bool fast_path = false;
};

struct Outputs {
  bool events = true;
  bool requests = true;
  bool batches = true;
  bool metrics = true;     // metrics-<server>.prom, Triton's Prometheus text
  bool jobs = true;        // jobs.csv, for batch-system workloads
  bool timeseries = true;  // timeseries.csv, where Prometheus scrapes the farm (a gate or an autoscaler)
};

// End a run once its steady-state mean per-event time is known to a relative half-width of its 95%
// interval, or at max_time_s, whichever comes first (the workload's own end still ends it).
struct StoppingRule {
  double relative_half_width = 0.01;
  std::optional<double> max_time_s;
};

struct SimulationOptions {
  std::uint64_t seed = 1;
  NetworkModel network;
  int stack_size_kib = 64;
  Outputs outputs;
  // Replace each "calibrated" kernel latency by this quantile of its bootstrap band (a pessimistic
  // or optimistic GPU); unset: the fitted curve itself.
  std::optional<double> latency_quantile;
  std::optional<StoppingRule> stop_at_precision;
};

}  // namespace sonicsim
