#pragma once
// A GPU inference server (Triton-like). Per model: one queue and one scheduling policy shared by
// all the model's instances, as in Triton. Instances are actors; each executes one batch at a time
// on its GPU. Several instances on one GPU time-share it: SimGrid shares the GPU host's single
// core equally among the kernels running on it, so two concurrent kernels each take twice as long.
#include <deque>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include <simgrid/s4u.hpp>

#include "models/request_scheduler.hpp"
#include "models/scenario.hpp"
#include "sim/platform.hpp"
#include "sim/recorder.hpp"
#include "sim/request.hpp"

namespace sonicsim::sim {

class InferenceServer {
 public:
  InferenceServer(int index, const ServerNode& node, const Scenario& scenario, Recorder& recorder);
  InferenceServer(const InferenceServer&) = delete;
  InferenceServer& operator=(const InferenceServer&) = delete;

  // Creates the instance actors. Call once, before the simulation runs.
  void start();

  simgrid::s4u::Host* host() const { return node_.host; }

  // The request has fully arrived at the server (called at that simulated time).
  void receive(InFlightRequest* request);

 private:
  struct Instance {
    int index = 0;
    int gpu = 0;
    std::optional<FormedBatch> assigned;
    simgrid::s4u::SemaphorePtr work;
  };
  struct ModelQueue {
    int model = -1;
    int max_batch_size = 0;
    double output_bytes_per_item = 0;
    const KernelLatency* latency = nullptr;
    std::unique_ptr<RequestScheduler> scheduler;
    std::vector<Instance> instances;
    // Idle instances, longest idle first. Triton hands a batch to an arbitrary idle backend thread;
    // we give it to the one idle the longest (what a FIFO wake-up of waiting threads does), ties to
    // the lowest index.
    std::deque<int> idle;
    std::unordered_map<std::int64_t, InFlightRequest*> waiting;
  };

  void dispatch(ModelQueue& queue);
  void run_instance(ModelQueue& queue, Instance& instance);
  void respond(InFlightRequest* request, double bytes);

  int index_;
  const ServerNode& node_;
  Recorder& recorder_;
  std::vector<std::unique_ptr<ModelQueue>> queues_;  // indexed by model; null where not served
};

}  // namespace sonicsim::sim
