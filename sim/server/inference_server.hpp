#pragma once
// A Triton inference server. Per model: one scheduler (Triton's dynamic batcher, or its default
// scheduler) shared by all the model's instances, driven in simulated time. Instances are actors;
// each executes one batch at a time on its device. Several instances on one GPU time-share it:
// SimGrid shares the GPU host's single core equally among the kernels running on it, so two
// concurrent kernels each take twice as long. CPU-kind instances run on the server host, one core
// each. An instance that has its device to itself (the only instance on its GPU, or a CPU instance
// on its own core) always runs at full speed: its kernel's end is known when it starts, and a
// SimGrid kernel timer ends it instead of a SimGrid execution.
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include <simgrid/s4u.hpp>

#include "models/scenario/scenario.hpp"
#include "models/triton/dynamic_batcher.hpp"
#include "sim/dated_ends.hpp"
#include "sim/platform.hpp"
#include "sim/recorder.hpp"
#include "sim/request.hpp"
#include "sim/server/frontend_threads.hpp"

namespace sonicsim::sim {

class InferenceServer {
 public:
  InferenceServer(int index, const ServerNode& node, const Scenario& scenario, Recorder& recorder);
  InferenceServer(const InferenceServer&) = delete;
  InferenceServer& operator=(const InferenceServer&) = delete;

  // Creates the instance and batcher-timer actors: before the run, and again at each restart.
  void start();

  // Instead of start(): the server begins without a running process (no pod), until restart().
  void start_down() { up_ = false; }

  simgrid::s4u::Host* host() const { return node_.host; }
  bool up() const { return up_; }

  // The request has fully arrived at the server (called at that simulated time).
  void receive(InFlightRequest* request);

  // The server process dies: its actors stop, and every request it holds (queued, in a running
  // batch, in the frontend) fails with UNAVAILABLE. Called from an actor on the server host, which
  // sends those answers: a broken connection reaches the client like an empty response.
  // Returns how many requests it held.
  std::int64_t fail();
  // The server process ends by itself, holding no request: it is down from now. Its threads are idle;
  // they are only reaped at the next start(), so that answers they sent still arrive.
  void exit();
  // SIGTERM: the server refuses new requests (as if down) and finishes those it holds. Waiters on
  // refused_ready() are also signalled when the last of them has been answered.
  void stop_accepting() { accepting_ = false; }
  // Requests received and not yet answered.
  std::int64_t in_hand() const { return in_hand_; }
  // Requests that arrived while the server is down, to be refused from the server host.
  std::deque<InFlightRequest*> take_refused();
  // Signalled when a request arrives while the server is down.
  const simgrid::s4u::SemaphorePtr& refused_ready() const { return refused_ready_; }
  // The server is back, empty, with every instance idle.
  void restart();
  // The run is over: the timers the server has set (frontend tasks, scheduler settles) do nothing.
  void halt();
  // Answers `request` with a failure (UNAVAILABLE), from the calling actor's host.
  static void send_unavailable(InFlightRequest* request);

 private:
  struct Instance {
    int index = 0;
    int gpu = -1;  // -1: a CPU-kind instance on the server host
    simgrid::s4u::Host* device = nullptr;
    const KernelLatency* latency = nullptr;
    bool shares_device = false;  // other instances may run kernels on its device at the same time
    // The batch it runs, from the scheduler's settle to the answers, and its kernel: an execution on
    // a shared device, which the instance's actor waits for (null otherwise); alone on its device,
    // the actor is woken at the kernel's end (kernel_ends_).
    std::optional<triton::FormedBatch> batch;
    simgrid::s4u::ExecPtr kernel;
    simgrid::s4u::SemaphorePtr work;
    std::vector<InFlightRequest*> running;  // the requests of its batch not yet answered
  };
  struct ModelQueue {
    int model = -1;
    int max_batch_size = 0;
    bool by_elements = false;  // a variable dim: the kernel's time is a function of the batch's elements
    triton::SchedulerSettings settings;
    std::unique_ptr<triton::DynamicBatcher> scheduler;
    std::vector<Instance> instances;
    // Idle instances by the date they went idle, and index. Triton hands a batch to an arbitrary idle
    // backend thread; we give it to the one idle the longest (what a FIFO wake-up of waiting threads
    // does), ties to the lowest index, whatever order SimGrid ran the instant's actors in.
    std::set<std::pair<double, int>> idle;
    std::unordered_map<std::int64_t, InFlightRequest*> waiting;
    // Requests that reached the scheduler during the current instant, not yet enqueued.
    std::vector<InFlightRequest*> arriving;
    bool settle_armed = false;  // the end of the current instant is marked
    double woken_at_s = 0;      // the scheduler's last timer wake-up
    // The batcher actor sleeps until the scheduler's wake-up time (armed_wakeup_s); a settle wakes
    // it early when that time changed or rejected requests await their answer.
    simgrid::s4u::SemaphorePtr batcher_wakeup;
    double armed_wakeup_s = std::numeric_limits<double>::infinity();
    bool batcher_signalled = false;
    std::deque<InFlightRequest*> rejected;
    // preserve_ordering: responses leave in the order requests left the queue.
    bool preserve_ordering = false;
    std::int64_t next_release = 0;
    std::map<std::int64_t, std::pair<InFlightRequest*, double>> held;
  };

  void reset_queue(ModelQueue& queue);
  void admit(InFlightRequest* request);
  void enqueue(ModelQueue& queue, InFlightRequest* request, double now);
  void settle_at_end_of_instant(ModelQueue& queue);
  void settle(ModelQueue& queue);
  void frontend_task_done(const FrontendThreads::Task& task);
  void run_frontend();
  void send_response(InFlightRequest* request, double bytes);
  void start_batch(ModelQueue& queue, Instance& instance, triton::FormedBatch batch);
  void end_kernels(const std::vector<Instance*>& instances);
  void run_instance(ModelQueue& queue, Instance& instance);
  void run_batcher(ModelQueue& queue);
  void mark_rejected(ModelQueue& queue, InFlightRequest* request, RejectReason reason, bool counted_by_triton);
  void respond(InFlightRequest* request, double bytes);
  void release_in_order(ModelQueue& queue, std::int64_t order, InFlightRequest* request, double bytes);

  int index_;
  const ServerNode& node_;
  Recorder& recorder_;
  std::vector<std::unique_ptr<ModelQueue>> queues_;  // indexed by model; null where not served
  std::optional<FrontendThreads> frontend_;
  // Tasks the frontend's threads have finished (in maestro), for the frontend actor to act on among
  // the other actors of the instant: answers leave from an actor on the server host, and requests
  // the scheduler must see together with the instant's other events (see frontend_task_done).
  std::deque<FrontendThreads::Task> frontend_done_;
  // Kernels of instances alone on their device, by the date they end: those of one date end
  // together under one timer, in the order they started.
  DatedEnds<Instance*> kernel_ends_{[this](const std::vector<Instance*>& instances) { end_kernels(instances); }};
  bool frontend_may_be_free_ = false;  // a request may cost the frontend nothing (per_request 0, no bytes)
  simgrid::s4u::SemaphorePtr frontend_done_ready_;
  bool frontend_signalled_ = false;
  bool up_ = true;
  bool accepting_ = true;
  std::int64_t in_hand_ = 0;
  std::uint64_t generation_ = 0;  // one more at each failure: timers set before it do nothing
  std::vector<simgrid::s4u::ActorPtr> actors_;  // the server process's threads
  std::vector<simgrid::s4u::ActorPtr> exited_;  // the threads of a process that exited, to reap
  std::deque<InFlightRequest*> refused_;
  simgrid::s4u::SemaphorePtr refused_ready_ = simgrid::s4u::Semaphore::create(0);
};

// One started server per node of the platform, in order.
// `running[s]`: server s starts at t = 0; the others start down, until restart() (all when empty).
std::vector<std::unique_ptr<InferenceServer>> start_servers(const Scenario& scenario, const FarmPlatform& farm,
                                                            Recorder& recorder, const std::vector<bool>& running = {});

}  // namespace sonicsim::sim
