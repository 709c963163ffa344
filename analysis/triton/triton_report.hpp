#pragma once
// Triton's statistics as Triton shows them: the Prometheus text exposition of /metrics, and one
// terminal line per model. (The statistics-API JSON is summary.json's "triton": statistics_api.hpp.)
#include <string>
#include <vector>

#include "analysis/summary/summary.hpp"

namespace sonicsim {

// The Prometheus text of one server's /metrics at the end of the run, with Triton's metric names
// and labels (model, version, gpu_uuid on GPU instance series only): the run's counters, and the
// summary's device utilisation.
std::string triton_prometheus_text(const SimulationResults& results, const Summary& summary, int server);

// The gpu_uuid label of a simulated GPU: deterministic, unique within a run.
std::string simulated_gpu_uuid(const std::string& server, int gpu);

// "server/model: N ok, F failed, E executions (mean batch ...), queue ... ms, compute ... ms" lines.
std::string format_triton_summary(const std::vector<TritonServerStatistics>& servers);

}  // namespace sonicsim
