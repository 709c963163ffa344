#include "models/triton/config_pbtxt.hpp"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <cstdint>
#include <limits>

#include "models/io/json/json_reader.hpp"
#include "triton/model_config.pb.h"  // generated from model_config.proto in the build tree

namespace sonicsim::triton {
namespace {

// Keeps the first error, with its position (the parser's lines and columns count from 0).
class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column, const std::string& message) override {
    if (!message_.empty()) return;
    message_ = message;
    location_ = "line " + std::to_string(line + 1) + ", column " + std::to_string(column + 1);
  }
  const std::string& message() const { return message_; }
  const std::string& location() const { return location_; }

 private:
  std::string message_;
  std::string location_;
};

// Triton's unsigned 64-bit fields hold counts and levels that fit an int in any sane config.
int to_int(std::uint64_t value, const ConfigSource& source, std::initializer_list<FieldStep> field) {
  if (value > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    source.fail(field, "value " + std::to_string(value) + " is too large (at most " +
                           std::to_string(std::numeric_limits<int>::max()) + ")");
  return static_cast<int>(value);
}

double microseconds_to_s(std::uint64_t us) { return static_cast<double>(us) / 1e6; }

QueuePolicy read_policy(const inference::ModelQueuePolicy& p, const ConfigSource& source,
                        std::initializer_list<FieldStep> field) {
  QueuePolicy policy;
  policy.timeout_action =
      p.timeout_action() == inference::ModelQueuePolicy::DELAY ? TimeoutAction::Delay : TimeoutAction::Reject;
  policy.default_timeout_s = microseconds_to_s(p.default_timeout_microseconds());
  policy.allow_timeout_override = p.allow_timeout_override();
  policy.max_queue_size = to_int(p.max_queue_size(), source, field);
  return policy;
}

DynamicBatchingConfig read_dynamic_batching(const inference::ModelDynamicBatching& d, const ConfigSource& source) {
  DynamicBatchingConfig batching;
  batching.preferred_batch_sizes.assign(d.preferred_batch_size().begin(), d.preferred_batch_size().end());
  batching.max_queue_delay_s = microseconds_to_s(d.max_queue_delay_microseconds());
  batching.preserve_ordering = d.preserve_ordering();
  batching.priority_levels = to_int(d.priority_levels(), source, {"dynamic_batching", "priority_levels"});
  batching.default_priority_level =
      to_int(d.default_priority_level(), source, {"dynamic_batching", "default_priority_level"});
  batching.default_queue_policy =
      read_policy(d.default_queue_policy(), source, {"dynamic_batching", "default_queue_policy", "max_queue_size"});
  for (const auto& [key, p] : d.priority_queue_policy()) {
    const int level = to_int(key, source, {"dynamic_batching", "priority_queue_policy"});
    batching.priority_queue_policy[level] =
        read_policy(p, source, {"dynamic_batching", "priority_queue_policy", level, "max_queue_size"});
  }
  return batching;
}

InstanceKind read_kind(inference::ModelInstanceGroup::Kind kind) {
  switch (kind) {
    case inference::ModelInstanceGroup::KIND_GPU: return InstanceKind::Gpu;
    case inference::ModelInstanceGroup::KIND_CPU: return InstanceKind::Cpu;
    case inference::ModelInstanceGroup::KIND_MODEL: return InstanceKind::Model;
    default: return InstanceKind::Auto;
  }
}

// The request's bytes follow the dims as sent: a reshape happens in the server; optional inputs are
// taken as always sent, shape tensors as data (scenarios/README.md, "Bytes from tensor shapes").
template <class Tensor>
TensorConfig read_tensor(const Tensor& t) {
  TensorConfig tensor;
  tensor.name = t.name();
  tensor.data_type = inference::DataType_Name(t.data_type());
  tensor.dims.assign(t.dims().begin(), t.dims().end());
  return tensor;
}

inference::ModelConfig parse_text(const std::string& text, const std::string& path) {
  inference::ModelConfig message;
  FirstError error;
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&error);
  if (!parser.ParseFromString(text, &message))
    throw InputError(path, error.location(), error.message().empty() ? "invalid model configuration" : error.message());
  return message;
}

}  // namespace

ModelConfig read_triton_config(const std::string& path, const std::string& model_name) {
  return parse_triton_config(read_input_file(path, kMaxConfigFileBytes), path, model_name);
}

ModelConfig parse_triton_config(const std::string& text, const std::string& path, const std::string& model_name) {
  const inference::ModelConfig message = parse_text(text, path);
  const ConfigSource source{path, std::nullopt};

  if (!message.name().empty() && message.name() != model_name)
    source.fail({"name"}, "model name \"" + message.name() + "\" differs from the model it configures, \"" +
                              model_name + "\" (Triton requires the name to equal the model's directory name)");
  if (message.has_sequence_batching())
    source.fail({"sequence_batching"},
                "the sequence batcher is not simulated (only Triton's default scheduler "
                "and the dynamic batcher are)");
  if (message.has_ensemble_scheduling() || message.platform() == "ensemble")
    source.fail({message.has_ensemble_scheduling() ? "ensemble_scheduling" : "platform"},
                "ensemble models are not simulated (only single models with Triton's default scheduler or the "
                "dynamic batcher are)");

  ModelConfig config;
  config.name = model_name;
  config.backend = message.backend().empty() ? message.platform() : message.backend();
  config.max_batch_size = message.max_batch_size();
  for (const inference::ModelInstanceGroup& g : message.instance_group()) {
    InstanceGroup group;
    group.name = g.name();
    group.kind = read_kind(g.kind());
    group.count = g.count();
    group.gpus.assign(g.gpus().begin(), g.gpus().end());
    group.passive = g.passive();
    config.instance_groups.push_back(group);
  }
  for (const inference::ModelInput& input : message.input()) {
    config.inputs.push_back(read_tensor(input));
    config.inputs.back().allow_ragged_batch = input.allow_ragged_batch();
  }
  for (const inference::ModelOutput& output : message.output()) config.outputs.push_back(read_tensor(output));
  if (message.has_dynamic_batching())
    config.dynamic_batching = read_dynamic_batching(message.dynamic_batching(), source);
  validate_model_config(config, source);
  return config;
}

}  // namespace sonicsim::triton
