#pragma once
// Triton's scheduler queue (PriorityQueue of PolicyQueues, scheduler_utils.cc; docs/reference/triton.md
// §3, §4): one FIFO per priority level plus a FIFO of requests delayed by a DELAY timeout. The scan
// order is level 1 main, level 1 delayed, level 2 main, ...; queue policies are applied lazily,
// when the batcher's scan reaches a request.
#include <cstdint>
#include <deque>
#include <map>
#include <vector>

#include "models/triton/batch_scan.hpp"
#include "models/triton/model_config.hpp"
#include "models/triton/scheduler_types.hpp"

namespace sonicsim::triton {

class PriorityQueue {
 public:
  // `config` null: Triton's default scheduler queue (one level, no policy).
  explicit PriorityQueue(const DynamicBatchingConfig* config);

  // False when the request's level already holds max_queue_size requests ("Exceeds maximum queue
  // size"). Otherwise the request is queued with its deadline (§3.5).
  bool enqueue(const QueuedRequest& request, double now_s);

  // The requests a scan starting with `base_units` in the payload reaches, in scan order, applying
  // the timeout policy to each main-queue request as it is reached: an expired DELAY request moves
  // behind its level's delayed ones, an expired REJECT request leaves the queue (appended to
  // `timed_out`). Stops after the first request that would take the batch past max_units.
  // Returns the units of the rejected requests.
  int scan(int base_units, int max_units, double now_s, std::vector<ScannedRequest>& view,
           std::vector<QueuedRequest>& timed_out);

  // Removes the first request in scan order (the policy has been applied to it by scan()).
  QueuedRequest pop_front();

  // RejectTimeoutRequests: every expired request in the main queue of every REJECT level.
  void reject_expired(double now_s, std::vector<QueuedRequest>& timed_out);
  // The earliest deadline among main-queue requests of REJECT levels; 0 if none.
  double earliest_reject_deadline() const;

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  struct Entry {
    QueuedRequest request;
    double deadline_s = 0;  // 0: never times out (and delayed requests never time out again)
  };
  struct Level {
    QueuePolicy policy;
    std::deque<Entry> main;
    std::deque<Entry> delayed;
  };

  int level_of(int priority) const;
  static bool expired(const Entry& entry, double now_s);

  const DynamicBatchingConfig* config_;
  std::map<int, Level> levels_;  // ascending: level 1 is the highest priority
  std::size_t size_ = 0;
};

}  // namespace sonicsim::triton
