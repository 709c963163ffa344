#pragma once
// A server group may name a SuperSONIC values file ("supersonic_values": "values-geddes-cms.yaml",
// beside the scenario) instead of spelling out the deployment: the file, merged over the chart's
// defaults as Helm merges it, gives the group and the platform their keys (values_mapping.hpp), and
// the scenario's own keys override them (objects merge, anything else replaces; null removes).
// This turns such a scenario into one without the key, before the section readers see it.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/io/input_error.hpp"

namespace sonicsim::supersonic {

struct ExpandedScenario {
  nlohmann::json document;
  std::vector<std::string> notes;  // "FILE: ..." one line each, for the command line to print
  // The scenario keys a values file gave: their JSON pointer in the document, and the values file
  // and key they come from; an error about one of them names the values file.
  std::map<std::string, std::pair<std::string, std::string>> sources;
};

// The document with every "supersonic_values" of /platform/servers replaced by what its file gives
// (at most one group may name one: the scenario has one proxy). `file`: the scenario's path, the
// values file's is written relative to it.
ExpandedScenario expand_supersonic_values(const nlohmann::json& document, const std::string& file);

// Whether a --set pointer is a group's "supersonic_values" (it is applied before the expansion,
// every other --set after it and in its order, so that --set changes what the file gives).
bool names_values_file(const std::string& pointer);

// Whether a group of `document` still names a values file: one a --set of /platform/servers (or
// of what holds it) put there after the expansion.
bool still_names_values_file(const nlohmann::json& document);

// A --set at `pointer` replaced what a values file gave there and below.
void forget_sources_under(ExpandedScenario& expanded, const std::string& pointer);

// An error about a key a values file gave, rethrown as one naming that file and key; any other
// error as it is.
[[noreturn]] void rethrow_at_source(const InputError& error, const ExpandedScenario& expanded);

}  // namespace sonicsim::supersonic
