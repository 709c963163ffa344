#pragma once
// The parts of Triton's model configuration (inference.ModelConfig, config.pbtxt) that decide
// scheduling, as plain data in SI units, after Triton's normalisation. See
// ../shared/reference/triton-batcher.md §8 for the fields, defaults and validation rules.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim::triton {

enum class TimeoutAction { Reject, Delay };

// ModelQueuePolicy.
struct QueuePolicy {
  TimeoutAction timeout_action = TimeoutAction::Reject;
  double default_timeout_s = 0;  // 0: requests never time out
  bool allow_timeout_override = false;
  int max_queue_size = 0;  // requests per priority level; 0: unbounded

  bool operator==(const QueuePolicy&) const = default;
};

// ModelDynamicBatching. Present on a model = the dynamic batcher; absent = the default scheduler.
struct DynamicBatchingConfig {
  std::vector<int> preferred_batch_sizes;  // normalised: [max_batch_size] when empty and mbs > 0
  double max_queue_delay_s = 0;
  bool preserve_ordering = false;
  int priority_levels = 0;          // 0: one level (level 0)
  int default_priority_level = 0;   // in [1, priority_levels] when priority_levels > 0
  QueuePolicy default_queue_policy;
  std::map<int, QueuePolicy> priority_queue_policy;  // level -> policy

  // The policy Triton applies at a priority level (scheduler_utils.cc:381-405).
  const QueuePolicy& policy_for(int level) const {
    const auto it = priority_queue_policy.find(level);
    return it != priority_queue_policy.end() ? it->second : default_queue_policy;
  }
  // Triton's support_prefetching_: off as soon as any queue-policy feature or priority is used.
  bool prefetching() const {
    return priority_levels == 0 && default_queue_policy.default_timeout_s == 0 &&
           !default_queue_policy.allow_timeout_override && default_queue_policy.max_queue_size == 0;
  }
};

enum class InstanceKind { Auto, Gpu, Cpu, Model };

// ModelInstanceGroup.
struct InstanceGroup {
  std::string name;
  InstanceKind kind = InstanceKind::Auto;
  int count = 1;
  std::vector<int> gpus;  // empty: every GPU of the server
  bool passive = false;   // passive instances get no work from the scheduler
};

// When the batcher thread looks at its queue (triton-batcher.md §6).
enum class BatcherWakeup {
  Idealised,  // on every arrival, instance hand-off and timer
  Literal,    // only on Triton's notify rule (arrival with queued units >= next preferred size, ...)
};

struct ModelConfig {
  std::string name;
  std::string backend;  // `backend`, or `platform` when only that is given
  int max_batch_size = 0;
  std::vector<InstanceGroup> instance_groups;           // normalised: at least one group
  std::optional<DynamicBatchingConfig> dynamic_batching;  // absent: Triton's default scheduler
};

}  // namespace sonicsim::triton
