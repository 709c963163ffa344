#pragma once
// The simulator's entry point. SimGrid allows one engine per process: call simulate() once per
// process (sweeps and tests run each simulation in its own process).
#include "analysis/records.hpp"
#include "models/scenario/scenario.hpp"

namespace sonicsim {

SimulationResults simulate(const Scenario& scenario);

}  // namespace sonicsim
