// What a values file sets that the simulation leaves out, one line per kind: values the simulator
// does not model, values no template of the chart reads, values whose feature the file turns off;
// and where the pods' models come from. Each list collapses to the keys a reader can find in the file.
#include <algorithm>
#include <unordered_set>

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

// Names in the order first seen, each once; a set finds repeats, so a file of 100,000 unknown keys
// takes linear time (a search of the list made it quadratic: 18 s for 90,000 keys).
class UniqueNames {
 public:
  void add(std::string name) {
    if (seen_.insert(name).second) order_.push_back(std::move(name));
  }
  bool empty() const { return order_.empty(); }
  std::string joined() const {
    std::string out;
    for (const std::string& name : order_) out.append(out.empty() ? "" : ", ").append(name);
    return out;
  }

 private:
  std::vector<std::string> order_;
  std::unordered_set<std::string> seen_;
};

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
  UniqueNames ignored, not_read, off;
  for (const std::string& leaf : file_leaves) {
    if (leaf.empty()) continue;  // an empty file
    const nlohmann::json& value = in_.file_values.at(nlohmann::json::json_pointer(leaf));
    // A null or empty map over chart keys only removes or keeps defaults: the mapping said what matters.
    const bool covers_keys = std::any_of(std::begin(kChartKeys), std::end(kChartKeys),
                                         [&](const KeyRule& r) { return under(r.pointer, leaf) && r.pointer != leaf; });
    if ((value.is_null() || value.is_object()) && covers_keys) continue;
    const KeyUse use = key_use(leaf);
    if (use == KeyUse::Ignored) {
      const KeyRule* rule = nullptr;
      for (const KeyRule& r : kChartKeys)
        if (under(leaf, r.pointer) && r.use == KeyUse::Ignored && (!rule || r.pointer.size() > rule->pointer.size()))
          rule = &r;
      ignored.add(dotted(rule->pointer));
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
      not_read.add(dotted(shown));
    } else {
      for (const std::string& prefix : unused_) {
        if (!under(leaf, prefix) || leaf == prefix + "/enabled") continue;
        const std::size_t next = leaf.find('/', prefix.size() + 1);
        off.add(dotted(leaf.substr(0, next)));
        break;
      }
    }
  }
  if (!ignored.empty()) note("ignored, not simulated: " + ignored.joined());
  if (!not_read.empty())
    note("not read by the chart's templates at " + std::string(kChartShortCommit) +
         " (Helm would keep them unused): " + not_read.joined());
  if (!off.empty()) note("unused, their feature is off in this file: " + off.joined());
  note("the pods serve the scenario's models (" + in_.group_pointer +
       "/models, /models): the model repository the values "
       "name (triton.modelRepository, --model-repository in triton.args, on CVMFS) is not read");
}

}  // namespace sonicsim::supersonic
