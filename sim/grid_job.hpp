#pragma once
// A grid job: one core of a worker node, running the scenario's module chain event after event.
#include <memory>
#include <optional>
#include <vector>

#include <simgrid/s4u.hpp>

#include "models/rng.hpp"
#include "models/scenario.hpp"
#include "sim/inference_server.hpp"
#include "sim/load_balancer.hpp"
#include "sim/recorder.hpp"

namespace sonicsim::sim {

struct JobContext {
  const Scenario& scenario;
  std::vector<std::unique_ptr<InferenceServer>>& servers;
  RequestBalancer& balancer;
  Recorder& recorder;
};

class GridJob {
 public:
  // `events`: how many events the job runs; unset, it runs until the end of a duration-limited run.
  GridJob(int index, simgrid::s4u::Host* host, double start_s, std::optional<int> events, JobContext context);

  void operator()();  // the actor's body

 private:
  // Runs `seconds` of reference-CPU time on this job's core; returns the wall time it took.
  double compute(double reference_seconds);
  void run_event(int event);
  void run_requests(const InferenceModule& module, int module_index, int event, EventRecord& record);

  int index_;
  simgrid::s4u::Host* host_;
  double start_s_;
  std::optional<int> events_;
  JobContext context_;
  Rng rng_;
  // The job's server choices, for policies that draw (null otherwise: an Rng is 2.5 KB). Shared
  // rather than unique because Actor::create copies the job.
  std::shared_ptr<Rng> balance_rng_;
  simgrid::s4u::Mailbox* inbox_;

  // run_requests' bookkeeping, kept between events so that requests allocate nothing.
  struct Pending {
    bool upload;
    InFlightRequest* request;  // an upload's request
    std::size_t slot;          // a receive's slot in received_
  };
  std::vector<simgrid::s4u::ActivityPtr> activities_;  // what wait_any watches, in posting order
  std::vector<Pending> pending_;                       // parallel to activities_
  std::vector<InFlightRequest*> received_;
  std::vector<std::size_t> free_slots_;
};

}  // namespace sonicsim::sim
