#pragma once
// Whether a run can answer a planning question. A run whose jobs failed, that ended before its
// workload reached its load, or that shows no steady state measures something other than the farm
// at the load asked about: its per-event time is no answer, however precise. `plan` marks such a
// probe and never takes it as within (or past) the tolerance; `run` and `sweep` say so.
#include <string>
#include <vector>

#include "analysis/summary/summary.hpp"

namespace sonicsim {

// Why the run is no answer, one reason each ("800 of 800 job runs failed ..."); empty when it is one.
std::vector<std::string> unsound_reasons(const Summary& summary);

// The reasons on one line, "; " between them.
std::string joined_reasons(const std::vector<std::string>& reasons);

}  // namespace sonicsim
