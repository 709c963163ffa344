// The scenario reader: JSON text, then every section and consistency check. Files a scenario names
// (latency model files, config.pbtxt) are looked for beside a directory that does not exist.
#include "fuzz/fuzz_input.hpp"
#include "models/io/json/json_pointer.hpp"
#include "models/scenario/reader/scenario_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  sonicsim::fuzz::expect_input_errors_only(data, size, [](const std::string& text) {
    const std::string file = "/nonexistent/fuzz.json";
    nlohmann::json document = sonicsim::parse_json_text(text, file);
    sonicsim::apply_override(document, "/simulation/seed", "7", file);
    sonicsim::parse_scenario(document, file);
  });
  return 0;
}
