#include "models/scenario/reader/scenario_reader.hpp"

#include "models/io/json/json_pointer.hpp"
#include "models/scenario/device_naming.hpp"
#include "models/scenario/reader/costs_reader.hpp"
#include "models/scenario/reader/cross_checks.hpp"
#include "models/scenario/reader/model/kernel_latency_reader.hpp"
#include "models/scenario/reader/model/model_reader.hpp"
#include "models/scenario/reader/platform/platform_reader.hpp"
#include "models/scenario/reader/simulation_reader.hpp"
#include "models/scenario/reader/supersonic/supersonic_values.hpp"
#include "models/scenario/reader/workload/perf_analyzer_reader.hpp"
#include "models/scenario/reader/workload/workload_reader.hpp"
#include "models/scenario/scenario_size.hpp"
#include "models/scenario/unknowns/declared_unknown.hpp"

namespace sonicsim {
namespace {

Scenario parse_document(const nlohmann::json& document, const std::string& file) {
  refuse_declared_unknowns(document, file);
  const JsonNode root(document, "", file);
  root.allow_only({"name", "description", "platform", "models", "workload", "perf_analyzer", "simulation", "costs"});
  Scenario s;
  s.file = file;
  s.name = root.at("name").string();
  if (auto d = root.find("description")) s.description = d->string();
  s.simulation = read_simulation(root.at("simulation"));  // first: the latency quantile applies to the models
  s.platform = read_platform(root.at("platform"));
  LatencyContext latency{s.simulation.latency_quantile};
  s.models = read_models(root.at("models"), s.platform, latency);
  if (root.has("workload") == root.has("perf_analyzer"))
    root.fail("expected exactly one of \"workload\" (grid jobs) and \"perf_analyzer\" (a perf_analyzer-like load)");
  if (root.has("workload"))
    s.workload = read_workload(root.at("workload"), s.models);
  else
    s.perf_analyzer = read_perf_analyzer(root.at("perf_analyzer"), s.models);
  if (auto costs = root.find("costs")) s.costs = read_costs(*costs);
  s.device_naming = read_device_naming(root);
  check_across_sections(root, s, latency);
  check_scenario_size(root, s);
  return s;
}

// A scenario whose SuperSONIC values file has been expanded: an error about a key the file gave
// names the file and its key.
Scenario parse_expanded(const supersonic::ExpandedScenario& expanded, const std::string& file) {
  try {
    Scenario s = parse_document(expanded.document, file);
    s.notes = expanded.notes;
    return s;
  } catch (const InputError& e) {
    supersonic::rethrow_at_source(e, expanded);
  }
}

}  // namespace

Scenario parse_scenario(const nlohmann::json& document, const std::string& file) {
  return parse_expanded(supersonic::expand_supersonic_values(document, file), file);
}

// A --set of a group's "supersonic_values" applies before the file is expanded, every other after
// it and in the order given, so that it changes what the file gave; one that puts a values file
// back (a new /platform/servers) is expanded in turn.
namespace {

// The scenario's document with the overrides applied and its values file expanded.
supersonic::ExpandedScenario expanded_with_overrides(
    const std::string& path, const std::vector<std::pair<std::string, std::string>>& overrides) {
  nlohmann::json document = read_json_file(path);
  for (const auto& [pointer, value] : overrides)
    if (supersonic::names_values_file(pointer)) apply_override(document, pointer, value, path);
  supersonic::ExpandedScenario expanded = supersonic::expand_supersonic_values(document, path);
  for (const auto& [given, value] : overrides)
    if (!supersonic::names_values_file(given)) {
      const std::string pointer = pointer_in_document_naming(expanded.document, given);
      apply_override(expanded.document, pointer, value, path);
      supersonic::forget_sources_under(expanded, pointer);
    }
  if (supersonic::still_names_values_file(expanded.document))
    return supersonic::expand_supersonic_values(expanded.document, path);
  return expanded;
}

}  // namespace

Scenario load_scenario(const std::string& path, const std::vector<std::pair<std::string, std::string>>& overrides) {
  return parse_expanded(expanded_with_overrides(path, overrides), path);
}

std::vector<DeclaredUnknown> scenario_unknowns(const std::string& path,
                                               const std::vector<std::pair<std::string, std::string>>& overrides) {
  return find_declared_unknowns(expanded_with_overrides(path, overrides).document, path);
}

}  // namespace sonicsim
