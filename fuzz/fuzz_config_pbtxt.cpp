// Triton's config.pbtxt reader: the protobuf text format, Triton's validation and normalisation.
#include "fuzz/fuzz_input.hpp"
#include "models/triton/config_pbtxt.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  sonicsim::fuzz::expect_input_errors_only(data, size, [](const std::string& text) {
    sonicsim::triton::ModelConfig config = sonicsim::triton::parse_triton_config(text, "fuzz.pbtxt", "m");
    sonicsim::triton::normalize_model_config(config, 4);
  });
  return 0;
}
