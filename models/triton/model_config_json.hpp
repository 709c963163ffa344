#pragma once
// Triton's scheduling settings written inline in a scenario's model object, under the names of
// Triton's JSON model configuration (so they can be copied from `GET v2/models/<m>/config`):
// "dynamic_batching" and "instance_group". Times keep Triton's integer microseconds
// (max_queue_delay_microseconds, default_timeout_microseconds): the unit is in the name.
#include "models/io/json/json_reader.hpp"
#include "models/triton/model_config.hpp"

namespace sonicsim::triton {

// Reads the two keys, when present, from `model` into `config` as written (not normalised, not
// validated). Type errors name the JSON pointer.
void read_inline_triton_config(const JsonNode& model, ModelConfig& config);

}  // namespace sonicsim::triton
