#pragma once
// One stream of a grid job: it runs the scenario's module chain on one event at a time, as a CMSSW
// stream holds one event and one instance of each stream module, hence its own SONIC client per
// module (docs/reference/cmssw-sonic.md §1, §3.1). An inference module's requests go through the stream's
// RequestFlow; when the module gives up on the servers, the stream falls back to the CPU or the job
// ends as failed, as the module's on_failure says.
//
// A single-threaded job is one stream on its one core (JobThreads null). A stream of a job with
// threads holds one of the job's threads while it computes or waits in a blocking call, and frees it
// while an external_work module's requests are in flight (ExternalWork, §2).
//
// A workload with a module graph (always threaded) runs each event through EventGraph instead of
// the chain: each inference module then has a request flow (and inbox) of its own, for their calls
// to overlap.
#include <memory>
#include <vector>

#include <simgrid/s4u.hpp>

#include "models/scenario/scenario.hpp"
#include "models/workload/rng.hpp"
#include "sim/client/event_graph.hpp"
#include "sim/client/job_context.hpp"
#include "sim/client/job_threads.hpp"
#include "sim/client/request_flow.hpp"

namespace sonicsim::sim {

class EventStream {
 public:
  // `run`: 0 for the first submission of the job, n for its n-th resubmission. `threads`: the job's
  // threads (null: the stream has its core to itself); it must outlive the stream.
  EventStream(const JobContext& context, int job, int stream, int run, simgrid::s4u::Host* host,
              JobThreads* threads = nullptr);

  // Runs event `event` through the module chain; false when the job failed during it. `on_cpu`:
  // per module, whether the job runs it on its CPU for the rest of the job (shared by its streams).
  bool run_event(int event, std::vector<bool>& on_cpu);
  // Another stream failed the job: the stream's modules under way stop, and what it still waits
  // for is cancelled.
  void cancel_requests();
  // The job ends: what is still under way belongs to abandoned requests and stops.
  void end_of_job();

 private:
  enum class ModuleOutcome { Done, FellBack, JobFailed };

  // Runs module `m` of the event, holding a thread of the job where it has threads.
  ModuleOutcome run_module(std::size_t m, int event, std::vector<bool>& on_cpu, EventRecord& record, RequestFlow& flow,
                           RequestFlow::PartElements& part_elements);
  bool run_graph_event(int event, std::vector<bool>& on_cpu);
  // Counts the event as started and opens its record at the current time.
  EventRecord begin_event(int event);
  // Runs `seconds` of reference-CPU time on the stream's core; returns the wall time it took.
  double compute(double reference_seconds);
  ModuleOutcome run_requests(const InferenceModule& module, int module_index, int event, int items, EventRecord& record,
                             RequestFlow& flow, const RequestFlow::PartElements& part_elements);
  void draw_part_elements(const InferenceModule& module, int items, RequestFlow::PartElements& part_elements);

  JobContext context_;
  int job_;
  int stream_;
  JobThreads* threads_;
  simgrid::s4u::Host* host_;
  std::string name_;
  Rng rng_;
  std::shared_ptr<Rng> balance_rng_;
  // Kept between events so that drawing allocates nothing once the buffer has grown.
  RequestFlow::PartElements part_elements_;
  RequestFlow requests_;
  // With a module graph: per inference module, its request flow and drawn elements; flow_of_ gives
  // each module's index in them (-1 for a CPU module).
  std::vector<int> flow_of_;
  std::vector<RequestFlow> module_flows_;
  std::vector<RequestFlow::PartElements> module_parts_;
  // Made when the first event starts, by the actor that runs the stream (Actor::create copies the stream).
  std::shared_ptr<EventGraph> graph_;
};

}  // namespace sonicsim::sim
