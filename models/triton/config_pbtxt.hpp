#pragma once
// Reads a Triton model configuration file (config.pbtxt: protobuf text format of
// inference.ModelConfig, schema in model_config.proto) into the plain ModelConfig, in SI units.
//
// Parsing is strict, as in Triton: a syntax error, a field that is not in Triton's schema, an
// unknown enum value or a non-repeated field given twice is an error with its line and column.
// Of the fields, only the scheduling ones are read (name, backend/platform, max_batch_size,
// instance_group, dynamic_batching); the others (input, output, optimization, response_cache,
// rate_limiter, model_warmup, parameters, ...) are parsed and ignored.
#include <string>

#include "models/triton/model_config.hpp"

namespace sonicsim::triton {

// The configuration as written (not normalised), validated with validate_model_config.
// `model_name` is the model's name as Triton would know it (its repository directory): the
// file's `name` must be empty or equal to it, and the result carries it. Throws InputError naming
// `path` and the line and column (parse errors) or the field path (everything else), including
// for sequence_batching and ensemble_scheduling, which are not simulated.
ModelConfig read_triton_config(const std::string& path, const std::string& model_name);
// The same from the file's text (`path` names it in errors).
ModelConfig parse_triton_config(const std::string& text, const std::string& path, const std::string& model_name);

}  // namespace sonicsim::triton
