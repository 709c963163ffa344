#include "models/scenario/reader/warnings.hpp"

#include <charconv>

namespace sonicsim {
namespace {

void oversized_requests(const Scenario& scenario, std::vector<std::string>& out) {
  for (const Module& m : scenario.workload.modules) {
    const auto* inference = std::get_if<InferenceModule>(&m);
    if (!inference) continue;
    const ModelSpec& model = scenario.models[static_cast<std::size_t>(inference->model)];
    if (model.triton.max_batch_size > 0 &&
        inference->items_per_request > model.triton.max_batch_size)  // 0: no batch dimension
      out.push_back("module \"" + inference->name + "\" sends requests of " +
                    std::to_string(inference->items_per_request) + " items but model \"" + model.name +
                    "\" has max_batch_size " + std::to_string(model.triton.max_batch_size) +
                    ": the server rejects them");
  }
}

// A group's device type falls back to a model's one kernel_latency where the model's by-device
// table does not list it: with such a table, the type was likely meant to pick an entry of it.
void device_types(const Scenario& scenario, const std::set<int>& retyped, std::vector<std::string>& out) {
  const DeviceWords words = device_words(scenario.device_naming);
  for (std::size_t g = 0; g < scenario.platform.servers.size(); ++g) {
    const ServerGroup& group = scenario.platform.servers[g];
    for (const std::string& name : group.models) {
      const int m = scenario.model_index(name);
      if (m < 0) continue;
      const ModelSpec& model = scenario.models[static_cast<std::size_t>(m)];
      if (model.kernel_latency_by_gpu.count(group.gpu_type)) continue;
      std::string listed;
      for (const auto& [type, latency] : model.kernel_latency_by_gpu) listed += (listed.empty() ? "" : ", ") + type;
      const std::string where =
          "server group \"" + group.name + "\": " + words.label + " type \"" + group.gpu_type + "\"";
      if (!listed.empty())
        out.push_back(where + " has no kernel latency of its own for model \"" + model.name +
                      "\" (its kernel_latency_by_" + words.key + " lists " + listed +
                      "): it runs at the model's one kernel_latency");
      else if (retyped.count(static_cast<int>(g)))
        out.push_back(where + " changes nothing: model \"" + model.name + "\" gives one kernel_latency for every " +
                      words.label + " (set its kernel_latency_by_" + words.key + " for per-type latencies)");
    }
  }
}

}  // namespace

std::vector<std::string> scenario_warnings(const Scenario& scenario, const std::set<int>& retyped_groups) {
  std::vector<std::string> out;
  if (scenario.perf_analyzer) return out;
  oversized_requests(scenario, out);
  device_types(scenario, retyped_groups, out);
  return out;
}

int retyped_group(const std::string& pointer) {
  const std::string prefix = "/platform/servers/";
  if (pointer.rfind(prefix, 0) != 0) return -1;
  const std::size_t slash = pointer.find('/', prefix.size());
  if (slash == std::string::npos) return -1;
  const std::string key = pointer.substr(slash + 1);
  if (key != "gpu" && key != "device") return -1;
  int group = -1;
  const auto [end, error] = std::from_chars(pointer.data() + prefix.size(), pointer.data() + slash, group);
  return error == std::errc() && end == pointer.data() + slash ? group : -1;
}

}  // namespace sonicsim
