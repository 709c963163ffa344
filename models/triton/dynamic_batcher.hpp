#pragma once
// Triton's dynamic batcher and its hand-off to model instances, as a state machine in simulated
// time (triton-batcher.md §5.1, §5.2, §5.4; rate limiter off, one priority level, no queue
// policy). The batcher is evaluated on every event: request arrival, instance becoming idle, or
// its own timer (the "idealised" wake-up mode of §6).
//
// Batches are formed into payloads that wait in the model's FIFO; the newest one keeps growing
// until an instance takes it. With prefetching (the default) up to 2 x instances payloads may
// wait; the batcher blocks while the cap is reached. When an instance takes the head payload and
// max_queue_delay > 0, later payloads whose oldest request waited longer than the delay are
// merged into it while they fit; one that is looked at but does not fit is frozen.
#include <cstdint>
#include <deque>
#include <limits>
#include <unordered_map>
#include <vector>

#include "models/request_scheduler.hpp"
#include "models/triton/batch_scan.hpp"

namespace sonicsim::triton {

class DynamicBatcher {
 public:
  DynamicBatcher(DynamicBatching config, int instances);

  void enqueue(const QueuedRequest& request, double now_s);
  // An instance finished (or starts) and waits for work.
  void instance_idle(double now_s);
  // The batcher's own timer fired (see next_wakeup_s).
  void wake(double now_s);

  // Payloads taken by idle instances since the last call, in the order they were taken.
  std::vector<FormedBatch> take_dispatched();

  double next_wakeup_s() const { return wakeup_s_; }
  std::size_t queued_requests() const { return queue_.size(); }
  std::size_t waiting_payloads() const { return fifo_.size(); }

 private:
  enum class State { Uninit, Scheduled, Executing };  // Triton's READY -> SCHEDULED hand-off is immediate here
  struct Payload {
    std::vector<QueuedRequest> requests;
    int units = 0;
    double batcher_start_s = std::numeric_limits<double>::infinity();
    State state = State::Uninit;
  };

  bool slot_available() const;
  bool current_is_stale() const;
  void run(double now_s);      // batcher loop iterations until it blocks
  void pick_up(double now_s);  // idle instances take head payloads
  void merge_into(Payload& head, double now_s);

  DynamicBatching config_;
  int instances_;
  std::deque<QueuedRequest> queue_;
  std::unordered_map<std::int64_t, Payload> payloads_;  // formed and not yet taken by an instance
  std::deque<std::int64_t> fifo_;                        // payloads waiting for an instance
  std::int64_t next_payload_id_ = 0;
  std::int64_t current_ = -1;                            // the payload the batcher is filling
  bool saturated_ = false;
  int idle_instances_ = 0;
  double wakeup_s_ = std::numeric_limits<double>::infinity();
  std::vector<FormedBatch> dispatched_;
};

}  // namespace sonicsim::triton
