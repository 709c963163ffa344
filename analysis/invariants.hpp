#pragma once
// What must hold at the end of every run, whatever the scenario: each request sent is answered
// exactly once (completed or rejected) or still in flight when a duration-limited run stops; no
// answer comes before its request was sent, and a request's timestamps follow its path; an
// event's time is the sum of its modules' times. Checked after every run: a violation is a
// defect of sonicsim, never a result.
#include <string>

#include "analysis/records.hpp"

namespace sonicsim {

// The first violation, described; empty if there is none. `duration_limited`: the run stopped at a
// set time, so requests and events may be cut off.
std::string first_invariant_violation(const SimulationResults& results, bool duration_limited);

}  // namespace sonicsim
