// The invariants checked at the end of every run (analysis/invariants.hpp): each fires, with its
// number, on records that break it and only it; those the recorder checks during the run are in
// tests/sim/test_recorder_invariants.cpp.
#include <doctest/doctest.h>

#include <string>

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

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

}  // namespace

TEST_CASE("the catalogue numbers its invariants from 1, and a violation names its number and statement") {
  CHECK(static_cast<int>(kInvariants[0].invariant) == 1);
  CHECK(invariant_broken(Invariant::EventIsSumOfModules, "event 3 of job 1 takes 2 s") ==
        "INV-4 (an event takes the sum of its modules' times and its waits for a thread): event 3 of job 1 takes 2 s");
}

TEST_CASE("a consistent run breaks no invariant") { CHECK(first_invariant_violation(consistent(), false).empty()); }

TEST_CASE("INV-1: requests are conserved: sent = completed + rejected + failed + in flight") {
  SimulationResults r = consistent();
  r.requests_sent = 2;
  CHECK(starts_with(first_invariant_violation(r, false), "INV-1 ("));
  CHECK(first_invariant_violation(r, false).find("requests sent (2)") != std::string::npos);
}

TEST_CASE("INV-1 counts the failures section's failed requests; a run without the section has none") {
  SimulationResults r = consistent();  // 1 completed request
  r.requests_sent = 1 + 2 + 3 + 1;
  CHECK(starts_with(first_invariant_violation(r, false), "INV-1 ("));  // no section: 6 requests unaccounted for
  r.failures = FailureCounts{};
  r.failures->unavailable = 2;
  r.failures->cancelled = 3;
  r.failures->retried = 1;  // an attempt tried again is no request of its own: 1 request still unaccounted for
  CHECK(starts_with(first_invariant_violation(r, false), "INV-1 ("));
  r.failures->deadline_exceeded = 1;
  CHECK(first_invariant_violation(r, false).empty());
}

TEST_CASE("INV-2: a run that ends with its jobs leaves nothing in flight; a duration-limited one may") {
  SimulationResults r = consistent();
  r.requests_sent = 2;
  r.requests_in_flight_at_end = 1;
  CHECK(starts_with(first_invariant_violation(r, false), "INV-2 ("));
  CHECK(first_invariant_violation(r, false).find("1 requests unanswered") != std::string::npos);
  CHECK(first_invariant_violation(r, true).empty());
}

TEST_CASE("INV-3: an event ends no earlier than it starts") {
  SimulationResults r = consistent();
  r.events[0].end_s = r.events[0].start_s - 1;
  CHECK(starts_with(first_invariant_violation(r, false), "INV-3 ("));
}

TEST_CASE("INV-4: an event takes the sum of its modules' times") {
  SimulationResults r = consistent();
  r.events[0].end_s += 1e-6;
  CHECK(starts_with(first_invariant_violation(r, false), "INV-4 ("));
  r.events[0].end_s = 3.75 + 1e-12;  // rounding of a sum of a few doubles is allowed
  CHECK(first_invariant_violation(r, false).empty());
  r.events[0].end_s += 0.5;  // a stream of a job with threads waited that long for a thread
  r.events[0].thread_wait_s = 0.5;
  CHECK(first_invariant_violation(r, false).empty());
}

TEST_CASE("INV-5: an event has no more rejected requests than requests") {
  SimulationResults r = consistent();
  r.events[0].rejected_requests = 2;
  CHECK(starts_with(first_invariant_violation(r, false), "INV-5 ("));
}

TEST_CASE("INV-6: the events count no more answered requests than were answered") {
  SimulationResults r = consistent();
  r.events[0].requests = 2;
  CHECK(starts_with(first_invariant_violation(r, false), "INV-6 ("));
}

TEST_CASE("INV-7: a request recorded as answered has an outcome") {
  SimulationResults r = consistent();
  r.requests[0].status = RequestStatus::InFlight;
  CHECK(starts_with(first_invariant_violation(r, false), "INV-7 ("));
}

TEST_CASE("INV-8: no answer before its request was sent") {
  SimulationResults r = consistent();
  r.requests[0].received_s = 3.4;
  CHECK(starts_with(first_invariant_violation(r, false), "INV-8 ("));
}

TEST_CASE("INV-9: a request fails with a cause, and has one only if it failed") {
  SimulationResults r = consistent();
  r.requests[0].failure = FailureCause::Unavailable;  // completed, yet with a cause
  CHECK(starts_with(first_invariant_violation(r, false), "INV-9 ("));
}

TEST_CASE("INV-10: a completed request's timestamps follow its path; a rejection skips its later steps") {
  SimulationResults r = consistent();
  r.requests[0].exec_start_s = 3.5;  // before it was enqueued
  CHECK(starts_with(first_invariant_violation(r, false), "INV-10 ("));
  r.requests[0].status = RequestStatus::Rejected;
  r.requests_completed = 0;
  r.requests_rejected = 1;
  CHECK(first_invariant_violation(r, false).empty());
}
