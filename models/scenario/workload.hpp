#pragma once
// The scenario's /workload: the grid jobs (how many, when, how many events: JobsSpec in
// models/jobs/job_submission.hpp) and the modules each event runs, on the CPU or as inference requests.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "models/jobs/job_submission.hpp"
#include "models/scenario/request_path.hpp"
#include "models/workload/distribution.hpp"
#include "models/workload/item_count.hpp"
#include "models/workload/module_graph.hpp"

namespace sonicsim {

struct CpuModule {
  std::string name;
  Distribution time;
};

// After the last allowed try fails: the job ends as failed (CMSSW today), the module runs on the
// worker's CPU (cpu_fallback) for this event or for the rest of the job, or the request is tried on
// another ready server (proposed for CMSSW).
enum class OnFailure { FailJob, Fallback, Failover };
enum class FallbackScope { Event, Job };

struct InferenceModule {
  std::string name;
  int model = -1;                 // index into Scenario::models
  ItemCount items_per_event = 1;  // drawn once per event where it is a distribution
  int items_per_request = 0;
  // Models with a variable dim: elements of each item (particles of a jet), drawn per item.
  std::optional<ItemCount> elements_per_item;
  Distribution preprocess;
  int in_flight = 1;  // 1 = blocking; m > 1 = asynchronous with m requests outstanding
  // CMSSW's ExternalWork (acquire/produce): the stream's thread is free while the requests are in
  // flight. False: a blocking (Sync) call that holds the thread throughout.
  bool external_work = false;
  std::optional<Distribution> cpu_fallback;  // time on the CPU when no server serves the model
  int priority = 0;                          // Triton request priority; 0 = the model's default level
  double timeout_s = 0;                      // Triton request "timeout" parameter; 0 = none
  // What the client does when a request fails (CMSSW SonicTriton; docs/reference/supersonic.md §5.1).
  int allowed_tries = 1;                   // attempts on the same server, retried at once
  std::optional<double> client_timeout_s;  // the client's deadline for an answer (gRPC DEADLINE_EXCEEDED)
  OnFailure on_failure = OnFailure::FailJob;
  FallbackScope fallback_scope = FallbackScope::Event;

  // Requests for an event of `items` items (none for an event without any).
  std::int64_t requests_for(int items) const {
    return (static_cast<std::int64_t>(items) + items_per_request - 1) / items_per_request;
  }
  // Items in the k-th request of an event of `items` items (all full but the last).
  int items_in_request(std::int64_t k, int items) const {
    return static_cast<int>(std::min<std::int64_t>(items_per_request, items - k * items_per_request));
  }
};

using Module = std::variant<CpuModule, InferenceModule>;

inline const std::string& module_name(const Module& m) {
  return std::visit([](const auto& module) -> const std::string& { return module.name; }, m);
}

// Where the modules came from when a CMSSW FastTimerService report gave them (/workload/modules_from).
struct ModulesReport {
  std::string file;

  std::int64_t events = 0;  // the report's job's events, which its times are divided by
  // The threads and streams of the job the report was taken from, as the scenario gives them (the
  // report has no such key); unset where it does not.
  std::optional<int> threads;
  std::optional<int> streams;
  std::string graph_file;  // the DependencyGraph file read with it ("graph"), or ""
};

// The jobs (JobsSpec: jobs, events_per_job, start, submit), and what limits and runs in them.
struct Workload : JobsSpec {
  std::optional<double> duration_s;  // exactly one of events_per_job and duration_s is set
  double warmup_s = 0;               // events starting before this are left out of the statistics
  int resubmit = 0;                  // batch system: how many times a failed job is submitted again
  std::vector<Module> modules;
  // The modules' "after" (or a DependencyGraph file beside a report): each event runs its modules
  // as they become ready (sim/client/event_graph). Unset: one after another, in the order written.
  std::optional<ModuleGraph> graph;
  // A job as a CMSSW process (numberOfThreads, numberOfStreams): it holds `threads` cores of one
  // node and has `streams` events in flight at once, one per stream, on a pool of its threads.
  int threads = 1;
  int streams = 1;
  bool threads_or_streams_given = false;  // by /workload itself (a report's job's: modules_report)
  std::optional<ModulesReport> modules_report;
  ClientProtocol protocol = ClientProtocol::Grpc;  // CMSSW's SonicTriton client speaks gRPC

  // Whether jobs run their streams on their threads (sim/client/threaded_job), which the outputs
  // say: where the scenario gives threads or streams (here or with a FastTimerService report), a
  // module external_work, or a module graph (whose modules run on the job's threads: one, unless
  // given). Otherwise a job is one thread running one event at a time, as it was before either existed.
  bool threaded() const {
    if (threads_or_streams_given || graph) return true;
    if (modules_report && (modules_report->threads || modules_report->streams)) return true;
    for (const Module& m : modules)
      if (const auto* inference = std::get_if<InferenceModule>(&m); inference && inference->external_work) return true;
    return false;
  }
};

}  // namespace sonicsim
