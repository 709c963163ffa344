#include "models/scenario/scenario_size.hpp"

#include <algorithm>
#include <string>

#include "models/io/limits.hpp"
#include "models/jobs/job_submission.hpp"
#include "models/scenario/reader/workload/modules_from_reader.hpp"

namespace sonicsim {
namespace {

std::string count_text(std::int64_t n) { return std::to_string(n); }

bool runs_on_cpu(const triton::InstanceGroup& group) {
  return group.kind == triton::InstanceKind::Cpu || group.kind == triton::InstanceKind::Model;
}

// The smallest kernel time over batch sizes 1..max_units, and where it is. The latency forms are
// linear between their breakpoints, so the ends and the breakpoints suffice.
std::pair<double, double> smallest_latency(const KernelLatency& latency, int max_units) {
  std::vector<double> batches{1.0, static_cast<double>(max_units)};
  if (const auto* table = std::get_if<TableLatency>(&latency))
    for (const auto& [batch, seconds] : table->points)
      if (batch >= 1 && batch <= max_units) batches.push_back(batch);
  std::pair<double, double> smallest{kernel_latency_s(latency, 1.0), 1.0};
  for (const double b : batches)
    if (const double t = kernel_latency_s(latency, b); t < smallest.first) smallest = {t, b};
  return smallest;
}

void check_served_model_sizes(const JsonNode& root, const Scenario& s) {
  for (const ServerGroup& group : s.platform.servers)
    for (const std::string& name : group.models) {
      const ModelSpec& model = s.models[static_cast<std::size_t>(s.model_index(name))];
      const JsonNode node = root.at("models").at(name);
      if (active_instances(model, group) == 0)
        node.fail("model \"" + name + "\" has no instance that takes work on server group \"" + group.name +
                  "\" (every instance group is passive): its requests could never be served");
      const int max_units = std::max(1, model.triton.max_batch_size);
      std::vector<std::string> types{group.gpu_type};
      for (const triton::InstanceGroup& g : model.triton.instance_groups)
        if (runs_on_cpu(g) && !g.passive) types.emplace_back("cpu");
      for (const std::string& type : types) {
        const auto [seconds, batch] = smallest_latency(model.latency_for(type), max_units);
        if (!(seconds >= 0))
          node.fail("the kernel latency for \"" + type + "\" is negative (" + std::to_string(seconds) +
                    " s) at batch " + count_text(static_cast<std::int64_t>(batch)) +
                    ": expected a time of at least 0 at every batch size up to " + count_text(max_units));
      }
    }
}

void check_workload(const JsonNode& root, const Scenario& s) {
  const JsonNode workload = root.at("workload");
  const auto modules = module_nodes(workload, s.workload);
  std::int64_t requests_per_event = 0;
  for (std::size_t i = 0; i < s.workload.modules.size(); ++i) {
    const auto* inference = std::get_if<InferenceModule>(&s.workload.modules[i]);
    if (!inference) continue;
    const ModelSpec& model = s.models[static_cast<std::size_t>(inference->model)];
    // A count distribution is checked at its largest count (for a Poisson, where its tail drops below 1e-15).
    const int most_items = largest(inference->items_per_event);
    const double largest_request = std::min(inference->items_per_request, most_items);
    const double most_elements = inference->elements_per_item ? largest(*inference->elements_per_item) : 0;
    for (const double per_item : {model.input_bytes_per_item + most_elements * model.input_bytes_per_element,
                                  model.output_bytes_per_item + most_elements * model.output_bytes_per_element})
      if (largest_request * per_item > limits::kMaxBytes)
        modules[i].fail("a request of " + count_text(static_cast<std::int64_t>(largest_request)) +
                        " items of model \"" + model.name +
                        "\" carries more than 1PB, the most sonicsim moves in one transfer");
    requests_per_event += inference->requests_for(most_items);
    if (requests_per_event > limits::kMaxRequests)
      modules[i].fail("an event sends more than " + count_text(limits::kMaxRequests) + " requests");
    const std::int64_t in_flight = std::min<std::int64_t>(inference->in_flight, inference->requests_for(most_items));
    const std::int64_t at_once = in_flight * concurrent_jobs(s) * s.workload.streams;
    if (at_once > limits::kMaxRequestsInFlight)
      modules[i].fail("the jobs can have " + count_text(at_once) +
                      " requests in flight at once (jobs running at once x " +
                      (s.workload.streams > 1 ? "streams x " : "") + "in_flight), more than the " +
                      count_text(limits::kMaxRequestsInFlight) + " sonicsim keeps in memory");
  }
  if (!s.workload.events_per_job) return;
  const std::int64_t events = most_events_run(s.workload);
  if (events > limits::kMaxEvents)
    workload.at("events_per_job")
        .fail("the run could simulate " + count_text(events) + " events (jobs x events_per_job), more than the " +
              count_text(limits::kMaxEvents) + " sonicsim keeps in memory");
  if (requests_per_event > 0 && events > limits::kMaxRequests / requests_per_event)
    workload.at("events_per_job")
        .fail("the run would simulate more than " + count_text(limits::kMaxRequests) +
              " requests (about a day of computing)");
  if (s.simulation.outputs.requests && events * requests_per_event > limits::kMaxRecordedRequests)
    workload.at("events_per_job")
        .fail("the run would write " + count_text(events * requests_per_event) +
              " requests to requests.csv, more than the " + count_text(limits::kMaxRecordedRequests) +
              " sonicsim keeps in memory: leave \"requests\" out of /simulation/outputs");
}

void check_perf_load(const JsonNode& root, const Scenario& s) {
  const PerfAnalyzerLoad& load = *s.perf_analyzer;
  const JsonNode node = root.at("perf_analyzer");
  const ModelSpec& model = s.models[static_cast<std::size_t>(load.model)];
  for (const double per_item : {model.input_bytes_per_item, model.output_bytes_per_item})
    if (load.batch_size * per_item > limits::kMaxBytes)
      node.at("batch_size")
          .fail("a request of this batch carries more than 1PB, the most sonicsim moves in one transfer");
  if (load.mode == PerfLoadMode::RequestRate) {
    // What a level holds is bounded at run time by what it has in flight (perf_requests_in_flight_cap);
    // its total is bounded as any run's requests are, and its measured latencies are kept for the
    // percentiles.
    const double rate = *std::max_element(load.levels.begin(), load.levels.end());
    if (rate * load.end_s() > static_cast<double>(limits::kMaxRequests))
      node.at("request_rate")
          .fail("a level sends " + count_text(static_cast<std::int64_t>(rate * load.end_s())) +
                " requests over the run, more than the " + count_text(limits::kMaxRequests) +
                " sonicsim simulates in a run");
    const double measured = rate * load.windows * load.measurement_interval_s;
    if (measured > static_cast<double>(limits::kMaxRecordedRequests))
      node.at("request_rate")
          .fail("a level measures " + count_text(static_cast<std::int64_t>(measured)) +
                " requests in its windows, more than the " + count_text(limits::kMaxRecordedRequests) +
                " latencies sonicsim keeps in memory");
  }
}

}  // namespace

std::int64_t active_instances(const ModelSpec& model, const ServerGroup& group) {
  if (model.triton.instance_groups.empty())
    return static_cast<std::int64_t>(group.gpus_per_server) * model.instances_per_gpu;
  std::int64_t instances = 0;
  for (const triton::InstanceGroup& g : model.triton.instance_groups) {
    if (g.passive) continue;
    const std::int64_t devices = runs_on_cpu(g)   ? 1
                                 : g.gpus.empty() ? group.gpus_per_server
                                                  : static_cast<std::int64_t>(g.gpus.size());
    instances += devices * g.count;
  }
  return instances;
}

std::int64_t concurrent_jobs(const Scenario& s) {
  const std::int64_t jobs = s.workload.jobs;
  return s.workload.submit ? std::min(jobs, s.job_slots()) : jobs;
}

std::int64_t most_events_run(const Workload& w) {
  if (!w.events_per_job) return 0;
  const std::int64_t most = most_events(*w.events_per_job);
  const auto* trace = w.submit ? std::get_if<SubmitTrace>(&*w.submit) : nullptr;
  if (!trace) return most * w.jobs;
  std::int64_t events = 0;
  for (int j = 0; j < w.jobs; ++j) events += trace->events[static_cast<std::size_t>(j)].value_or(most);
  return events;
}

namespace {

// Every actor but a perf_analyzer load's clients or requests.
std::int64_t actors_besides_the_load(const Scenario& s) {
  std::int64_t actors = s.perf_analyzer ? 2 : 0;  // perf_analyzer's measurement and its generator or none
  if (!s.perf_analyzer) {
    // A job of several streams has one actor per stream and one that starts and ends them.
    std::int64_t per_job = s.workload.threaded() ? 1 + s.workload.streams : 1;
    // A module graph: per stream, a worker per thread and an actor per ExternalWork call in flight
    // (sim/client/event_graph.hpp).
    if (s.workload.graph) {
      std::int64_t calls = 0;
      for (const Module& m : s.workload.modules)
        if (const auto* inference = std::get_if<InferenceModule>(&m); inference && inference->external_work) ++calls;
      per_job += static_cast<std::int64_t>(s.workload.streams) * (s.workload.threads + calls);
    }
    actors += concurrent_jobs(s) * per_job + (s.workload.submit ? 1 : 0);  // a batch system submits
  }
  if (s.platform.proxy) actors += 1;      // its relay
  if (s.scraped()) actors += 1;           // Prometheus
  if (s.autoscaled_group()) actors += 1;  // KEDA and the HPA
  for (const ServerGroup& group : s.platform.servers) {
    // The frontend's handler threads are timers; one actor hands on what they finish.
    std::int64_t per_server = (group.frontend ? 1 : 0) + (group.failures || group.autoscaling ? 1 : 0);
    for (const std::string& name : group.models)
      per_server += 1 + active_instances(s.models[static_cast<std::size_t>(s.model_index(name))], group);
    // An autoscaled server keeps an exited pod's idle threads until its next pod starts: twice as many.
    actors += per_server * group.count * (group.autoscaling ? 2 : 1);
  }
  return actors;
}

}  // namespace

std::int64_t perf_requests_in_flight_cap(const Scenario& s) {
  return std::max<std::int64_t>(
      0, std::min(limits::kMaxPerfRequestsInFlight, limits::kMaxActors - actors_besides_the_load(s)));
}

std::int64_t simulated_actors(const Scenario& s) {
  std::int64_t actors = actors_besides_the_load(s);
  if (!s.perf_analyzer) return actors;
  const PerfAnalyzerLoad& load = *s.perf_analyzer;
  const double most = *std::max_element(load.levels.begin(), load.levels.end());
  if (load.mode == PerfLoadMode::Concurrency) return actors + static_cast<std::int64_t>(most);
  // A request is an actor while it is in flight; a level holds at most the cap at once.
  return actors + std::min(static_cast<std::int64_t>(most * load.end_s()), perf_requests_in_flight_cap(s));
}

void check_scenario_size(const JsonNode& root, const Scenario& s) {
  check_served_model_sizes(root, s);
  if (s.perf_analyzer)
    check_perf_load(root, s);
  else
    check_workload(root, s);
  const std::int64_t actors = simulated_actors(s);
  if (actors > limits::kMaxActors)
    root.at(s.perf_analyzer ? "perf_analyzer" : "workload")
        .fail("the run needs " + count_text(actors) +
              " simulated actors (jobs or clients, and per server its frontend, "
              "instances and batchers), more than the " +
              count_text(limits::kMaxActors) + " sonicsim runs");
}

}  // namespace sonicsim
