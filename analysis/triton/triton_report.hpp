#pragma once
// Triton's statistics as Triton shows them: the statistics-API JSON (GET v2/models/<m>/stats), the
// Prometheus text exposition of /metrics, and one terminal line per model.
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/summary/summary.hpp"

namespace sonicsim {

// {"servers": [{"server": name, "model_stats": [ statistics-API entry per model ]}]}
nlohmann::json triton_statistics_json(const Summary& summary);

// The Prometheus text of one server's /metrics at the end of the run, with Triton's metric names
// and labels (model, version, gpu_uuid on GPU instance series only).
std::string triton_prometheus_text(const Summary& summary, int server);

// The gpu_uuid label of a simulated GPU: deterministic, unique within a run.
std::string simulated_gpu_uuid(const Summary& summary, int server, int gpu);

// "server/model: N ok, F failed, E executions (mean batch ...), queue ... ms, compute ... ms" lines.
std::string format_triton_summary(const Summary& summary);

}  // namespace sonicsim
