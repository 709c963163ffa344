#pragma once
// A request's bytes from its model's input and output tensors (Triton's ModelInput/ModelOutput):
// per item, the product of the dims times the data type's size, summed over tensors. A variable dim
// (-1) takes the item's element count E (one count per item, shared by every variable dim, e.g. the
// particles of a jet), so an item carries fixed_bytes + per_element_bytes x E.
#include <string>
#include <vector>

#include "models/triton/model_config.hpp"

namespace sonicsim {

struct ItemBytes {
  double fixed_bytes = 0;        // tensors and dims that do not vary
  double per_element_bytes = 0;  // bytes per element of the variable dim
  std::string unknown;           // not empty: why the bytes cannot be computed ("FILE: FIELD: ...")
  bool given = false;            // any tensor listed
  int tensors = 0;               // how many are listed: a request carries each once
  bool variable() const { return per_element_bytes > 0; }
  double of(double elements) const { return fixed_bytes + per_element_bytes * elements; }
};

// How requests of a model with variable dims batch in Triton (docs/reference/triton.md §2, §5.7):
//   Fixed   no variable dims: any requests batch together;
//   Padded  a variable input without allow_ragged_batch: a client pads the items of a request to
//           its largest, and Triton cuts a batch at the first request of another shape;
//   Ragged  every variable input allows ragged batching: requests of any sizes batch, unpadded.
enum class TensorLayout { Fixed, Padded, Ragged };

struct TensorBytes {
  ItemBytes input, output;
  TensorLayout layout = TensorLayout::Fixed;
};

// Bytes of one element of a Triton data type ("TYPE_FP32" -> 4); 0 for an unknown or variable-size
// type (TYPE_STRING).
double data_type_bytes(const std::string& data_type);

// A tensor of an unknown or variable-size data type (TYPE_STRING), a dim below -1 or 0, more than
// one variable dim, or more than 1 PB per item leaves the bytes unknown, with the reason naming the
// field (via source); the layout is still found. Where the bytes are needed, the reason is the error.
TensorBytes tensor_bytes(const triton::ModelConfig& config, const triton::ConfigSource& source);

}  // namespace sonicsim
