#pragma once
// The SimGrid engine with the scenario's network model and actor stack size (one per process).
#include <cstdint>
#include <memory>

#include <simgrid/s4u.hpp>

#include "models/scenario/scenario.hpp"

namespace sonicsim::sim {

std::unique_ptr<simgrid::s4u::Engine> make_engine(const SimulationOptions& options);

// Every actor's stack has a guard page below it that catches a stack overflow; each costs the
// process memory mappings, of which Linux allows vm.max_map_count (65530 by default, about 32,000
// actors). A run with more actors than that allows goes without guard pages (SimGrid's
// contexts/guard-size 0), and says so on stderr. Call before creating the actors.
void configure_stack_guards(std::int64_t actors);

// Whether the last run of the engine made by make_engine stopped because SimGrid found a deadlock:
// actors waiting for something that can never happen. SimGrid then kills them and returns as if
// the run had ended; the caller must report it as an error.
bool engine_deadlocked();

}  // namespace sonicsim::sim
