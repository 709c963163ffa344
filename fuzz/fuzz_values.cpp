// SuperSONIC Helm values files: the YAML reader (yaml-cpp, then go-yaml v2's rules), Helm's merge
// over the chart's defaults and the mapping of every value to scenario keys.
#include "fuzz/fuzz_input.hpp"
#include "models/io/yaml/yaml_reader.hpp"
#include "models/scenario/reader/supersonic/chart_values.hpp"
#include "models/scenario/reader/supersonic/helm_values.hpp"
#include "models/scenario/reader/supersonic/values_mapping.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  sonicsim::fuzz::expect_input_errors_only(data, size, [](const std::string& text) {
    namespace ss = sonicsim::supersonic;
    nlohmann::json values = sonicsim::parse_yaml_text(text, "fuzz.yaml");
    if (!values.is_object()) return;  // the caller refuses anything but a map of values
    const nlohmann::json merged = ss::coalesce_values(values, ss::chart_defaults());
    const nlohmann::json group = {{"gpu", "T4"}, {"gpus_per_server", 1}};
    const nlohmann::json platform = nlohmann::json::object();
    ss::map_values({merged, values, "fuzz.yaml", group, platform, "/platform/servers/0"});
  });
  return 0;
}
