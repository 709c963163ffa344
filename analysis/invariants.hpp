#pragma once
// What must hold in every run, whatever the scenario: the catalogue below, numbered INV-1 and on.
// A violation is a defect of sonicsim, never a result: the run ends with an internal error whose
// message starts with the invariant's number (tests/analysis/test_invariants.cpp and
// tests/sim/test_recorder_invariants.cpp make each one fire). Most are checked on the records at the
// end of the run (first_invariant_violation); those that the records cannot show afterwards are
// checked by sim/recorder.cpp while the run goes on.
#include <string>
#include <string_view>

#include "analysis/records.hpp"

namespace sonicsim {

enum class Invariant {
  RequestsConserved = 1,    // at the end
  NothingLeftBehind,        // at the end
  EventForward,             // at the end
  EventIsSumOfModules,      // at the end
  EventRejectedAtMostSent,  // at the end
  EventsCountAnswered,      // at the end
  RequestHasOutcome,        // at the end
  AnswerAfterSend,          // at the end
  FailureHasCause,          // at the end, and by the recorder as each request is answered
  PathInOrder,              // at the end
  AnsweredOnce,             // by the recorder
  JobsSubmittedInOrder,     // by the recorder
  BatchWithinMaxSize,       // by the recorder
};

struct InvariantStatement {
  Invariant invariant;
  std::string_view statement;
};

inline constexpr InvariantStatement kInvariants[] = {
    {Invariant::RequestsConserved,
     "every request sent is completed, rejected, failed, or in flight when the run stops"},
    {Invariant::NothingLeftBehind,
     "a run that ends when its jobs do leaves no request unanswered and no event unfinished"},
    {Invariant::EventForward, "an event ends no earlier than it starts"},
    {Invariant::EventIsSumOfModules, "an event takes the sum of its modules' times and its waits for a thread"},
    {Invariant::EventRejectedAtMostSent, "an event has no more rejected requests than requests"},
    {Invariant::EventsCountAnswered, "the events count no more answered requests than were answered"},
    {Invariant::RequestHasOutcome, "a request recorded as answered has an outcome"},
    {Invariant::AnswerAfterSend, "no request is answered before it was sent"},
    {Invariant::FailureHasCause, "a request fails with a cause, and has a cause only if it failed"},
    {Invariant::PathInOrder,
     "a completed request's timestamps follow its path: sent, arrived, enqueued, executed, responded, received"},
    {Invariant::AnsweredOnce, "each request is answered once"},
    {Invariant::JobsSubmittedInOrder, "a batch system's jobs are first submitted in job order"},
    {Invariant::BatchWithinMaxSize, "no batch holds more units than its model's max_batch_size"},
};

// "INV-4 (an event takes the sum of its modules' times): `detail`".
std::string invariant_broken(Invariant invariant, const std::string& detail);

// The first violation of the invariants checked at the end, described; empty if there is none.
// `duration_limited`: the run stopped at a set time, so requests and events may be cut off.
std::string first_invariant_violation(const SimulationResults& results, bool duration_limited);

}  // namespace sonicsim
