#pragma once
// Prometheus scraping the servers' Triton counters, and SuperSONIC's saturation gate reading the
// load metric from it (supersonic-deployment.md §1.4, §1.5, §1.7). An actor scrapes every server
// that is up every scrape_interval; a server that is down misses its scrape. At a job's start the
// gate evaluates the metric over the samples scraped so far and refuses the job above the
// threshold, or when no server is ready.
#include <cstdint>
#include <optional>
#include <vector>

#include "models/load_metric.hpp"
#include "models/request_balancer.hpp"
#include "models/scenario.hpp"
#include "sim/inference_server.hpp"
#include "sim/platform.hpp"
#include "sim/recorder.hpp"

namespace sonicsim::sim {

class SaturationGate {
 public:
  SaturationGate(const Scenario& scenario, const FarmPlatform& farm,
                 std::vector<std::unique_ptr<InferenceServer>>& servers, const RequestBalancer& balancer,
                 Recorder& recorder);

  // Creates the scraping actor. Call once, before the simulation runs.
  void start();

  // A job starts now: whether the gate lets it use the servers.
  bool admit();

 private:
  struct LabelSet {  // one series of nv_inference_*: a pod's {model, gpu_uuid}
    int server, model, gpu;
  };
  void scrape_forever();

  const Scenario& scenario_;
  const FarmPlatform& farm_;
  std::vector<std::unique_ptr<InferenceServer>>& servers_;
  const RequestBalancer& balancer_;
  Recorder& recorder_;
  SaturationGateSpec spec_;
  std::vector<LabelSet> labels_;
  std::vector<PromSeries> queue_duration_us_, exec_count_;  // parallel to labels_
};

}  // namespace sonicsim::sim
