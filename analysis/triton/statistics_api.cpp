#include "analysis/triton/statistics_api.hpp"

namespace sonicsim {
namespace {

TritonModelStatistics model_statistics(const TritonModelStats& m, const std::string& name) {
  TritonModelStatistics s;
  s.name = name;
  s.last_inference_ms = static_cast<std::uint64_t>(m.last_inference_s * 1e3);
  s.inference_count = m.inference_count;
  s.execution_count = m.execution_count;
  s.success = m.success;
  s.fail = m.fail;
  s.queue = m.queue;
  s.compute_input = m.compute_input;
  s.compute_infer = m.compute_infer;
  s.compute_output = m.compute_output;
  for (const auto& [size, b] : m.batch_stats)
    s.batch_stats.push_back({size, b.compute_input, b.compute_infer, b.compute_output});
  s.pending_requests = m.pending;
  return s;
}

}  // namespace

std::vector<TritonServerStatistics> triton_statistics(const SimulationResults& r) {
  std::vector<TritonServerStatistics> servers;
  for (std::size_t server = 0; server < r.header.server_names.size(); ++server) {
    TritonServerStatistics& s = servers.emplace_back();
    s.server = r.header.server_names[server];
    for (const TritonModelStats& m : r.triton)
      if (m.server == static_cast<int>(server)) s.models.push_back(model_statistics(m, r.header.model_names[m.model]));
  }
  return servers;
}

}  // namespace sonicsim
