#pragma once
// A Triton inference server process: up or down, accepting or draining, its frontend's handler
// threads, and one ModelQueue per model it serves (model_queue.hpp: the scheduler and instances).
// It fails, exits, restarts and halts as a whole, and answers the requests that reach it while down.
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include <simgrid/s4u.hpp>

#include "models/scenario/scenario.hpp"
#include "sim/platform.hpp"
#include "sim/recorder.hpp"
#include "sim/request.hpp"
#include "sim/server/frontend_threads.hpp"
#include "sim/server/model_queue.hpp"
#include "sim/server/simulated_shared_device.hpp"

namespace sonicsim::sim {

class InferenceServer final : private ModelQueue::Responder {
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
  void admit(InFlightRequest* request);
  void share_device(ModelQueue::Instance& instance, DeviceSharing sharing);
  void frontend_task_done(const FrontendThreads::Task& task);
  void run_frontend();
  void send_response(InFlightRequest* request, double bytes);
  void respond(InFlightRequest* request, double bytes) override;

  int index_;
  const ServerNode& node_;
  Recorder& recorder_;
  ModelQueue::KernelEnds kernel_ends_;
  // A GPU its group shares by a kernel_overlap or by occupancy (a SharedDevice), with the instances
  // on it by slot (no device elsewhere: SimGrid shares the GPU, or one instance has it to itself).
  struct SharedDeviceSlots {
    std::unique_ptr<SimulatedSharedDevice> device;
    std::vector<ModelQueue::Instance*> instances;
  };
  std::vector<SharedDeviceSlots> shared_devices_;    // by GPU index
  std::vector<std::unique_ptr<ModelQueue>> queues_;  // indexed by model; null where not served
  std::optional<FrontendThreads> frontend_;
  // Tasks the frontend's threads have finished (in maestro), for the frontend actor to act on among
  // the other actors of the instant: answers leave from an actor on the server host, and requests
  // the scheduler must see together with the instant's other events (see frontend_task_done).
  std::deque<FrontendThreads::Task> frontend_done_;
  bool frontend_may_be_free_ = false;  // a request may cost the frontend nothing (per_request 0, no bytes)
  simgrid::s4u::SemaphorePtr frontend_done_ready_;
  bool frontend_signalled_ = false;
  bool up_ = true;
  bool accepting_ = true;
  std::int64_t in_hand_ = 0;
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
