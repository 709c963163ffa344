#pragma once
// A batch system's queue (HTCondor, Slurm) reduced to what the farm sees: jobs wait first-come,
// first-served for a free core ("slot"); a job that ends frees its slot for the longest-waiting
// job. Free slots are handed out in the order given (the workload's placement), and a freed slot
// nobody waits for joins the back of that line.
#include <cstddef>
#include <deque>
#include <optional>
#include <vector>

namespace sonicsim {

class BatchQueue {
 public:
  explicit BatchQueue(const std::vector<int>& slots);

  // Job `job` is submitted: the slot it starts on now, or nothing if it has to wait.
  std::optional<int> submit(int job);
  // The job on `slot` ended: the waiting job that starts on it now, if any.
  std::optional<int> release(int slot);

  std::size_t waiting() const { return waiting_.size(); }
  std::size_t free_slots() const { return free_.size(); }

 private:
  std::deque<int> free_;
  std::deque<int> waiting_;
};

}  // namespace sonicsim
