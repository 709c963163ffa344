#pragma once
// Reads a scenario file into a validated Scenario. Every problem is reported as an InputError that
// names the file, the JSON pointer and what was expected.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/io/json_reader.hpp"
#include "models/scenario/scenario.hpp"

namespace sonicsim {

// Replaces the value at a JSON pointer, e.g. ("/workload/jobs", "200"). The value text is read as
// JSON when it parses as JSON ("200", "true", "[1,2]", "\"x\""), and as a plain string otherwise
// ("12ms"), so units need no extra quoting on the command line.
void apply_override(nlohmann::json& document, const std::string& pointer, const std::string& value_text,
                    const std::string& file);

Scenario parse_scenario(const nlohmann::json& document, const std::string& file);

Scenario load_scenario(const std::string& path,
                       const std::vector<std::pair<std::string, std::string>>& overrides = {});

}  // namespace sonicsim
