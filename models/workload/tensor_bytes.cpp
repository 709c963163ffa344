#include "models/workload/tensor_bytes.hpp"

#include <algorithm>
#include <map>

#include "models/io/limits.hpp"

namespace sonicsim {

double data_type_bytes(const std::string& data_type) {
  // inference.DataType of model_config.proto; TYPE_STRING (BYTES) has no fixed size.
  static const std::map<std::string, double> sizes = {
      {"TYPE_BOOL", 1}, {"TYPE_UINT8", 1}, {"TYPE_UINT16", 2}, {"TYPE_UINT32", 4}, {"TYPE_UINT64", 8},
      {"TYPE_INT8", 1}, {"TYPE_INT16", 2}, {"TYPE_INT32", 4},  {"TYPE_INT64", 8},  {"TYPE_FP16", 2},
      {"TYPE_FP32", 4}, {"TYPE_FP64", 8},  {"TYPE_BF16", 2}};
  const auto it = sizes.find(data_type);
  return it == sizes.end() ? 0 : it->second;
}

namespace {

bool has_variable_dim(const triton::TensorConfig& t) {
  return std::find(t.dims.begin(), t.dims.end(), -1) != t.dims.end();
}

ItemBytes item_bytes(const std::vector<triton::TensorConfig>& tensors, const char* field,
                     const triton::ConfigSource& source) {
  ItemBytes bytes;
  bytes.given = !tensors.empty();
  bytes.tensors = static_cast<int>(tensors.size());
  const auto unknown = [&](std::initializer_list<triton::FieldStep> at, const std::string& why) {
    if (bytes.unknown.empty()) bytes.unknown = source.file + ": " + source.path(at) + ": " + why;
  };
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const triton::TensorConfig& t = tensors[i];
    const double size = data_type_bytes(t.data_type);
    if (size == 0)
      unknown({field, i, "data_type"},
              "expected a fixed-size Triton data type (TYPE_FP32, TYPE_INT64, ...), got \"" + t.data_type + "\"");
    double product = size;
    bool variable = false;
    for (std::size_t j = 0; j < t.dims.size(); ++j) {
      const std::int64_t dim = t.dims[j];
      if (dim == -1) {
        if (variable) unknown({field, i, "dims", j}, "expected at most one variable (-1) dim per tensor");
        variable = true;
        continue;
      }
      if (dim < 1) unknown({field, i, "dims", j}, "expected a dim of at least 1, or -1 for a variable one");
      product *= static_cast<double>(std::max<std::int64_t>(dim, 1));
      if (product > limits::kMaxBytes) unknown({field, i, "dims"}, "one item of this tensor would exceed 1 PB");
    }
    (variable ? bytes.per_element_bytes : bytes.fixed_bytes) += product;
  }
  return bytes;
}

}  // namespace

TensorBytes tensor_bytes(const triton::ModelConfig& config, const triton::ConfigSource& source) {
  TensorBytes result;
  result.input = item_bytes(config.inputs, "input", source);
  result.output = item_bytes(config.outputs, "output", source);
  const bool variable_input = std::any_of(config.inputs.begin(), config.inputs.end(), has_variable_dim);
  const bool variable_output = std::any_of(config.outputs.begin(), config.outputs.end(), has_variable_dim);
  if (variable_output && !variable_input && result.output.unknown.empty())
    result.output.unknown = source.file + ": " + source.path({"output"}) +
                            ": an output has a variable (-1) dim but no input has: its size is not known";
  if (variable_input) {
    // Any variable input without allow_ragged_batch makes Triton check shapes.
    const bool padded = std::any_of(config.inputs.begin(), config.inputs.end(), [](const triton::TensorConfig& t) {
      return has_variable_dim(t) && !t.allow_ragged_batch;
    });
    result.layout = padded ? TensorLayout::Padded : TensorLayout::Ragged;
  }
  return result;
}

}  // namespace sonicsim
