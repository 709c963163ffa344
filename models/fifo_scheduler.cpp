#include "models/fifo_scheduler.hpp"

namespace sonicsim {

void FifoScheduler::enqueue(const QueuedRequest& request, double /*now*/) { queue_.push_back(request); }

std::optional<FormedBatch> FifoScheduler::next_batch(double /*now*/) {
  if (queue_.empty()) return std::nullopt;
  const QueuedRequest head = queue_.front();
  queue_.pop_front();
  return FormedBatch{{head.id}, head.units};
}

}  // namespace sonicsim
