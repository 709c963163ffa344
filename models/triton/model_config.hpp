#pragma once
// The parts of Triton's model configuration (inference.ModelConfig, config.pbtxt) that decide
// scheduling, as plain data in SI units: read as written (config_pbtxt.hpp, model_config_json.hpp),
// then validated and normalised as Triton does (below). See
// docs/reference/triton.md §8 for the fields, defaults and validation rules.
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/io/json/choice.hpp"

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
  int priority_levels = 0;         // 0: one level (level 0)
  int default_priority_level = 0;  // in [1, priority_levels] when priority_levels > 0
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

  bool operator==(const DynamicBatchingConfig&) const = default;
};

enum class InstanceKind { Auto, Gpu, Cpu, Model };
// ModelInstanceGroup.Kind's names, as Triton's configuration writes them.
inline constexpr Choice<InstanceKind> kInstanceKinds[]{{"KIND_AUTO", InstanceKind::Auto},
                                                       {"KIND_GPU", InstanceKind::Gpu},
                                                       {"KIND_CPU", InstanceKind::Cpu},
                                                       {"KIND_MODEL", InstanceKind::Model}};

// ModelInstanceGroup.
struct InstanceGroup {
  std::string name;
  InstanceKind kind = InstanceKind::Auto;
  int count = 1;          // per listed GPU for GPU groups; as written, 0 means unset (the default)
  std::vector<int> gpus;  // empty: every GPU of the server
  bool passive = false;   // passive instances get no work from the scheduler

  bool operator==(const InstanceGroup&) const = default;
};

// When the batcher thread looks at its queue (docs/reference/triton.md §6).
enum class BatcherWakeup {
  Idealised,  // on every arrival, instance hand-off and timer
  Literal,    // only on Triton's notify rule (arrival with queued units >= next preferred size, ...)
};

// Whether a formed payload takes more requests while it waits for an instance (docs/reference/triton.md §5.1).
enum class BatcherPayloads {
  Grow,   // it grows until an instance takes it (server PR #3789, Triton 22.02 on; today's code)
  Fixed,  // it is closed once handed to the payload FIFO (Triton 21.07 to 22.01: from server PR
          // #3024, the separate batcher thread, to PR #3789; issue #3624: five requests at delay 0
          // batched 1, 1, 1, 2)
};

// ModelInput / ModelOutput: what decides the bytes of a request and how requests batch. dims
// exclude the batch dimension when max_batch_size > 0, as in Triton; -1 is a variable dim.
struct TensorConfig {
  std::string name;
  std::string data_type;  // "TYPE_FP32", ...
  std::vector<std::int64_t> dims;
  bool allow_ragged_batch = false;  // inputs only

  bool operator==(const TensorConfig&) const = default;
};

struct ModelConfig {
  std::string name;
  std::string backend;  // `backend`, or `platform` when only that is given
  int max_batch_size = 0;
  std::vector<InstanceGroup> instance_groups;             // normalised: at least one group
  std::optional<DynamicBatchingConfig> dynamic_batching;  // absent: Triton's default scheduler
  std::vector<TensorConfig> inputs{}, outputs{};          // empty: not given

  bool operator==(const ModelConfig&) const = default;
};

// One step of a field path: a field name, or an index into a repeated field (or a map key).
struct FieldStep {
  FieldStep(const char* field) : name(field) {}
  FieldStep(std::string field) : name(std::move(field)) {}
  template <std::integral T>
  FieldStep(T i) : index(static_cast<std::int64_t>(i)), is_index(true) {}

  std::string name;
  std::int64_t index = 0;
  bool is_index = false;
};

// Where a configuration was written, so that an error names the file and the field: in a
// config.pbtxt as a field path, "dynamic_batching.preferred_batch_size[1]" (a map entry by its
// key: "dynamic_batching.priority_queue_policy[3]"); in a scenario as a JSON pointer below the
// object that holds Triton's keys, "/models/m/dynamic_batching/preferred_batch_size/1".
struct ConfigSource {
  std::string file;
  std::optional<std::string> json_pointer;  // absent: a config.pbtxt

  std::string path(std::initializer_list<FieldStep> steps) const;
  [[noreturn]] void fail(std::initializer_list<FieldStep> steps, const std::string& message) const;
};

// The checks of Triton's ValidateModelConfig and ValidateInstanceGroup that concern scheduling,
// with Triton's messages; instance groups are checked as written (before normalisation). Throws
// InputError naming the file and the field.
void validate_model_config(const ModelConfig& config, const ConfigSource& source);

// Triton's check that the GPUs listed by KIND_GPU and KIND_AUTO groups exist on a server with
// `gpu_count` GPUs (ids 0 .. gpu_count - 1), on the config as written. (Triton turns a KIND_AUTO
// group with a missing GPU into KIND_CPU, which then fails as a CPU group that lists GPUs: an
// error either way.) `server` describes the server in the message, e.g.
// `server group "gpu" has 2 GPUs per server`.
void validate_instance_gpus(const ModelConfig& config, int gpu_count, const ConfigSource& source,
                            const std::string& server);

// Triton's NormalizeModelConfig and NormalizeInstanceGroup for a server with `gpu_count` GPUs:
// preferred sizes [max_batch_size] when none are given (and max_batch_size > 0); one group
// named after the model when none is given; group names "<model>_<index>"; KIND_AUTO resolved to
// KIND_GPU, or KIND_CPU when there is no GPU or a listed GPU is missing; count 1 when unset (2
// for KIND_CPU with the onnxruntime or tensorflow backends). GPU lists stay empty for "every GPU".
void normalize_model_config(ModelConfig& config, int gpu_count);
// Its rule for preferred sizes: none given and max_batch_size > 0 => [max_batch_size].
std::vector<int> normalized_preferred_sizes(int max_batch_size, std::vector<int> preferred);

std::string kind_name(InstanceKind kind);  // "KIND_GPU", ...

}  // namespace sonicsim::triton
