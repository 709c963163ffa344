#pragma once
// What goes into and comes out of a model's scheduler, as plain data in simulated seconds.
#include <cstdint>
#include <vector>

namespace sonicsim::triton {

struct QueuedRequest {
  std::int64_t id = 0;
  int units = 1;           // max(1, request batch)
  double enqueue_s = 0;    // when it entered the scheduler (Triton's batcher_start / queue_start)
  int priority = 0;        // as sent; 0 or above priority_levels means the model's default level
  double timeout_s = 0;    // the request's own "timeout" parameter; 0 = none
  std::int64_t shape = 0;  // shape-checked models: the shape a batch's requests must share
};

struct BatchedRequest {
  std::int64_t id = 0;
  int units = 1;
  double enqueue_s = 0;
  // Position in the order requests left the queue for a payload: with preserve_ordering, responses
  // are released in this order.
  std::int64_t order = 0;
};

struct FormedBatch {
  std::vector<BatchedRequest> requests;
  int units = 0;
};

}  // namespace sonicsim::triton
