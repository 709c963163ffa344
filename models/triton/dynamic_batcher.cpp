#include "models/triton/dynamic_batcher.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace sonicsim::triton {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

// The first 500 ms tick of a wait that began at `since` at or after `t` (and after `since`). The
// thread's cv_.wait_for returns after the tick, so what is queued or due at the tick's instant is
// seen there. Rounding is corrected so that a tick equal to `t` is found.
double first_tick_from(double since, double t) {
  double k = std::max(1.0, std::ceil((t - since) / kBatcherPollS));
  if (k > 1 && since + (k - 1) * kBatcherPollS >= t) --k;
  if (since + k * kBatcherPollS < t) ++k;
  return since + k * kBatcherPollS;
}

}  // namespace

DynamicBatcher::DynamicBatcher(const ModelConfig& model, SchedulerSettings settings)
    : model_(model),
      settings_(settings),
      prefetching_(!model_.dynamic_batching || model_.dynamic_batching->prefetching()),
      queue_(model_.dynamic_batching ? &*model_.dynamic_batching : nullptr),
      hold_until_queued_(settings_.hold_until_queued) {}

bool DynamicBatcher::enqueue(const QueuedRequest& request, double now_s) {
  last_event_s_ = now_s;
  if (!batching()) {  // the default scheduler: straight into the payload FIFO as a batch of one
    Payload payload;
    payload.requests.push_back({request.id, request.units, request.enqueue_s, next_order_++});
    payload.units = request.units;
    payload.batcher_start_s = request.enqueue_s;
    payload.state = State::Scheduled;
    const std::int64_t id = next_payload_id_++;
    payloads_.emplace(id, std::move(payload));
    fifo_.push_back(id);
    notified_ = notified_ || idle_instances_ > 0;
    return true;
  }
  // Enqueue adds the units before PriorityQueue::Enqueue can refuse the request and never takes them
  // back: a refused request still counts toward the wake-up threshold.
  queued_units_ += request.units;
  if (!queue_.enqueue(request, now_s)) return false;
  if (settings_.wakeup == BatcherWakeup::Idealised) {
    // Evaluated on every event, except where the batcher could not act: blocked on a payload slot.
    notified_ = notified_ || waiting_ != Waiting::Slot || slot_available();
  } else {
    notified_ = notified_ || hold_until_queued_ > 0 || arrival_notifies();
  }
  return true;
}

void DynamicBatcher::instance_idle(double now_s) {
  last_event_s_ = now_s;
  ++idle_instances_;
  // With batching, the finished payload's callback notifies the batcher; without, the instance
  // itself looks for a payload.
  notified_ = true;
}

void DynamicBatcher::wake(double now_s) {
  if (!batching()) return;
  last_event_s_ = now_s;
  if (waiting_ == Waiting::Slot) slot_tick_ = true;
  notified_ = true;
}

void DynamicBatcher::decide(double now_s) {
  if (!notified_) return;
  notified_ = false;
  last_event_s_ = now_s;
  // An instance that has just finished takes the head payload as it stands (DequeuePayload); the
  // batcher thread, woken by that payload's callback, then sees the instant's arrivals.
  pick_up(now_s);
  if (!batching()) return;
  // A tick of the slot wait that finds no slot free (cv_.wait_for's predicate is false when it
  // times out) rejects what timed out, and the loop in WaitForPayloadSlotAvailable waits afresh.
  if (std::exchange(slot_tick_, false) && waiting_ == Waiting::Slot && !slot_available()) {
    reject_while_blocked(now_s);
    waiting_since_s_ = now_s;
  }
  run(now_s);
}

std::vector<FormedBatch> DynamicBatcher::take_dispatched() { return std::exchange(dispatched_, {}); }

std::vector<QueuedRequest> DynamicBatcher::take_timed_out() { return std::exchange(timed_out_, {}); }

double DynamicBatcher::next_wakeup_s() const {
  switch (waiting_) {
    case Waiting::Timer: return timer_s_;
    case Waiting::Poll:
      // Only an arrival that did not notify (literal mode) leaves work for the next poll.
      return queue_.empty() ? kNever : first_tick_from(waiting_since_s_, last_event_s_);
    case Waiting::Slot: {
      const double deadline = queue_.earliest_reject_deadline();
      return deadline == 0 ? kNever : first_tick_from(waiting_since_s_, std::max(deadline, last_event_s_));
    }
    case Waiting::Notify: break;
  }
  return kNever;
}

// WaitForPayloadSlotAvailable: with prefetching, room in the payload FIFO for 2 x instances;
// without it, an instance waiting for work (payloads are taken at once, so the FIFO is empty).
bool DynamicBatcher::slot_available() const {
  if (prefetching_) return fifo_.size() < 2 * static_cast<std::size_t>(settings_.instances);
  return idle_instances_ > 0;
}

// The current payload has left the batcher's hands: taken (or frozen) by an instance, or, where
// payloads do not grow, handed to the FIFO.
bool DynamicBatcher::current_is_stale() const {
  const auto it = payloads_.find(current_);
  if (it == payloads_.end() || it->second.state == State::Executing) return true;
  return settings_.payloads == BatcherPayloads::Fixed && it->second.state == State::Scheduled;
}

// DynamicBatchScheduler::Enqueue's notify rule (docs/reference/triton.md §5.2).
bool DynamicBatcher::arrival_notifies() const {
  return slot_available() &&
         (settings_.shape_checked || saturated_ || current_is_stale() || queued_units_ >= next_preferred_);
}

// RejectTimeoutRequests, called from WaitForPayloadSlotAvailable, leaves queued_batch_size_ as it is.
void DynamicBatcher::reject_while_blocked(double now_s) { queue_.reject_expired(now_s, timed_out_); }

// BatcherThread's loop, one iteration after another until the thread waits. The thread is either
// at the top of its loop (idle, or waiting out a delay) or inside WaitForPayloadSlotAvailable,
// which it leaves only once a slot is free, even if the queue has emptied meanwhile. Every wait
// starts afresh when the thread enters it: the 500 ms idle wait at each idle iteration, the slot
// wait's 500 ms ticks at each call.
void DynamicBatcher::run(double now_s) {
  last_event_s_ = now_s;
  const int max_units = std::max(1, model_.max_batch_size);
  for (;;) {
    if (waiting_ == Waiting::Slot) {
      if (!slot_available()) return;  // still blocked: the same wait, with the same ticks, goes on
      waiting_ = Waiting::Notify;
      if (current_is_stale()) continue;  // taken while the thread waited: start a new one
    } else {
      if (saturated_ || current_is_stale()) {
        current_ = next_payload_id_++;
        payloads_.emplace(current_, Payload{});
        saturated_ = false;
        next_preferred_ = 0;
      }
      if (hold_until_queued_ > 0) {
        if (queue_.size() < static_cast<std::size_t>(hold_until_queued_)) {
          waiting_ = Waiting::Notify;
          return;
        }
        hold_until_queued_ = 0;
      }
      if (queue_.empty()) {
        waiting_ = Waiting::Poll;
        waiting_since_s_ = now_s;
        return;
      }
      if (!slot_available()) {
        waiting_ = Waiting::Slot;
        waiting_since_s_ = now_s;
        return;
      }
    }

    Payload& current = payloads_.at(current_);
    queued_units_ -= queue_.scan(current.units, max_units, now_s, view_, timed_out_);
    if (view_.empty()) continue;  // the queue was empty, or everything reached had timed out
    const ScanResult scan =
        scan_queue(model_, settings_.shape_checked, current.units, saturated_, view_, now_s, current.shape);
    saturated_ = scan.saturated;
    if (scan.mark_payload_saturated) current.mark_sat = true;
    if (scan.next_preferred) next_preferred_ = *scan.next_preferred;
    if (scan.wait_s > 0) {
      waiting_ = Waiting::Timer;
      timer_s_ = scan.wake_at_s;
      return;
    }
    if (scan.take == 0) {
      if (saturated_) continue;  // the head request does not fit behind the payload: start a new one
      waiting_ = Waiting::Notify;
      return;
    }

    for (std::size_t i = 0; i < scan.take; ++i) {
      const QueuedRequest r = queue_.pop_front();
      if (current.requests.empty()) current.shape = r.shape;
      current.requests.push_back({r.id, r.units, r.enqueue_s, next_order_++});
      current.units += r.units;
      current.batcher_start_s = std::min(current.batcher_start_s, r.enqueue_s);
      queued_units_ -= r.units;
    }
    if (current.state == State::Uninit) {
      current.state = State::Scheduled;  // formed and handed to the model's payload FIFO
      fifo_.push_back(current_);
    }
    pick_up(now_s);
  }
}

void DynamicBatcher::pick_up(double now_s) {
  while (idle_instances_ > 0 && !fifo_.empty()) {
    const std::int64_t id = fifo_.front();
    fifo_.pop_front();
    Payload& head = payloads_.at(id);
    head.state = State::Executing;
    merge_into(head, now_s);
    dispatched_.push_back(FormedBatch{std::move(head.requests), head.units});
    payloads_.erase(id);
    --idle_instances_;
  }
}

// InstanceQueue::Dequeue: with a batching delay, coalesce the following payloads whose oldest
// request waited longer than the delay, while they fit. A payload looked at is frozen even when it
// does not fit: the batcher can no longer grow it.
void DynamicBatcher::merge_into(Payload& head, double now_s) {
  if (!batching()) return;
  const double delay = model_.dynamic_batching->max_queue_delay_s;
  const int max_units = std::max(1, model_.max_batch_size);
  if (delay <= 0 || max_units <= 1 || head.mark_sat) return;
  while (!fifo_.empty()) {
    Payload& next = payloads_.at(fifo_.front());
    if (next.mark_sat || !(now_s - next.batcher_start_s > delay)) return;
    next.state = State::Executing;
    if (head.units + next.units > max_units) return;
    head.requests.insert(head.requests.end(), next.requests.begin(), next.requests.end());
    head.units += next.units;
    payloads_.erase(fifo_.front());
    fifo_.pop_front();
  }
}

}  // namespace sonicsim::triton
