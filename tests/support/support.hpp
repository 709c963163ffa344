#pragma once
// Test helpers: a small valid scenario to modify, and simulate() in a child process (SimGrid allows
// one engine per process).
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/records.hpp"
#include "models/scenario/scenario.hpp"

namespace sonicsim::test {

// One worker node with one core, one server with one GPU, exact network (CM02, no TCP window),
// one job, one event, one CPU module and one inference module. Tests change what they need.
nlohmann::json base_scenario();

Scenario parse(const nlohmann::json& document);

// The message of the InputError that `f` throws, or "(no error)".
std::string input_error_of(const std::function<void()>& f);

// Runs simulate() in a forked child and returns its results.
SimulationResults simulate_isolated(const Scenario& scenario);

}  // namespace sonicsim::test
