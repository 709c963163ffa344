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
#include <vector>

#include <simgrid/s4u.hpp>

#include "models/scenario/scenario.hpp"
#include "models/workload/rng.hpp"
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
  // Another stream failed the job: what this stream still waits for is cancelled.
  void cancel_requests() { requests_.cancel_live(); }
  // The job ends: what is still under way belongs to abandoned requests and stops.
  void end_of_job() { requests_.end_of_job(); }

 private:
  enum class ModuleOutcome { Done, FellBack, JobFailed };

  // Runs `seconds` of reference-CPU time on the stream's core; returns the wall time it took.
  double compute(double reference_seconds);
  ModuleOutcome run_requests(const InferenceModule& module, int module_index, int event, int items, EventRecord& record);
  void draw_part_elements(const InferenceModule& module, int items);

  JobContext context_;
  int job_;
  int stream_;
  JobThreads* threads_;
  Rng rng_;
  // Kept between events so that drawing allocates nothing once the buffer has grown.
  RequestFlow::PartElements part_elements_;
  RequestFlow requests_;
};

}  // namespace sonicsim::sim
