#pragma once
// The simulator's entry point. SimGrid allows one engine per process: call simulate() once per
// process (sweeps and tests run each simulation in its own process).
#include <string>

#include "analysis/records.hpp"
#include "models/scenario/scenario.hpp"
#include "sim/progress_observer.hpp"

namespace sonicsim {

// `observer`, where given, is called about every kProgressEveryS of wall time while the run goes on
// (progress_observer.hpp).
SimulationResults simulate(const Scenario& scenario, const ProgressObserver& observer = {});

// The SimGrid library this build runs on, e.g. "SimGrid 3.32.0".
std::string simulation_library_version();

}  // namespace sonicsim
