#pragma once
// A request while it is in the system: its record (timestamps filled in as it progresses) and
// where its response goes.
#include <simgrid/s4u.hpp>

#include "analysis/records.hpp"

namespace sonicsim::sim {

struct InFlightRequest {
  RequestRecord record;
  simgrid::s4u::Host* client = nullptr;
  simgrid::s4u::Mailbox* reply_to = nullptr;
  int priority = 0;      // Triton request priority (0: the model's default level)
  double timeout_s = 0;  // Triton request timeout parameter (0: none)
  bool answered = false;  // its response (or rejection) reached the client
};

}  // namespace sonicsim::sim
