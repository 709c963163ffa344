#pragma once
// A grid job's inference requests, from the first attempt to the answer its module waits for. Each
// attempt goes to a server directly or through the proxy; the flow posts the transfers, the
// receives of the answers and the client's timers, and waits for them one at a time. When a request
// fails the flow behaves as the module's client settings say (allowed_tries, client_timeout,
// on_failure): it retries, fails over, or gives up on the servers. Requests the client stopped
// waiting for (deadline, cancellation) go on without it; what is left of them is dropped as it
// ends, or at the end of the job.
//
// A flow holds nothing of the job's event loop, only what its requests need (the job's identity,
// its inbox, activities and timers): a job runs a module's requests through it (run_module)
// between its own CPU work, and could hold several, each with its own inbox.
#include <cstdint>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

#include <simgrid/s4u.hpp>

#include "models/scenario/scenario.hpp"
#include "models/workload/rng.hpp"
#include "sim/client/job_context.hpp"

namespace sonicsim::sim {

class RequestFlow final : private UploadWatcher {
 public:
  // Per request of an event, for models with a variable dim: its elements and its padded shape.
  using PartElements = std::vector<std::pair<std::int64_t, std::int64_t>>;

  // `inbox`: where the answers arrive. `balance_rng`: the job's server choices, for policies that
  // draw (null otherwise: an Rng is 2.5 KB); shared because Actor::create copies the job.
  RequestFlow(const JobContext& context, int job, simgrid::s4u::Host* host, simgrid::s4u::Mailbox* inbox,
              std::shared_ptr<Rng> balance_rng);

  // Sends the event's requests for `module` with at most `in_flight` outstanding, and waits until
  // every one is answered or the module gives up. False: it gave up on the servers.
  bool run_module(const InferenceModule& module, int module_index, int event, int items,
                  const PartElements& part_elements, EventRecord& record);
  // The job failed (in another of its streams): the requests it waits for are cancelled.
  void cancel_live();
  // The job ends: what is still under way belongs to abandoned requests and stops.
  void end_of_job();

 private:
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
  void forget(InFlightRequest* request);                       // a request no longer live: its deadline goes
  void drop(InFlightRequest* request, bool on_way_to_server);  // an abandoned request's last stage ended
  void upload_ended(InFlightRequest* request) override;

  JobContext context_;
  int job_;
  simgrid::s4u::Host* host_;
  simgrid::s4u::Mailbox* inbox_;
  std::shared_ptr<Rng> balance_rng_;

  // The module being run: its requests, and the bookkeeping of the event's answers.
  struct Current {
    const InferenceModule* module = nullptr;
    int module_index = 0;
    int event = 0;
    int items = 0;  // this event's items for the module
    const PartElements* part_elements = nullptr;
    EventRecord* record = nullptr;
    std::int64_t resolved = 0;  // requests answered, or failed for good
    bool giving_up = false;
  } current_;

  // Kept between modules and events so that requests allocate nothing once the buffers have grown.
  // Activities of abandoned requests outlive the module that sent them.
  std::vector<simgrid::s4u::ActivityPtr> activities_;  // what wait_any watches, in posting order
  std::vector<Pending> pending_;                       // parallel to activities_
  std::deque<InFlightRequest*> received_;              // a deque: posted receives hold pointers into it as it grows
  std::vector<std::size_t> free_slots_;
  std::vector<InFlightRequest*> live_;  // sent, neither answered nor abandoned
  std::vector<Timer> timers_;
  std::vector<InFlightRequest*> fast_uploads_;  // uploads under way on the upload fast path
};

}  // namespace sonicsim::sim
