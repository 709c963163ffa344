#include "analysis/triton/triton_report.hpp"

#include <cinttypes>

#include "models/io/text_format.hpp"

namespace sonicsim {
namespace {

// Prometheus label values escape backslash, double quote and newline.
std::string label_value(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

struct Family {
  const char* name;
  const char* type;
  const char* help;
};

class PromWriter {
 public:
  void family(const Family& f) {
    text_ += std::string("# HELP ") + f.name + " " + f.help + "\n# TYPE " + f.name + " " + f.type + "\n";
    name_ = f.name;
  }
  void sample(const std::string& labels, std::uint64_t value) { sample(labels, std::to_string(value)); }
  void sample(const std::string& labels, const std::string& value) {
    text_ += name_ + "{" + labels + "} " + value + "\n";
  }
  std::string take() { return std::move(text_); }

 private:
  std::string text_;
  std::string name_;
};

}  // namespace

std::string simulated_gpu_uuid(const std::string& server, int gpu) {
  return "GPU-" + server + "-" + std::to_string(gpu);
}

std::string triton_prometheus_text(const SimulationResults& r, const Summary& s, int server) {
  const std::string& name = r.header.server_names[server];
  std::vector<const TritonModelStats*> models;
  for (const TritonModelStats& m : r.triton)
    if (m.server == server) models.push_back(&m);
  auto model_labels = [&](const TritonModelStats& m) {
    return "model=\"" + label_value(r.header.model_names[m.model]) + "\",version=\"1\"";
  };
  auto series_labels = [&](const TritonModelStats& m, int gpu) {
    std::string labels = model_labels(m);
    if (gpu >= 0) labels += ",gpu_uuid=\"" + label_value(simulated_gpu_uuid(name, gpu)) + "\"";
    return labels;
  };

  PromWriter out;
  out.family({"nv_inference_request_success", "counter", "Number of successful inference requests, all batch sizes"});
  for (const auto* m : models)
    for (const auto& [gpu, c] : m->series) out.sample(series_labels(*m, gpu), c.request_success);
  // All four reasons exist from load; REJECTED (queue timeouts) comes from the model reporter.
  out.family({"nv_inference_request_failure", "counter", "Number of failed inference requests, all batch sizes"});
  for (const auto* m : models)
    for (const char* reason : {"REJECTED", "CANCELED", "BACKEND", "OTHER"})
      out.sample(model_labels(*m) + ",reason=\"" + reason + "\"",
                 std::string(reason) == "REJECTED" ? m->failure_rejected : 0);

  using Counter = std::uint64_t TritonPromSeries::*;
  const std::pair<Family, Counter> counters[] = {
      {{"nv_inference_count", "counter", "Number of inferences performed (does not include cached requests)"},
       &TritonPromSeries::inference_count},
      {{"nv_inference_exec_count", "counter",
        "Number of model executions performed (does not include cached requests)"},
       &TritonPromSeries::exec_count},
      {{"nv_inference_request_duration_us", "counter", "Cumulative inference request duration in microseconds"},
       &TritonPromSeries::request_duration_us},
      {{"nv_inference_queue_duration_us", "counter", "Cumulative inference queuing duration in microseconds"},
       &TritonPromSeries::queue_duration_us},
      {{"nv_inference_compute_input_duration_us", "counter", "Cumulative compute input duration in microseconds"},
       &TritonPromSeries::compute_input_duration_us},
      {{"nv_inference_compute_infer_duration_us", "counter", "Cumulative compute inference duration in microseconds"},
       &TritonPromSeries::compute_infer_duration_us},
      {{"nv_inference_compute_output_duration_us", "counter", "Cumulative compute output duration in microseconds"},
       &TritonPromSeries::compute_output_duration_us},
  };
  for (const auto& [family, counter] : counters) {
    out.family(family);
    for (const auto* m : models)
      for (const auto& [gpu, c] : m->series) out.sample(series_labels(*m, gpu), c.*counter);
  }
  out.family({"nv_inference_pending_request_count", "gauge",
              "Instantaneous number of pending requests awaiting execution per-model."});
  for (const auto* m : models) out.sample(model_labels(*m), std::to_string(m->pending));

  // Mean over the run, as a plain decimal: perf_analyzer's regex takes no exponent.
  out.family({"nv_gpu_utilization", "gauge", "GPU utilization rate [0.0 - 1.0)"});
  for (const GpuUtilization& g : s.gpus) {
    if (g.server != name) continue;
    out.sample("gpu_uuid=\"" + label_value(simulated_gpu_uuid(name, g.gpu)) + "\"",
               printf_string("%.6f", g.utilization));
  }
  return out.take();
}

std::string format_triton_summary(const std::vector<TritonServerStatistics>& servers) {
  std::string out;
  for (const TritonServerStatistics& server : servers)
    for (const TritonModelStatistics& m : server.models) {
      const double n = static_cast<double>(m.success.count);
      const double queue_ms = n ? m.queue.ns / n / 1e6 : 0;
      const double compute_ms = n ? (m.compute_input.ns + m.compute_infer.ns + m.compute_output.ns) / n / 1e6 : 0;
      const double mean_batch = m.execution_count ? static_cast<double>(m.inference_count) / m.execution_count : 0;
      out += printf_string("  %s/%s: %" PRIu64 " ok, %" PRIu64 " failed, %" PRIu64
                           " executions (%.2f inferences each), queue %.3f ms, compute %.3f ms per request\n",
                           server.server.c_str(), m.name.c_str(), m.success.count, m.fail.count, m.execution_count,
                           mean_batch, queue_ms, compute_ms);
    }
  return out;
}

}  // namespace sonicsim
