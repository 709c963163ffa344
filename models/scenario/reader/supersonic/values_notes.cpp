// What a values file sets that the simulation leaves out, one line per kind: values the simulator
// does not model, values no template of the chart reads, values whose feature the file turns off;
// and where the pods' models come from. Each list collapses to the keys a reader can find in the file.
#include <algorithm>

#include "models/scenario/reader/supersonic/chart_values.hpp"
#include "models/scenario/reader/supersonic/mapper.hpp"
#include "models/scenario/reader/supersonic/values_fields.hpp"
#include "models/scenario/reader/supersonic/values_notes.hpp"

namespace sonicsim::supersonic {
namespace {

bool under(std::string_view pointer, std::string_view prefix) {
  return pointer == prefix || (pointer.substr(0, prefix.size()) == prefix && pointer.size() > prefix.size() &&
                               pointer[prefix.size()] == '/');
}

// The leaves of the file: scalars, lists, and null or empty maps.
void leaves(const nlohmann::json& value, const std::string& pointer, std::vector<std::string>& out) {
  if (value.is_object() && !value.empty()) {
    for (const auto& [key, child] : value.items()) {
      std::string token;
      for (char c : key) token += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
      leaves(child, pointer + "/" + token, out);
    }
  } else {
    out.push_back(pointer);
  }
}

void add_once(std::vector<std::string>& list, std::string item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(std::move(item));
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

}  // namespace

KeyUse key_use(std::string_view pointer) {
  const KeyRule* best = nullptr;
  for (const KeyRule& rule : kChartKeys)
    if (under(pointer, rule.pointer) && (!best || rule.pointer.size() > best->pointer.size())) best = &rule;
  return best ? best->use : KeyUse::NotRead;
}

void Mapper::ignored_values() {
  std::vector<std::string> file_leaves;
  leaves(in_.file_values, "", file_leaves);
  std::vector<std::string> ignored, not_read, off;
  for (const std::string& leaf : file_leaves) {
    if (leaf.empty()) continue;  // an empty file
    const nlohmann::json& value = in_.file_values.at(nlohmann::json::json_pointer(leaf));
    // A null or empty map over chart keys only removes or keeps defaults: the mapping said what matters.
    const bool covers_keys = std::any_of(std::begin(kChartKeys), std::end(kChartKeys), [&](const KeyRule& r) {
      return under(r.pointer, leaf) && r.pointer != leaf;
    });
    if ((value.is_null() || value.is_object()) && covers_keys) continue;
    const KeyUse use = key_use(leaf);
    if (use == KeyUse::Ignored) {
      const KeyRule* rule = nullptr;
      for (const KeyRule& r : kChartKeys)
        if (under(leaf, r.pointer) && r.use == KeyUse::Ignored && (!rule || r.pointer.size() > rule->pointer.size())) rule = &r;
      add_once(ignored, dotted(rule->pointer));
    } else if (use == KeyUse::NotRead) {
      // The shortest part of the path the chart's values do not have.
      std::string shown = leaf;
      for (std::size_t slash = leaf.find('/', 1);; slash = leaf.find('/', slash + 1)) {
        const std::string prefix = leaf.substr(0, slash);
        if (!chart_defaults().contains(nlohmann::json::json_pointer(prefix))) {
          shown = prefix;
          break;
        }
        if (slash == std::string::npos) break;
      }
      add_once(not_read, dotted(shown));
    } else {
      for (const std::string& prefix : unused_) {
        if (!under(leaf, prefix) || leaf == prefix + "/enabled") continue;
        const std::size_t next = leaf.find('/', prefix.size() + 1);
        add_once(off, dotted(leaf.substr(0, next)));
        break;
      }
    }
  }
  if (!ignored.empty()) note("ignored, not simulated: " + joined(ignored));
  if (!not_read.empty())
    note("not read by the chart's templates at " + std::string(kChartShortCommit) + " (Helm would keep them unused): " +
         joined(not_read));
  if (!off.empty()) note("unused, their feature is off in this file: " + joined(off));
  note("the pods serve the scenario's models (" + in_.group_pointer + "/models, /models): the model repository the values "
       "name (triton.modelRepository, --model-repository in triton.args, on CVMFS) is not read");
}

}  // namespace sonicsim::supersonic
