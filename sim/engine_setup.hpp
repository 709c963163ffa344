#pragma once
// The SimGrid engine with the scenario's network model and actor stack size (one per process).
#include <memory>

#include <simgrid/s4u.hpp>

#include "models/scenario.hpp"

namespace sonicsim::sim {

std::unique_ptr<simgrid::s4u::Engine> make_engine(const SimulationOptions& options);

}  // namespace sonicsim::sim
