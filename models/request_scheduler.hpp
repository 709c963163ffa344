#pragma once
// The server's per-model scheduling policy as a pure state machine: requests come in, batches go
// out to idle model instances. The simulator drives it in simulated time; the policy itself knows
// nothing about SimGrid, so it is tested on its own.
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace sonicsim {

struct QueuedRequest {
  std::int64_t id = 0;
  int units = 1;        // batch items carried by the request: max(1, request batch)
  double enqueue_s = 0;  // when the request entered the scheduler's queue
};

struct FormedBatch {
  std::vector<std::int64_t> requests;
  int units = 0;
};

class RequestScheduler {
 public:
  virtual ~RequestScheduler() = default;

  // A request reaches the model's queue at `now`.
  virtual void enqueue(const QueuedRequest& request, double now) = 0;

  // An instance is idle at `now`: the batch it should execute, if any.
  virtual std::optional<FormedBatch> next_batch(double now) = 0;

  // The next time at which the scheduler wants to be asked again even if nothing happens
  // (e.g. a batching delay expiring); +infinity if none.
  virtual double next_wakeup_s() const { return std::numeric_limits<double>::infinity(); }

  virtual std::size_t queued_requests() const = 0;
};

}  // namespace sonicsim
