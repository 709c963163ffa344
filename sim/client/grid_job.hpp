#pragma once
// A grid job: one core of a worker node, running the scenario's module chain event after event.
// An inference module's requests go through its RequestFlow; when the module gives up on the
// servers, the job falls back to the CPU or ends as failed, as the module's on_failure says.
#include <optional>
#include <vector>

#include <simgrid/s4u.hpp>

#include "models/scenario/scenario.hpp"
#include "models/workload/rng.hpp"
#include "sim/client/job_context.hpp"
#include "sim/client/request_flow.hpp"

namespace sonicsim::sim {

class GridJob {
 public:
  // `events`: how many events the job runs; unset, it runs until the end of a duration-limited run.
  // `run`: 0 for the first submission of the job, n for its n-th resubmission.
  GridJob(int index, simgrid::s4u::Host* host, double start_s, std::optional<int> events, JobContext context,
          int run = 0);

  void operator()();  // the actor's body
  bool failed() const { return failed_; }

 private:
  enum class ModuleOutcome { Done, FellBack, JobFailed };

  // Runs `seconds` of reference-CPU time on this job's core; returns the wall time it took.
  double compute(double reference_seconds);
  bool run_event(int event);
  ModuleOutcome run_requests(const InferenceModule& module, int module_index, int event, int items, EventRecord& record);
  void draw_part_elements(const InferenceModule& module, int items);

  int index_;
  double start_s_;
  std::optional<int> events_;
  JobContext context_;
  Rng rng_;
  bool failed_ = false;
  std::vector<bool> on_cpu_;  // per module: fell back to the CPU for the rest of the job
  bool gated_ = false;        // the saturation gate refused the job: every module on the CPU
  // Kept between events so that drawing allocates nothing once the buffer has grown.
  RequestFlow::PartElements part_elements_;
  RequestFlow requests_;
};

}  // namespace sonicsim::sim
