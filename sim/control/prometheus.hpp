#pragma once
// Prometheus scraping the servers' Triton counters and Envoy's gauges every scrape_interval
// (docs/reference/supersonic.md §1.5, §1.7), and the queries the saturation gate, the autoscaler and the
// time series read from those samples. A server that is down misses its scrape. Each pod is a series
// of its own: a pod started by the autoscaler on a server begins new series at zero, and its
// predecessor's samples age out of the window as Prometheus's would.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "models/control/load_metric.hpp"
#include "models/control/request_balancer.hpp"
#include "models/scenario/scenario.hpp"
#include "sim/platform.hpp"
#include "sim/recorder.hpp"
#include "sim/server/inference_server.hpp"

namespace sonicsim::sim {

class Prometheus {
 public:
  Prometheus(const Scenario& scenario, const FarmPlatform& farm, std::vector<std::unique_ptr<InferenceServer>>& servers,
             const RequestBalancer& balancer, Recorder& recorder);

  // Creates the scraping actor. Call once, before the simulation runs.
  void start();
  // Called after every scrape, at its time.
  void after_scrape(std::function<void()> callback) { after_scrape_ = std::move(callback); }
  // A new pod runs on `server` from now: its counters start new series, from zero.
  void pod_started(int server);

  // Queries at the current simulated time over the samples so far; no value when too few samples.
  std::optional<double> supersonic_load_ms(double window_s) const;
  std::optional<double> query(ScalingMetric metric, double window_s) const;
  std::optional<double> requests_per_s(double window_s) const;        // sum(rate(request_success))
  std::optional<double> queue_ms_per_request(double window_s) const;  // mean queue time of a request
  std::optional<double> gpu_utilization(double window_s) const;       // mean over GPUs of rate(busy s)

 private:
  struct TritonLabels {  // one pod's nv_inference_* for one model and GPU
    int server, model, gpu;
    bool live;                  // the server's current pod; else its samples only age out
    TritonPromSeries baseline;  // the server's counters when the pod started
  };
  struct GpuSeries {  // one pod's GPU busy time
    int server, gpu;
    bool live;
    double baseline_s;
    PromSeries busy_s;
  };
  void scrape_forever();
  void scrape(std::int64_t now_ms);
  void add_series(int server);
  void forget_aged_out_series();

  const Scenario& scenario_;
  const FarmPlatform& farm_;
  std::vector<std::unique_ptr<InferenceServer>>& servers_;
  const RequestBalancer& balancer_;
  Recorder& recorder_;
  double keep_s_ = 30;  // the longest window any query uses
  // Triton's series, column-wise so that queries read them in place: labels and samples in parallel.
  std::vector<TritonLabels> triton_;
  std::vector<PromSeries> queue_duration_us_, exec_count_, request_success_;
  std::vector<GpuSeries> gpus_;
  std::optional<double> in_flight_per_replica_;  // the last scrape's Envoy gauge over ready replicas
  std::function<void()> after_scrape_;
};

}  // namespace sonicsim::sim
