#pragma once
// One model of a Triton server: its scheduler (Triton's dynamic batcher, or its default scheduler)
// shared by all the model's instances, driven in simulated time. The batcher thread and each
// instance are actors; an instance executes one batch at a time on its device. Several instances on
// one GPU time-share it: SimGrid shares the GPU host's single core equally among the kernels
// running on it, so two concurrent kernels each take twice as long; or, where the server group
// gives a kernel_overlap, kernel_sharing or kernel_switch_cost, they share it as a SharedDevice
// (SimulatedSharedDevice). CPU-kind instances run on the server host, one core each. An instance
// that has its device to itself (the only instance on its GPU, or a CPU instance on its own core)
// always runs at full speed: its kernel's end is known when it starts, and a kernel timer ends it
// (KernelEnds) instead of a SimGrid execution. A kernel's time is tau(b), or a draw around it where
// its latency has a spread (from the instance's stream).
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <simgrid/s4u.hpp>

#include "models/scenario/scenario.hpp"
#include "models/triton/dynamic_batcher.hpp"
#include "models/workload/kernel_spread.hpp"
#include "models/workload/occupancy.hpp"
#include "models/workload/rng.hpp"
#include "sim/dated_ends.hpp"
#include "sim/recorder.hpp"
#include "sim/request.hpp"

namespace sonicsim::sim {

class SimulatedSharedDevice;

class ModelQueue {
 public:
  struct Instance {
    int index = 0;
    int gpu = -1;  // -1: a CPU-kind instance on the server host
    simgrid::s4u::Host* device = nullptr;
    const KernelLatency* latency = nullptr;
    OccupancyCurve occupancy;              // the share of the device each of its kernels needs, by occupancy
    const KernelSpread* spread = nullptr;  // null: every kernel takes exactly tau(b)
    std::unique_ptr<Rng> spread_rng;       // its kernels' draws, where it has a spread
    bool time_shares_device = false;       // other instances run kernels on its device at once: SimGrid time-shares it
    // Its GPU shared by a kernel_overlap, by occupancy or with a switching cost (null otherwise): it ends the kernel.
    SimulatedSharedDevice* shared_device = nullptr;
    int device_slot = 0;              // the instance's slot on shared_device
    simgrid::s4u::SemaphorePtr work;  // wakes its actor: a batch to run, or its kernel's end
    // What a failure clears: the batch it runs, from the scheduler's settle to the answers, and its
    // kernel: an execution on a shared device, which the instance's actor waits for (null
    // otherwise); alone on its device, the actor is woken at the kernel's end (KernelEnds).
    struct Run {
      std::optional<triton::FormedBatch> batch;
      simgrid::s4u::ExecPtr kernel;
      std::vector<InFlightRequest*> unanswered;  // the requests of its batch not yet answered
      // Compute Input, the kernel and Compute Output as the execution started them (s, at the
      // device's full speed): the shares of its time the statistics give to each.
      double input_s = 0, kernel_s = 0, output_s = 0;
    } run;
  };
  // Kernels of instances alone on their device, by the date they end. A server's queues share one,
  // so that the kernels of one date end together under one timer, in the order they started.
  class KernelEnds : public DatedEnds<Instance*> {
   public:
    KernelEnds() : DatedEnds([](const std::vector<Instance*>& ending) { end(ending); }) {}

   private:
    // In maestro: the instances whose kernels end now answer, in the order the kernels started.
    static void end(const std::vector<Instance*>& ending) {
      for (Instance* instance : ending) instance->work->release();
    }
  };
  // Where the queue's answers go: through its server's frontend, from an actor on the server host.
  class Responder {
   public:
    virtual void respond(InFlightRequest* request, double bytes) = 0;

   protected:
    ~Responder() = default;
  };
  // What the server creates each of the queue's actors with (its batcher, its instances).
  using Spawn = std::function<void(const std::string& name, std::function<void()> body)>;

  ModelQueue(int server, int model, const ModelSpec& spec, Recorder& recorder, Responder& responder,
             KernelEnds& kernel_ends);
  ModelQueue(const ModelQueue&) = delete;
  ModelQueue& operator=(const ModelQueue&) = delete;

  // Loads an instance on `device` (`gpu` -1: the server host); they are added in Triton's order.
  // With a spread, its kernel times are drawn from its own stream of the run's `seed`.
  void add_instance(int gpu, simgrid::s4u::Host* device, const KernelLatency& latency, const KernelSpread* spread,
                    std::uint64_t seed);
  std::vector<Instance>& instances() { return instances_; }
  bool batches_dynamically() const { return config_.dynamic_batching.has_value(); }

  // A fresh life: an empty queue, every instance idle, the actors created with `spawn`.
  void start(double now, const Spawn& spawn);
  // The request reaches the scheduler: Triton's statistics start here.
  void admit(InFlightRequest* request);
  // The server process died (its actors are killed): every request the queue holds is added to
  // `lost`, unanswered; the queue is empty until start(). Its settles already set do nothing.
  void fail(std::vector<InFlightRequest*>& lost);
  // The settles already set do nothing (the process exited, or the run is over).
  void stop_settling() { ++lives_; }

 private:
  // What a failure or a restart clears.
  struct State {
    std::unique_ptr<triton::DynamicBatcher> scheduler;  // null until the first start
    // Idle instances by the date they went idle, and index. Triton hands a batch to an arbitrary
    // idle backend thread; we give it to the one idle the longest (what a FIFO wake-up of waiting
    // threads does), ties to the lowest index, whatever order SimGrid ran the instant's actors in.
    std::set<std::pair<double, int>> idle;
    std::unordered_map<std::int64_t, InFlightRequest*> waiting;
    // Requests that reached the scheduler during the current instant, not yet enqueued.
    std::vector<InFlightRequest*> arriving;
    bool settle_armed = false;  // the end of the current instant is marked
    double woken_at_s = 0;      // the scheduler's last timer wake-up
    // The batcher actor sleeps until the scheduler's wake-up time (armed_wakeup_s); a settle wakes
    // it early when that time changed or rejected requests await their answer.
    double armed_wakeup_s = std::numeric_limits<double>::infinity();
    bool batcher_signalled = false;
    std::deque<InFlightRequest*> rejected;
    // preserve_ordering: responses leave in the order requests left the queue.
    std::int64_t next_release = 0;
    std::map<std::int64_t, std::pair<InFlightRequest*, double>> held;
  };

  void clear();
  void enqueue(InFlightRequest* request, double now);
  void settle_at_end_of_instant();
  void settle();
  void start_batch(Instance& instance, triton::FormedBatch batch);
  void run_instance(Instance& instance);
  void run_batcher();
  void mark_rejected(InFlightRequest* request, RejectReason reason, bool counted_by_triton);
  void release_in_order(std::int64_t order, InFlightRequest* request, double bytes);

  const int server_;
  const int model_;
  const bool by_elements_;                    // a variable dim: the kernel's time is a function of the batch's elements
  const std::optional<StagingSpec> staging_;  // Compute Input / Output around the kernel, if any
  // The model's Triton config (ModelSpec::triton, in the scenario that outlives the run): the queue
  // reads its max_batch_size and preserve_ordering there, and each start's scheduler reads it too.
  const triton::ModelConfig& config_;
  // How each start's scheduler runs it (instances, wake-up and payload rules).
  triton::SchedulerSettings settings_;
  Recorder& recorder_;
  Responder& responder_;
  KernelEnds& kernel_ends_;
  std::vector<Instance> instances_;
  simgrid::s4u::SemaphorePtr batcher_wakeup_;  // created at each start
  State state_;
  std::uint64_t lives_ = 0;  // one more at each stop: settles set before do nothing
};

}  // namespace sonicsim::sim
