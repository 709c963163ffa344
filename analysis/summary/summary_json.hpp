#pragma once
// summary.json: a Summary written as JSON, and read back exactly (summaries cross process
// boundaries and live on disk as sweep points). summary_from_json(summary_to_json(s)) == s.
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/summary/summary.hpp"

namespace sonicsim {

nlohmann::json summary_to_json(const Summary& summary);

// The naming of the accelerators comes back from the document's keys. A document that is not a
// summary (a missing key, a value of the wrong type) is an InputError naming `document` and the
// key's JSON pointer.
Summary summary_from_json(const nlohmann::json& summary, const std::string& document = "summary.json");

// The declared_unknowns section alone, as summary.json holds it (run --bands writes it).
nlohmann::json unknowns_to_json(const UnknownsSummary& unknowns);

}  // namespace sonicsim
