#pragma once
// Triton's default scheduler (no dynamic_batching): every request executes as its own batch, in
// arrival order, on whichever instance is idle. No cross-request batching, no queue limits.
#include <deque>

#include "models/request_scheduler.hpp"

namespace sonicsim {

class FifoScheduler final : public RequestScheduler {
 public:
  void enqueue(const QueuedRequest& request, double now) override;
  std::optional<FormedBatch> next_batch(double now) override;
  std::size_t queued_requests() const override { return queue_.size(); }

 private:
  std::deque<QueuedRequest> queue_;
};

}  // namespace sonicsim
