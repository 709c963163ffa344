#include "models/triton/priority_queue.hpp"

#include <stdexcept>

namespace sonicsim::triton {

PriorityQueue::PriorityQueue(const DynamicBatchingConfig* config) : config_(config) {
  if (!config_ || config_->priority_levels == 0) {
    levels_[0].policy = config_ ? config_->default_queue_policy : QueuePolicy{};
    return;
  }
  for (int level = 1; level <= config_->priority_levels; ++level) levels_[level].policy = config_->policy_for(level);
}

// InferenceRequest::SetPriority: 0 or a level that does not exist means the default level.
int PriorityQueue::level_of(int priority) const {
  if (!config_ || config_->priority_levels == 0) return 0;
  if (priority <= 0 || priority > config_->priority_levels) return config_->default_priority_level;
  return priority;
}

// PolicyQueue::ApplyPolicy and RejectTimeoutRequests: `now > timeout`, strict, with Triton's clock
// read by the batcher thread, which runs after everything that happens at the instant `now_s` (its
// timed waits never return early either): a deadline at `now_s` has passed.
bool PriorityQueue::expired(const Entry& entry, double now_s) {
  return entry.deadline_s != 0 && entry.deadline_s <= now_s;
}

bool PriorityQueue::enqueue(const QueuedRequest& request, double now_s) {
  Level& level = levels_.at(level_of(request.priority));
  const QueuePolicy& policy = level.policy;
  if (policy.max_queue_size != 0 &&
      level.main.size() + level.delayed.size() >= static_cast<std::size_t>(policy.max_queue_size))
    return false;
  double timeout = policy.default_timeout_s;
  // A request may only shorten the timeout, so with no default timeout it cannot set one.
  if (policy.allow_timeout_override && request.timeout_s != 0 && request.timeout_s < timeout)
    timeout = request.timeout_s;
  level.main.push_back({request, timeout != 0 ? now_s + timeout : 0.0});
  ++size_;
  return true;
}

int PriorityQueue::scan(int base_units, int max_units, double now_s, std::vector<ScannedRequest>& view,
                        std::vector<QueuedRequest>& timed_out) {
  view.clear();
  int rejected_units = 0;
  int units = base_units;
  for (auto& [number, level] : levels_) {
    for (std::size_t i = 0; i < level.main.size();) {
      Entry& entry = level.main[i];
      if (expired(entry, now_s)) {
        if (level.policy.timeout_action == TimeoutAction::Delay) {
          level.delayed.push_back({entry.request, 0.0});
        } else {
          timed_out.push_back(entry.request);
          rejected_units += entry.request.units;
          --size_;
        }
        level.main.erase(level.main.begin() + static_cast<std::ptrdiff_t>(i));
        continue;
      }
      view.push_back({entry.request.units, entry.request.enqueue_s, entry.deadline_s, entry.request.shape});
      units += entry.request.units;
      if (units > max_units) return rejected_units;
      ++i;
    }
    for (const Entry& entry : level.delayed) {
      view.push_back({entry.request.units, entry.request.enqueue_s, 0.0, entry.request.shape});
      units += entry.request.units;
      if (units > max_units) return rejected_units;
    }
  }
  return rejected_units;
}

QueuedRequest PriorityQueue::pop_front() {
  for (auto& [number, level] : levels_) {
    for (std::deque<Entry>* fifo : {&level.main, &level.delayed}) {
      if (fifo->empty()) continue;
      const QueuedRequest request = fifo->front().request;
      fifo->pop_front();
      --size_;
      return request;
    }
  }
  throw std::logic_error("PriorityQueue::pop_front on an empty queue");
}

void PriorityQueue::reject_expired(double now_s, std::vector<QueuedRequest>& timed_out) {
  for (auto& [number, level] : levels_) {
    if (level.policy.timeout_action != TimeoutAction::Reject) continue;
    for (std::size_t i = 0; i < level.main.size();) {
      const Entry& entry = level.main[i];
      if (expired(entry, now_s)) {
        timed_out.push_back(entry.request);
        level.main.erase(level.main.begin() + static_cast<std::ptrdiff_t>(i));
        --size_;
      } else {
        ++i;
      }
    }
  }
}

double PriorityQueue::earliest_reject_deadline() const {
  double earliest = 0;
  for (const auto& [number, level] : levels_) {
    if (level.policy.timeout_action != TimeoutAction::Reject) continue;
    for (const Entry& entry : level.main)
      if (entry.deadline_s != 0 && (earliest == 0 || entry.deadline_s < earliest)) earliest = entry.deadline_s;
  }
  return earliest;
}

}  // namespace sonicsim::triton
