#pragma once
// A grid job: one core of a worker node, running the scenario's module chain event after event.
// When a request fails it behaves as the module's client settings say (allowed_tries,
// client_timeout, on_failure): it retries, falls back to the CPU, fails over, or ends as failed.
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include <simgrid/s4u.hpp>

#include "models/scenario/scenario.hpp"
#include "models/workload/rng.hpp"
#include "sim/control/load_balancer.hpp"
#include "sim/control/proxy.hpp"
#include "sim/control/saturation_gate.hpp"
#include "sim/recorder.hpp"
#include "sim/server/inference_server.hpp"

namespace sonicsim::sim {

struct JobContext {
  const Scenario& scenario;
  std::vector<std::unique_ptr<InferenceServer>>& servers;
  RequestBalancer& balancer;
  Recorder& recorder;
  Proxy* proxy = nullptr;  // null: jobs talk to the servers directly
  SaturationGate* gate = nullptr;  // null: no saturation gate
};

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
  // Where a request stands while the job drives it; Answer: a receive posted for an answer.
  enum class Stage : std::uint8_t { ToProxy, AtProxy, ToServer, Answer };
  struct Pending {
    Stage stage;
    InFlightRequest* request;  // null for Answer
    std::size_t slot;          // Answer: its slot in received_
  };
  enum class TimerKind : std::uint8_t { Deadline, Connect, LocalError };
  struct Timer {
    double at;
    InFlightRequest* request;
    TimerKind kind;
  };

  // Runs `seconds` of reference-CPU time on this job's core; returns the wall time it took.
  double compute(double reference_seconds);
  bool run_event(int event);
  ModuleOutcome run_requests(const InferenceModule& module, int module_index, int event, int items, EventRecord& record);

  void send(std::int64_t part, int tries, bool failed_over, int server);
  void to_server(InFlightRequest* request, simgrid::s4u::Host* from);
  void post(Stage stage, InFlightRequest* request, simgrid::s4u::ActivityPtr activity, std::size_t slot = 0);
  void step();
  void completed(const Pending& pending);
  void at_proxy(InFlightRequest* request);
  void fire(const Timer& timer);
  void fail_locally(InFlightRequest* request, double delay_s);
  void answered(InFlightRequest* request);
  void attempt_failed(InFlightRequest* request);
  void give_up();
  void forget(InFlightRequest* request);  // a request no longer live: its deadline goes
  void drop(InFlightRequest* request, bool on_way_to_server);  // an abandoned request's last stage ended
  void end_of_job();

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
  bool failed_ = false;
  std::vector<bool> on_cpu_;  // per module: fell back to the CPU for the rest of the job
  bool gated_ = false;        // the saturation gate refused the job: every module on the CPU

  // The module being run: its requests, and the bookkeeping of the event's answers.
  struct Current {
    const InferenceModule* module = nullptr;
    int module_index = 0;
    int event = 0;
    int items = 0;  // this event's items for the module
    EventRecord* record = nullptr;
    std::int64_t resolved = 0;  // requests answered, or failed for good
    bool giving_up = false;
  } current_;

  // Kept between events so that requests allocate nothing once the buffers have grown. Activities
  // of abandoned requests outlive the module that sent them.
  std::vector<simgrid::s4u::ActivityPtr> activities_;  // what wait_any watches, in posting order
  std::vector<Pending> pending_;                       // parallel to activities_
  std::deque<InFlightRequest*> received_;  // a deque: posted receives hold pointers into it as it grows
  std::vector<std::size_t> free_slots_;
  std::vector<InFlightRequest*> live_;  // sent, neither answered nor abandoned
  std::vector<Timer> timers_;
  // Models with a variable dim: per request of the current event, its elements and its padded shape.
  std::vector<std::pair<std::int64_t, std::int64_t>> part_elements_;

  void draw_part_elements(const InferenceModule& module, int items);
};

}  // namespace sonicsim::sim
