#pragma once
// Merging values as Helm does, and scenario keys over what a values file gives.
#include <nlohmann/json.hpp>

namespace sonicsim::supersonic {

// Helm's coalescing of a values file over the chart's defaults (helm/pkg/chartutil/coalesce.go,
// coalesceValues and coalesceTablesFullKey): maps merge key by key, the file's value wins
// everywhere else (a list replaces the default list whole, a scalar a map), and a key the file
// sets to null is removed from the defaults.
nlohmann::json coalesce_values(const nlohmann::json& file_values, const nlohmann::json& defaults);

// A scenario's own keys over those a values file gave: objects merge key by key, anything else
// (arrays too) replaces; null stays null, which the scenario reader takes as "not given".
nlohmann::json merge_over(const nlohmann::json& base, const nlohmann::json& over);

}  // namespace sonicsim::supersonic
