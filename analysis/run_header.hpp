#pragma once
// The run's header (records.hpp, RunHeader): every fact of the scenario its outputs need, in one place.
#include "analysis/records.hpp"
#include "models/scenario/scenario.hpp"

namespace sonicsim {

RunHeader run_header(const Scenario& scenario);

}  // namespace sonicsim
