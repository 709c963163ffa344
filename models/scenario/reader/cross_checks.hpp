#pragma once
// The checks between sections of a scenario, once each is read: the one place for a rule that
// needs more than one section (a served model and its latencies, a module and its model, the
// workload and the platform, the simulation options and what they apply to).
#include "models/io/json/json_reader.hpp"
#include "models/scenario/reader/model/kernel_latency_reader.hpp"
#include "models/scenario/scenario.hpp"

namespace sonicsim {

// Throws an InputError at the JSON pointer of the first rule broken. `root` is the scenario
// document that `scenario` was read from; `latency` what reading its kernel latencies found.
void check_across_sections(const JsonNode& root, const Scenario& scenario, const LatencyContext& latency);

}  // namespace sonicsim
