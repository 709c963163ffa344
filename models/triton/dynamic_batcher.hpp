#pragma once
// A model's scheduler in Triton (DynamicBatchScheduler; docs/reference/triton.md §2, §5, §6) as a state
// machine in simulated time: requests come in, batches go out to idle instances, and timed-out
// requests are reported. One per model, shared by all its instances.
//
// With dynamic batching, batches are formed into payloads that wait in the model's FIFO; the newest
// keeps growing until an instance takes it. With prefetching (no priority levels and no queue
// policy) up to 2 x instances payloads may wait and the batcher blocks while the cap is reached;
// without it a batch is formed only when an instance is idle. When an instance takes the head
// payload and max_queue_delay > 0, later payloads whose oldest request waited longer than the
// delay are merged into it while they fit; one that is looked at but does not fit is frozen.
//
// Without dynamic batching this is Triton's default scheduler: every request is its own batch,
// executed in arrival order, with no queue policy.
//
// Which idle instance runs a batch is the caller's choice; this class only counts idle instances.
#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <unordered_map>
#include <vector>

#include "models/triton/batch_scan.hpp"
#include "models/triton/model_config.hpp"
#include "models/triton/priority_queue.hpp"
#include "models/triton/scheduler_types.hpp"

namespace sonicsim::triton {

// How the simulation runs a model's scheduler; what Triton configures is the model's ModelConfig.
struct SchedulerSettings {
  int instances = 1;  // instances that take work (not passive)
  BatcherWakeup wakeup = BatcherWakeup::Idealised;
  BatcherPayloads payloads = BatcherPayloads::Grow;
  // TRITONSERVER_DELAY_SCHEDULER: the batcher does nothing until this many requests are queued
  // (once). 0: off. Triton's QA uses it to queue a burst before the first scan.
  int hold_until_queued = 0;
  // A variable input without allow_ragged_batch: a batch holds requests of one shape, and every
  // arrival wakes the batcher (Enqueue's notify rule).
  bool shape_checked = false;
};

// Triton's batcher polls and re-checks timeouts every 500 ms while idle or blocked on slots.
inline constexpr double kBatcherPollS = 0.5;

class DynamicBatcher {
 public:
  // `model`: the model's normalised config (normalize_model_config), read throughout (its
  // dynamic_batching absent: the default scheduler); it must outlive the batcher.
  DynamicBatcher(const ModelConfig& model, SchedulerSettings settings);

  // Events, reported as they happen. None of them makes the batcher act: everything that happens
  // at one simulated instant is reported first, then decide() runs the batcher and the idle
  // instances once, so that requests arriving at the same instant are all queued (in the order
  // they are reported) before a batch is formed, as they are in Triton by the time its batcher
  // thread runs.
  //
  // False: refused at once because the request's priority level is full ("Exceeds maximum queue
  // size"). Requests larger than max_batch_size must be refused by the caller before this.
  bool enqueue(const QueuedRequest& request, double now_s);
  // An instance finished its batch (or starts) and waits for work.
  void instance_idle(double now_s);
  // The batcher's own timer fired (see next_wakeup_s).
  void wake(double now_s);

  // The instant `now_s` is over: the batcher thread runs if it was woken, idle instances take the
  // payloads formed for them. The thread runs after the instant, as Triton's runs after what woke
  // it: a queue timeout or a 500 ms tick at `now_s` has passed.
  void decide(double now_s);
  // Whether decide() has anything to do.
  bool decision_pending() const { return notified_; }

  // Payloads taken by idle instances since the last call, in the order they were taken.
  std::vector<FormedBatch> take_dispatched();
  // Requests rejected by a REJECT timeout since the last call ("Request timeout expired").
  std::vector<QueuedRequest> take_timed_out();

  // When the batcher wants wake() even if nothing else happens; +infinity if never.
  double next_wakeup_s() const;
  std::size_t queued_requests() const { return queue_.size(); }
  std::size_t waiting_payloads() const { return fifo_.size(); }
  bool prefetching() const { return prefetching_; }

 private:
  enum class State { Uninit, Scheduled, Executing };  // Triton's READY -> SCHEDULED hand-off is immediate here
  struct Payload {
    std::vector<BatchedRequest> requests;
    int units = 0;
    double batcher_start_s = std::numeric_limits<double>::infinity();
    State state = State::Uninit;
    std::int64_t shape = 0;  // its first request's (shape-checked models)
    bool mark_sat = false;   // a request of another shape ended it: never merged
  };
  // What the batcher thread is waiting for between two runs.
  enum class Waiting { Notify, Timer, Poll, Slot };

  bool batching() const { return model_.dynamic_batching.has_value(); }
  bool slot_available() const;
  bool current_is_stale() const;
  bool arrival_notifies() const;
  void run(double now_s);      // batcher loop iterations until it waits
  void pick_up(double now_s);  // idle instances take head payloads
  void merge_into(Payload& head, double now_s);
  void reject_while_blocked(double now_s);

  const ModelConfig& model_;
  SchedulerSettings settings_;
  bool prefetching_;
  PriorityQueue queue_;
  std::unordered_map<std::int64_t, Payload> payloads_;  // formed and not yet taken by an instance
  std::deque<std::int64_t> fifo_;                       // payloads waiting for an instance
  std::int64_t next_payload_id_ = 0;
  std::int64_t current_ = -1;  // the payload the batcher is filling
  std::int64_t next_order_ = 0;
  bool saturated_ = false;
  int idle_instances_ = 0;
  // Triton's queued_batch_size_ (wake-up rule only). As in Triton, refused requests and those rejected
  // by the slot wait's tick are never subtracted, so it drifts up over a long run.
  std::int64_t queued_units_ = 0;
  int next_preferred_ = 0;  // Triton's next_preferred_batch_size_ (wake-up rule only)
  int hold_until_queued_ = 0;
  bool notified_ = false;   // the batcher thread (or, without batching, an idle instance) has work
  bool slot_tick_ = false;  // a 500 ms tick of the slot wait is due

  Waiting waiting_ = Waiting::Notify;
  double last_event_s_ = 0;     // when the batcher last heard of anything
  double waiting_since_s_ = 0;  // start of a poll or slot wait: its 500 ms ticks count from here
  double timer_s_ = std::numeric_limits<double>::infinity();  // Waiting::Timer
  std::vector<ScannedRequest> view_;                          // reused scan buffer
  std::vector<FormedBatch> dispatched_;
  std::vector<QueuedRequest> timed_out_;
};

}  // namespace sonicsim::triton
