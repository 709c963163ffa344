#include "analysis/invariants.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>

namespace sonicsim {
namespace {

// Sums of a few doubles, each rounded: equal within a relative 1e-9 (and 1 ns absolute).
bool nearly_equal(double a, double b) { return std::abs(a - b) <= 1e-9 + 1e-9 * std::max(std::abs(a), std::abs(b)); }

std::string request_path_violation(const RequestRecord& q) {
  const std::string id = "request " + std::to_string(q.id);
  if (q.status == RequestStatus::InFlight)
    return invariant_broken(Invariant::RequestHasOutcome, id + " is recorded as answered but has no outcome");
  if (q.received_s < q.sent_s)
    return invariant_broken(Invariant::AnswerAfterSend, id + " was answered before it was sent");
  if ((q.status == RequestStatus::Failed) != (q.failure != FailureCause::None))
    return invariant_broken(Invariant::FailureHasCause,
                            id + " has a failure cause but did not fail, or failed without one");
  const double path[] = {q.sent_s,     q.arrived_s,   q.enqueued_s, q.exec_start_s,
                         q.exec_end_s, q.responded_s, q.received_s};
  if (q.status == RequestStatus::Completed && !std::is_sorted(std::begin(path), std::end(path)))
    return invariant_broken(Invariant::PathInOrder, id + "'s timestamps do not follow its path");
  return "";
}

std::string event_violation(const EventRecord& e) {
  const std::string id = "event " + std::to_string(e.event) + " of job " + std::to_string(e.job);
  if (!(e.end_s >= e.start_s)) return invariant_broken(Invariant::EventForward, id + " ends before it starts");
  const double modules = e.cpu_s + e.preprocess_s + e.fallback_s + e.inference_s + e.thread_wait_s;
  if (!nearly_equal(e.time_s(), modules))
    return invariant_broken(Invariant::EventIsSumOfModules, id + " takes " + std::to_string(e.time_s()) +
                                                                " s, not the sum of its modules' times (" +
                                                                std::to_string(modules) + " s)");
  if (e.rejected_requests > e.requests)
    return invariant_broken(Invariant::EventRejectedAtMostSent, id + " has more rejected requests than requests");
  return "";
}

// The catalogue lists INV-n at index n - 1.
constexpr bool catalogue_in_order() {
  for (std::size_t i = 0; i < std::size(kInvariants); ++i)
    if (static_cast<std::size_t>(kInvariants[i].invariant) != i + 1) return false;
  return true;
}
static_assert(catalogue_in_order());

}  // namespace

std::string invariant_broken(Invariant invariant, const std::string& detail) {
  const int number = static_cast<int>(invariant);
  return "INV-" + std::to_string(number) + " (" + std::string(kInvariants[number - 1].statement) + "): " + detail;
}

std::string first_invariant_violation(const SimulationResults& r, bool duration_limited) {
  if (r.requests_completed + r.requests_rejected + r.requests_failed() + r.requests_in_flight_at_end !=
          r.requests_sent ||
      r.requests_in_flight_at_end < 0)
    return invariant_broken(Invariant::RequestsConserved,
                            "requests sent (" + std::to_string(r.requests_sent) + ") are not those completed (" +
                                std::to_string(r.requests_completed) + "), rejected (" +
                                std::to_string(r.requests_rejected) + "), failed (" +
                                std::to_string(r.requests_failed()) + ") and in flight (" +
                                std::to_string(r.requests_in_flight_at_end) + ")");
  if (!duration_limited && (r.requests_in_flight_at_end != 0 || r.events_incomplete != 0))
    return invariant_broken(Invariant::NothingLeftBehind,
                            std::to_string(r.requests_in_flight_at_end) + " requests unanswered and " +
                                std::to_string(r.events_incomplete) + " events unfinished");
  std::int64_t requests_in_events = 0;
  for (const EventRecord& e : r.events) {
    if (const std::string v = event_violation(e); !v.empty()) return v;
    requests_in_events += e.requests;
  }
  if (requests_in_events > r.requests_completed + r.requests_rejected + r.requests_failed())
    return invariant_broken(Invariant::EventsCountAnswered, "events count " + std::to_string(requests_in_events) +
                                                                " answered requests, more than were answered");
  for (const RequestRecord& q : r.requests)
    if (const std::string v = request_path_violation(q); !v.empty()) return v;
  return "";
}

}  // namespace sonicsim
