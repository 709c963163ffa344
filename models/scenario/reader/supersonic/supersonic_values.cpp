#include "models/scenario/reader/supersonic/supersonic_values.hpp"

#include "models/io/json/json_reader.hpp"
#include "models/io/yaml/yaml_reader.hpp"
#include "models/scenario/reader/supersonic/chart_values.hpp"
#include "models/scenario/reader/supersonic/helm_values.hpp"
#include "models/scenario/reader/supersonic/values_mapping.hpp"

namespace sonicsim::supersonic {
namespace {

using nlohmann::json;

std::vector<std::string> tokens(const std::string& pointer) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < pointer.size();) {
    const std::size_t next = pointer.find('/', i + 1);
    out.push_back(pointer.substr(i + 1, next == std::string::npos ? std::string::npos : next - i - 1));
    i = next == std::string::npos ? pointer.size() : next;
  }
  return out;
}

// Whether the scenario's own keys replace the value at `pointer`: there, or at a part of its path
// that is not an object (merge_over replaces anything but objects).
bool overridden(const json& scenario, const std::string& pointer) {
  std::string prefix;
  for (const std::string& token : tokens(pointer)) {
    prefix += "/" + token;
    try {
      const json::json_pointer p(prefix);
      if (!scenario.contains(p)) return false;
      if (!scenario.at(p).is_object()) return true;
    } catch (const json::exception&) {
      return false;
    }
  }
  return true;
}

}  // namespace

ExpandedScenario expand_supersonic_values(const json& document, const std::string& file) {
  ExpandedScenario out{document, {}, {}};
  const auto platform = document.is_object() ? document.find("platform") : document.end();
  if (platform == document.end() || !platform->is_object()) return out;
  const auto servers = platform->find("servers");
  if (servers == platform->end() || !servers->is_array()) return out;
  std::size_t named = servers->size();
  for (std::size_t g = 0; g < servers->size(); ++g) {
    const json& group = (*servers)[g];
    if (!group.is_object() || !group.contains("supersonic_values") || group["supersonic_values"].is_null()) continue;
    if (named < servers->size())
      throw InputError(file, "/platform/servers/" + std::to_string(g) + "/supersonic_values",
                       "only one server group may name a SuperSONIC values file (group " + std::to_string(named) +
                           " does): a deployment has one Envoy, and the scenario one proxy");
    named = g;
  }
  if (named == servers->size()) return out;

  const std::string group_pointer = "/platform/servers/" + std::to_string(named);
  const json& group = (*servers)[named];
  const JsonNode key(group["supersonic_values"], group_pointer + "/supersonic_values", file);
  const std::string written = key.string();
  if (written.empty()) key.fail("expected the path of a SuperSONIC values file (a Helm values.yaml)");
  const std::string path = path_beside(file, written);
  json values = read_yaml_file(path);
  if (values.is_null()) values = json::object();  // an empty file: the chart's defaults
  if (!values.is_object())
    throw InputError(path, "",
                     std::string("expected a map of values, as a Helm values file holds, got ") + values.type_name());

  const json merged = coalesce_values(values, chart_defaults());
  json inline_group = group;
  inline_group.erase("supersonic_values");
  const json& inline_platform = *platform;
  const ValuesMapping mapping = map_values({merged, values, path, inline_group, inline_platform, group_pointer});

  json expanded_platform = merge_over(mapping.platform, inline_platform);
  expanded_platform["servers"][named] = merge_over(mapping.group, inline_group);
  out.document["platform"] = std::move(expanded_platform);
  for (const std::string& note : mapping.notes) out.notes.push_back(path + ": " + note);
  for (const MappedKey& k : mapping.keys)
    if (!k.source.empty() && !overridden(k.platform ? inline_platform : inline_group, k.pointer))
      out.sources[(k.platform ? "/platform" : group_pointer) + k.pointer] = {path, k.source};
  return out;
}

bool names_values_file(const std::string& pointer) {
  const std::vector<std::string> t = tokens(pointer);
  return t.size() == 4 && t[0] == "platform" && t[1] == "servers" && !t[2].empty() &&
         t[2].find_first_not_of("0123456789") == std::string::npos && t[3] == "supersonic_values";
}

bool still_names_values_file(const nlohmann::json& document) {
  const nlohmann::json::json_pointer servers("/platform/servers");
  if (!document.is_object() || !document.contains(servers) || !document.at(servers).is_array()) return false;
  for (const json& group : document.at(servers))
    if (group.is_object() && group.contains("supersonic_values") && !group["supersonic_values"].is_null()) return true;
  return false;
}

void forget_sources_under(ExpandedScenario& expanded, const std::string& pointer) {
  for (auto it = expanded.sources.begin(); it != expanded.sources.end();) {
    const std::string& p = it->first;
    const bool under = p == pointer || (p.size() > pointer.size() && p.compare(0, pointer.size(), pointer) == 0 &&
                                        p[pointer.size()] == '/');
    it = under ? expanded.sources.erase(it) : std::next(it);
  }
}

void rethrow_at_source(const InputError& error, const ExpandedScenario& expanded) {
  const auto source = expanded.sources.find(error.pointer());
  if (source == expanded.sources.end()) throw error;
  const std::string what = error.what();
  const std::string prefix = error.file() + ": " + error.pointer() + ": ";
  const std::string message = what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what;
  throw InputError(source->second.first, source->second.second,
                   message + " (as " + error.pointer() + " of " + error.file() + ")");
}

}  // namespace sonicsim::supersonic
