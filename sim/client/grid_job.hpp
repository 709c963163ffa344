#pragma once
// A single-threaded grid job: one core of a worker node, running the scenario's module chain event
// after event on its one stream (EventStream). Jobs with threads are ThreadedJob.
#include <optional>
#include <vector>

#include <simgrid/s4u.hpp>

#include "models/scenario/scenario.hpp"
#include "sim/client/event_stream.hpp"
#include "sim/client/job_context.hpp"

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
  int index_;
  double start_s_;
  std::optional<int> events_;
  JobContext context_;
  bool failed_ = false;
  std::vector<bool> on_cpu_;  // per module: fell back to the CPU for the rest of the job
  bool gated_ = false;        // the saturation gate refused the job: every module on the CPU
  EventStream stream_;
};

// Whether the job starts on the CPU for every inference module: the proxy refuses its connection or
// the saturation gate refuses it. Refused by the gate, the job runs every inference module on its
// CPU (CMSSW's TritonService skips the server and starts its local fallback for the whole job).
// The job's connection to the proxy comes first; refused, there is no RepositoryIndex call to gate.
inline bool refused_at_start(const JobContext& context) {
  return (context.proxy && !context.proxy->accept_connection()) || (context.gate && !context.gate->admit());
}

}  // namespace sonicsim::sim
