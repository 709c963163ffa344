#pragma once
// Reads a scenario file into a validated Scenario. Every problem is reported as an InputError that
// names the file, the JSON pointer and what was expected.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/io/input_error.hpp"
#include "models/scenario/scenario.hpp"
#include "models/scenario/unknowns/declared_unknown.hpp"

namespace sonicsim {

Scenario parse_scenario(const nlohmann::json& document, const std::string& file);

// Reads the file, applies each (JSON pointer, value) override in turn (apply_override in
// models/io/json/json_pointer.hpp), and parses the result.
Scenario load_scenario(const std::string& path, const std::vector<std::pair<std::string, std::string>>& overrides = {});

// The declared unknowns of the same (models/scenario/unknowns/declared_unknown.hpp): a scenario that
// has any is refused by load_scenario until overrides give each a value.
std::vector<DeclaredUnknown> scenario_unknowns(const std::string& path,
                                               const std::vector<std::pair<std::string, std::string>>& overrides = {});

}  // namespace sonicsim
