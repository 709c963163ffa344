#include "models/jobs/batch_queue.hpp"

namespace sonicsim {

BatchQueue::BatchQueue(const std::vector<int>& slots) : free_(slots.begin(), slots.end()) {}

std::optional<int> BatchQueue::submit(int job) {
  if (free_.empty()) {
    waiting_.push_back(job);
    return std::nullopt;
  }
  const int slot = free_.front();
  free_.pop_front();
  return slot;
}

std::optional<int> BatchQueue::release(int slot) {
  if (waiting_.empty()) {
    free_.push_back(slot);
    return std::nullopt;
  }
  const int job = waiting_.front();
  waiting_.pop_front();
  return job;
}

}  // namespace sonicsim
