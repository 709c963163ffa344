#include "models/scenario/reader/cross_checks.hpp"

#include <algorithm>
#include <string>

#include "models/io/json/choice.hpp"
#include "models/io/text_format.hpp"
#include "models/scenario/reader/request_path_reader.hpp"
#include "models/scenario/reader/workload/modules_from_reader.hpp"

namespace sonicsim {
namespace {

int largest_node(const Scenario& s) {
  int cores = 0;
  for (const WorkerPool& pool : s.platform.worker_pools) cores = std::max(cores, pool.cores_per_node);
  return cores;
}

bool is_served(const Scenario& s, const std::string& model) {
  for (const ServerGroup& group : s.platform.servers)
    for (const std::string& name : group.models)
      if (name == model) return true;
  return false;
}

// /simulation/latency_quantile selects a curve from a calibration's band: some model must have one.
void check_latency_quantile(const JsonNode& root, const Scenario& s, const LatencyContext& latency) {
  if (s.simulation.latency_quantile && latency.calibrated_count == 0)
    root.at("simulation")
        .at("latency_quantile")
        .fail("expected a model with a " + quoted(kCalibratedLatency) +
              " kernel_latency: the quantile selects a curve from a "
              "calibration's uncertainty band");
}

// An inference module gives its items elements exactly when its model has a variable dim.
void check_elements_per_item(const JsonNode& root, const Scenario& s) {
  const auto modules = module_nodes(root.at("workload"), s.workload);
  for (std::size_t i = 0; i < s.workload.modules.size(); ++i) {
    const auto* inference = std::get_if<InferenceModule>(&s.workload.modules[i]);
    if (!inference) continue;
    const ModelSpec& spec = s.models[static_cast<std::size_t>(inference->model)];
    if (inference->elements_per_item) {
      const JsonNode elements = modules[i].at("elements_per_item");
      if (spec.layout == TensorLayout::Fixed)
        elements.fail("model \"" + spec.name + "\" has no variable (-1) dim: its items have no element count");
      // SimGrid never completes a transfer of 0 bytes: an item without elements needs fixed bytes.
      if (spec.input_bytes_per_item == 0 && probabilities(*inference->elements_per_item).front().first == 0)
        elements.fail("model \"" + spec.name +
                      "\" sends only its variable dim: an item of 0 elements would be a request "
                      "of 0 bytes; expected a count that is never 0");
    } else if (spec.layout != TensorLayout::Fixed) {
      modules[i].fail("model \"" + spec.name +
                      "\" has a variable (-1) dim: expected \"elements_per_item\" (an integer or "
                      "a count distribution)");
    }
  }
}

// The fewest items a request of the module can carry: the last of an event's requests carries what
// is left, from the smallest event on (an event of no items sends none).
int fewest_items_per_request(const InferenceModule& module) {
  int fewest = module.items_per_request;
  for (const auto& [items, probability] : probabilities(module.items_per_event))
    if (items > 0 && probability > 0)
      fewest = std::min(fewest, module.items_in_request(module.requests_for(items) - 1, items));
  return fewest;
}

// A transfer moves whole bytes, and SimGrid never completes one of none between two hosts: the
// smallest request must carry at least one byte (4 bits per item, one item, would be 0).
void check_request_bytes(const JsonNode& root, const Scenario& s) {
  const auto modules = module_nodes(root.at("workload"), s.workload);
  for (std::size_t i = 0; i < s.workload.modules.size(); ++i) {
    const auto* inference = std::get_if<InferenceModule>(&s.workload.modules[i]);
    if (!inference) continue;
    const ModelSpec& spec = s.models[static_cast<std::size_t>(inference->model)];
    const int items = fewest_items_per_request(*inference);
    const double elements =
        inference->elements_per_item ? probabilities(*inference->elements_per_item).front().first : 0;
    const double bytes = items * (spec.input_bytes_per_item + elements * spec.input_bytes_per_element);
    if (bytes < 1)
      modules[i].fail("its smallest request (" + std::to_string(items) + (items == 1 ? " item" : " items") +
                      " of model \"" + spec.name + "\") carries " + printf_string("%g", bytes) +
                      " bytes: a transfer moves whole bytes, at least 1 (expected larger items, or more per request)");
  }
}

void check_perf_analyzer_model(const JsonNode& root, const Scenario& s) {
  const ModelSpec& model = s.models[static_cast<std::size_t>(s.perf_analyzer->model)];
  if (model.layout != TensorLayout::Fixed)
    root.at("perf_analyzer")
        .at("model")
        .fail("model \"" + model.name +
              "\" has a variable (-1) dim; perf_analyzer's --shape is not simulated (give the model "
              "input_bytes_per_item and output_bytes_per_item for fixed-size requests)");
  if (s.simulation.stop_at_precision)
    root.at("simulation")
        .at("stop_at_precision")
        .fail("a stopping rule is for grid-job workloads (their per-event time), not a perf_analyzer load");
}

// "kernel_latency_by_gpu has A100 (calibrated: a100.json), T4 and V100 only": the device types a
// model has latencies for, and the calibration file of each that has one.
std::string latencies_given(const ModelSpec& model, DeviceNaming naming) {
  std::string text = std::string("kernel_latency_by_") + device_words(naming).key;
  if (model.kernel_latency_by_gpu.empty()) return "the model has neither kernel_latency nor " + text;
  text += " has ";
  std::size_t left = model.kernel_latency_by_gpu.size();
  for (const auto& entry : model.kernel_latency_by_gpu) {
    --left;
    text += entry.first;
    if (const auto file = model.latency_file_by_gpu.find(entry.first); file != model.latency_file_by_gpu.end())
      text += " (calibrated: " + file->second + ")";
    text += left > 1 ? ", " : left == 1 ? " and " : " only";
  }
  return text;
}

// Every served model exists and has a latency model for the group's GPU type.
void check_served_models(const JsonNode& root, const Scenario& s) {
  const JsonNode servers = root.at("platform").at("servers");
  for (std::size_t g = 0; g < s.platform.servers.size(); ++g) {
    const ServerGroup& group = s.platform.servers[g];
    const JsonNode models = servers.elements()[g].at("models");
    for (std::size_t i = 0; i < group.models.size(); ++i) {
      const int m = s.model_index(group.models[i]);
      if (m < 0) models.elements()[i].fail("unknown model \"" + group.models[i] + "\" (not defined under /models)");
      const ModelSpec& model = s.models[m];
      if (!model.kernel_latency && !model.kernel_latency_by_gpu.count(group.gpu_type))
        root.at("models")
            .at(model.name)
            .fail("no kernel latency for device type \"" + group.gpu_type + "\" (served by server group \"" +
                  group.name + "\"): " + latencies_given(model, s.device_naming));
    }
  }
}

// perf_analyzer's clients stop at the first error; sonicsim models them on a farm that does not fail.
void check_perf_analyzer_platform(const JsonNode& root, const Scenario& s) {
  const std::string& model = s.models[s.perf_analyzer->model].name;
  if (!is_served(s, model))
    root.at("perf_analyzer").at("model").fail("model \"" + model + "\" is served by no server group");
  if (s.platform.proxy)
    root.at("platform").at("proxy").fail("a proxy is for grid jobs: perf_analyzer talks to the servers");
  const JsonNode servers = root.at("platform").at("servers");
  for (std::size_t g = 0; g < s.platform.servers.size(); ++g)
    if (s.platform.servers[g].failures)
      servers.elements()[g]
          .at("failures")
          .fail("server failures are for grid jobs: perf_analyzer stops at its first error");
}

// A model that no server serves needs a CPU fallback time; so does every model of a gated farm.
void check_cpu_fallbacks(const JsonNode& root, const Scenario& s) {
  const auto modules = module_nodes(root.at("workload"), s.workload);
  for (std::size_t i = 0; i < s.workload.modules.size(); ++i) {
    const auto* inference = std::get_if<InferenceModule>(&s.workload.modules[i]);
    if (!inference) continue;
    if (s.platform.proxy && s.platform.proxy->gate && !inference->cpu_fallback)
      modules[i].fail(
          "a job the saturation gate refuses runs this module on its CPU: expected a \"cpu_fallback\" time");
    if (s.platform.proxy && s.platform.proxy->connection_limit && !inference->cpu_fallback)
      modules[i].fail(
          "a job whose connection the proxy refuses runs this module on its CPU: expected a \"cpu_fallback\" time");
    if (!is_served(s, s.models[inference->model].name) && !inference->cpu_fallback)
      modules[i].fail("model \"" + s.models[inference->model].name +
                      "\" is served by no server group: expected a \"cpu_fallback\" time");
  }
}

// Where the job's thread count is written: /workload/threads, or the FastTimerService report's job
// (modules_from's threads) when the workload takes it from there.
JsonNode threads_node(const JsonNode& root) {
  const JsonNode workload = root.at("workload");
  if (workload.has("threads") || !workload.has("modules_from")) return workload.at("threads");
  return workload.at("modules_from").at("threads");
}

// A static farm runs one job per core, or a job of several threads on as many cores of one node; a
// batch system's jobs need a node with that many cores.
void check_jobs_fit(const JsonNode& root, const Scenario& s) {
  const int threads = s.workload.threads;
  if (s.workload.submit) {
    if (s.job_slots() == 0)
      threads_node(root).fail("expected at most " + std::to_string(largest_node(s)) +
                              " threads (a job's threads are cores of one node; no node has more)");
    return;
  }
  if (s.workload.jobs <= s.job_slots()) return;
  if (threads == 1)
    root.at("workload")
        .at("jobs")
        .fail("expected at most " + std::to_string(s.total_worker_cores()) +
              " jobs (the worker pools have that many cores; one job per core): more jobs need "
              "more nodes, or cores_per_node, under /platform/worker_pools");
  if (s.job_slots() == 0)
    threads_node(root).fail("expected at most " + std::to_string(largest_node(s)) +
                            " threads (a job's threads are cores of one node; no node has more)");
  root.at("workload")
      .at("jobs")
      .fail("expected at most " + std::to_string(s.job_slots()) +
            " jobs (the worker nodes have room for that many jobs of " + std::to_string(threads) +
            " threads, each on as many cores of one node): more "
            "jobs need more nodes under /platform/worker_pools");
}

}  // namespace

void check_across_sections(const JsonNode& root, const Scenario& s, const LatencyContext& latency) {
  check_latency_quantile(root, s, latency);
  if (s.perf_analyzer)
    check_perf_analyzer_model(root, s);
  else {
    check_elements_per_item(root, s);
    check_request_bytes(root, s);
  }
  check_served_models(root, s);
  check_request_path(root, s);
  if (s.perf_analyzer) {
    check_perf_analyzer_platform(root, s);
    return;
  }
  check_cpu_fallbacks(root, s);
  check_jobs_fit(root, s);
}

}  // namespace sonicsim
