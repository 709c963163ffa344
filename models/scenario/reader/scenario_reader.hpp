#pragma once
// Reads a scenario file into a validated Scenario. Every problem is reported as an InputError that
// names the file, the JSON pointer and what was expected.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/io/json/json_reader.hpp"
#include "models/scenario/scenario.hpp"

namespace sonicsim {

Scenario parse_scenario(const nlohmann::json& document, const std::string& file);

// Reads the file, applies each (JSON pointer, value) override in turn (apply_override in
// models/io/json/json_pointer.hpp), and parses the result.
Scenario load_scenario(const std::string& path,
                       const std::vector<std::pair<std::string, std::string>>& overrides = {});

}  // namespace sonicsim
