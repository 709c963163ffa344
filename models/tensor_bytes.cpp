#include "models/tensor_bytes.hpp"

#include <algorithm>
#include <map>

#include "models/limits.hpp"

namespace sonicsim {

double data_type_bytes(const std::string& data_type) {
  // inference.DataType of model_config.proto; TYPE_STRING (BYTES) has no fixed size.
  static const std::map<std::string, double> sizes = {
      {"TYPE_BOOL", 1}, {"TYPE_UINT8", 1},  {"TYPE_UINT16", 2}, {"TYPE_UINT32", 4}, {"TYPE_UINT64", 8},
      {"TYPE_INT8", 1}, {"TYPE_INT16", 2},  {"TYPE_INT32", 4},  {"TYPE_INT64", 8},  {"TYPE_FP16", 2},
      {"TYPE_FP32", 4}, {"TYPE_FP64", 8},   {"TYPE_BF16", 2}};
  const auto it = sizes.find(data_type);
  return it == sizes.end() ? 0 : it->second;
}

namespace {

ItemBytes item_bytes(const std::vector<triton::TensorConfig>& tensors, const char* field,
                     const triton::ConfigSource& source, bool* any_variable_unragged, bool* any_variable) {
  ItemBytes bytes;
  bytes.given = !tensors.empty();
  const auto unknown = [&](std::initializer_list<triton::FieldStep> at, const std::string& why) {
    if (bytes.unknown.empty()) bytes.unknown = source.file + ": " + source.path(at) + ": " + why;
  };
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const triton::TensorConfig& t = tensors[i];
    const double size = data_type_bytes(t.data_type);
    if (size == 0)
      unknown({field, i, "data_type"}, "expected a fixed-size Triton data type (TYPE_FP32, TYPE_INT64, ...), got \"" +
                                           t.data_type + "\"");
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
    if (variable) {
      *any_variable = true;
      if (!t.allow_ragged_batch) *any_variable_unragged = true;
    }
  }
  return bytes;
}

}  // namespace

TensorBytes tensor_bytes(const triton::ModelConfig& config, const triton::ConfigSource& source) {
  TensorBytes result;
  bool unragged = false, variable = false, output_unragged = false, output_variable = false;
  result.input = item_bytes(config.inputs, "input", source, &unragged, &variable);
  result.output = item_bytes(config.outputs, "output", source, &output_unragged, &output_variable);
  if (output_variable && !variable && result.output.unknown.empty())
    result.output.unknown = source.file + ": " + source.path({"output"}) + ": an output has a variable (-1) dim but no input has: its size is not known";
  if (variable) result.layout = unragged ? TensorLayout::Padded : TensorLayout::Ragged;
  return result;
}

}  // namespace sonicsim
