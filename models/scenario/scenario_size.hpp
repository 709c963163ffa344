#pragma once
// What a scenario asks the simulator to build and do, against the bounds of models/io/limits.hpp:
// SimGrid actors (each with a stack of its own), events and requests, and what every instance
// needs to be able to run (a non-negative kernel time at every batch size it can be given).
#include <cstdint>

#include "models/io/json/json_reader.hpp"
#include "models/scenario/scenario.hpp"

namespace sonicsim {

// Instances of `model` on one server of `group` that take work from the scheduler.
std::int64_t active_instances(const ModelSpec& model, const ServerGroup& group);

// Grid jobs that can run at once: all of them on a static farm; from a batch system, at most as many
// as the nodes hold (Scenario::job_slots).
std::int64_t concurrent_jobs(const Scenario& scenario);

// The most events a run with events_per_job can simulate (every job at its largest count).
std::int64_t most_events_run(const Workload& workload);

// The actors a run creates: grid jobs or perf_analyzer clients, and per server its frontend
// threads, instances and one batcher per model.
std::int64_t simulated_actors(const Scenario& scenario);

// Throws an InputError at the JSON pointer of the first thing too large, or that cannot run.
void check_scenario_size(const JsonNode& root, const Scenario& scenario);

}  // namespace sonicsim
