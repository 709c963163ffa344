#pragma once
// Editing a JSON document at a JSON pointer (RFC 6901), as `--set /json/pointer=value` does to a
// scenario before it is read.
#include <string>

#include <nlohmann/json.hpp>

namespace sonicsim {

// Replaces the value at a JSON pointer, e.g. ("/workload/jobs", "200"). The value text is read as
// JSON when it parses as JSON ("200", "true", "[1,2]", "\"x\""), and as a plain string otherwise
// ("12ms"), so units need no extra quoting on the command line. A pointer whose parent does not
// exist, or a bad array index, is an InputError naming `file` and the pointer.
void apply_override(nlohmann::json& document, const std::string& pointer, const std::string& value_text,
                    const std::string& file);

}  // namespace sonicsim
