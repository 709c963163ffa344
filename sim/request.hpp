#pragma once
// A request while it is in the system: its record (timestamps filled in as it progresses) and
// where its response goes.
#include <simgrid/s4u.hpp>

#include "analysis/records.hpp"

namespace sonicsim::sim {

struct InFlightRequest;

// Told, in maestro, when a request's upload on the upload fast path (sim/upload_fast_path.hpp) has
// ended, just before its server receives it.
class UploadWatcher {
 public:
  virtual void upload_ended(InFlightRequest* request) = 0;

 protected:
  ~UploadWatcher() = default;
};

struct InFlightRequest {
  RequestRecord record;
  simgrid::s4u::Host* client = nullptr;
  simgrid::s4u::Mailbox* reply_to = nullptr;      // where the server sends its answer: the client, or the proxy
  simgrid::s4u::Mailbox* client_inbox = nullptr;  // the client's mailbox
  int priority = 0;                               // Triton request priority (0: the model's default level)
  double timeout_s = 0;                           // Triton request timeout parameter (0: none)
  bool answered = false;                          // its response (or rejection) reached the client
  // Grid jobs: which request of the event this is an attempt at, and the attempts made so far.
  std::int64_t part = 0;
  int tries = 1;              // attempts on the current server, this one included
  bool failed_over = false;   // this attempt series is on a second server
  std::size_t live_slot = 0;  // its place among its job's live requests
  bool abandoned = false;     // the client stopped waiting (deadline, or its job failed): its answer is dropped
  // Models with a variable dim: the elements the request carries (padded ones included), what the
  // kernel's time depends on, and, for padded layouts, the shape Triton's batcher must match.
  std::int64_t elements = 0;
  std::int64_t shape = 0;
  // Its upload on the upload fast path, while under way (-1: none), and who wants to know its end.
  int fast_upload = -1;
  UploadWatcher* upload_watcher = nullptr;
  std::size_t watch_slot = 0;  // its place among the watcher's uploads
};

}  // namespace sonicsim::sim
