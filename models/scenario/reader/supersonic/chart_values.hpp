#pragma once
// SuperSONIC's Helm chart at the commit sonicsim reads values files against: its default values
// (helm/supersonic/values.yaml), compiled in from the verbatim copy in
// data/supersonic/values.yaml (models/CMakeLists.txt), so that a values file is merged over
// exactly what Helm would merge it over.
#include <string_view>

#include <nlohmann/json.hpp>

namespace sonicsim::supersonic {

inline constexpr std::string_view kChartRepository = "github.com/fastmachinelearning/SuperSONIC";
inline constexpr std::string_view kChartCommit = "e5788010d54a1799287507cb0aa5527143be11c2";  // release 0.3.1
inline constexpr std::string_view kChartShortCommit = "e578801";

// The text of the chart's values.yaml (with the copy's provenance comment).
std::string_view chart_values_text();

// The chart's default values, read once.
const nlohmann::json& chart_defaults();

}  // namespace sonicsim::supersonic
