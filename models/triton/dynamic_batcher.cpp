#include "models/triton/dynamic_batcher.hpp"

#include <algorithm>
#include <utility>

namespace sonicsim::triton {

DynamicBatcher::DynamicBatcher(DynamicBatching config, int instances) : config_(std::move(config)), instances_(instances) {
  config_.preferred_batch_sizes = normalized_preferred_sizes(config_.max_batch_size, config_.preferred_batch_sizes);
}

void DynamicBatcher::enqueue(const QueuedRequest& request, double now_s) {
  queue_.push_back(request);
  run(now_s);
}

void DynamicBatcher::instance_idle(double now_s) {
  ++idle_instances_;
  pick_up(now_s);
  run(now_s);
}

void DynamicBatcher::wake(double now_s) { run(now_s); }

std::vector<FormedBatch> DynamicBatcher::take_dispatched() { return std::exchange(dispatched_, {}); }

// With prefetching, up to 2 x instances formed payloads may wait for an instance.
bool DynamicBatcher::slot_available() const { return fifo_.size() < 2 * static_cast<std::size_t>(instances_); }

// The current payload has left the batcher's hands: taken (or frozen) by an instance.
bool DynamicBatcher::current_is_stale() const {
  const auto it = payloads_.find(current_);
  return it == payloads_.end() || it->second.state == State::Executing;
}

void DynamicBatcher::run(double now_s) {
  wakeup_s_ = std::numeric_limits<double>::infinity();
  for (;;) {
    if (saturated_ || current_is_stale()) {
      current_ = next_payload_id_++;
      payloads_.emplace(current_, Payload{});
      saturated_ = false;
    }
    if (queue_.empty() || !slot_available()) return;

    Payload& current = payloads_.at(current_);
    // A scan never looks past max_batch_size units, and every request is at least one unit.
    const std::size_t visible = std::min(queue_.size(), static_cast<std::size_t>(std::max(1, config_.max_batch_size)) + 1);
    std::vector<ScannedRequest> view;
    view.reserve(visible);
    for (std::size_t i = 0; i < visible; ++i) view.push_back({queue_[i].units, queue_[i].enqueue_s, 0.0});
    const ScanResult scan = scan_queue(config_, current.units, saturated_, view, now_s);
    saturated_ = scan.saturated;
    if (scan.wait_s > 0) {
      wakeup_s_ = scan.wake_at_s;
      return;
    }
    if (scan.take == 0) {
      if (saturated_) continue;  // the head request does not fit behind the payload: start a new one
      return;
    }

    for (std::size_t i = 0; i < scan.take; ++i) {
      const QueuedRequest& r = queue_.front();
      current.requests.push_back(r);
      current.units += r.units;
      current.batcher_start_s = std::min(current.batcher_start_s, r.enqueue_s);
      queue_.pop_front();
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
    FormedBatch batch;
    batch.units = head.units;
    for (const QueuedRequest& r : head.requests) batch.requests.push_back(r.id);
    dispatched_.push_back(std::move(batch));
    payloads_.erase(id);
    --idle_instances_;
  }
}

// InstanceQueue::Dequeue: with a batching delay, coalesce the following payloads whose oldest
// request waited longer than the delay, while they fit. A payload looked at is frozen even when it
// does not fit: the batcher can no longer grow it.
void DynamicBatcher::merge_into(Payload& head, double now_s) {
  const double delay = config_.max_queue_delay_s;
  const int max_units = std::max(1, config_.max_batch_size);
  if (delay <= 0 || max_units <= 1) return;
  while (!fifo_.empty()) {
    Payload& next = payloads_.at(fifo_.front());
    if (!(now_s - next.batcher_start_s > delay)) return;
    next.state = State::Executing;
    if (head.units + next.units > max_units) return;
    head.requests.insert(head.requests.end(), next.requests.begin(), next.requests.end());
    head.units += next.units;
    payloads_.erase(fifo_.front());
    fifo_.pop_front();
  }
}

}  // namespace sonicsim::triton
