// The invariants checked after every run catch what they promise to.
#include <doctest/doctest.h>

#include "analysis/invariants.hpp"

using namespace sonicsim;

namespace {

// One completed event of one completed request, consistent in every respect.
SimulationResults consistent() {
  SimulationResults r;
  EventRecord e;
  e.start_s = 1.0;
  e.cpu_s = 2.0;
  e.preprocess_s = 0.5;
  e.inference_s = 0.25;
  e.end_s = 3.75;
  e.requests = 1;
  r.events.push_back(e);
  RequestRecord q;
  q.status = RequestStatus::Completed;
  q.sent_s = 3.5, q.arrived_s = 3.55, q.enqueued_s = 3.55, q.exec_start_s = 3.6, q.exec_end_s = 3.7;
  q.responded_s = 3.7, q.received_s = 3.75;
  r.requests.push_back(q);
  r.requests_sent = r.requests_completed = 1;
  return r;
}

}  // namespace

TEST_CASE("a consistent run breaks no invariant") { CHECK(first_invariant_violation(consistent(), false).empty()); }

TEST_CASE("requests are conserved: sent = completed + rejected + in flight") {
  SimulationResults r = consistent();
  r.requests_sent = 2;
  CHECK(first_invariant_violation(r, false).find("requests sent (2)") == 0);
}

TEST_CASE("a run that ends with its jobs leaves nothing in flight; a duration-limited one may") {
  SimulationResults r = consistent();
  r.requests_sent = 2;
  r.requests_in_flight_at_end = 1;
  CHECK(first_invariant_violation(r, false).find("left 1 requests unanswered") != std::string::npos);
  CHECK(first_invariant_violation(r, true).empty());
}

TEST_CASE("an event takes the sum of its modules' times") {
  SimulationResults r = consistent();
  r.events[0].end_s += 1e-6;
  CHECK(first_invariant_violation(r, false).find("not the sum of its modules' times") != std::string::npos);
  r.events[0].end_s = 3.75 + 1e-12;  // rounding of a sum of a few doubles is allowed
  CHECK(first_invariant_violation(r, false).empty());
}

TEST_CASE("no answer before its request was sent; a completed request's timestamps follow its path") {
  SimulationResults r = consistent();
  r.requests[0].received_s = 3.4;
  CHECK(first_invariant_violation(r, false).find("answered before it was sent") != std::string::npos);
  r = consistent();
  r.requests[0].exec_start_s = 3.5;  // before it was enqueued
  CHECK(first_invariant_violation(r, false).find("do not follow its path") != std::string::npos);
  r.requests[0].status = RequestStatus::Rejected;  // a rejection skips the path's later steps
  CHECK(first_invariant_violation(r, false).empty());
}
