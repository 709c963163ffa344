#pragma once
// simulate() in a child process (SimGrid allows one engine per process), for the simulation tests.
#include "analysis/records.hpp"
#include "models/scenario/scenario.hpp"
#include "tests/support/scenario_support.hpp"

namespace sonicsim::test {

// Runs simulate() in a forked child and returns its results.
SimulationResults simulate_isolated(const Scenario& scenario);

}  // namespace sonicsim::test
