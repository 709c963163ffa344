#pragma once
// Test helpers for scenarios: a small valid scenario to modify, its parse, and the error a parse gives.
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "models/scenario/scenario.hpp"

namespace sonicsim::test {

// One worker node with one core, one server with one GPU, exact network (CM02, no TCP window),
// one job, one event, one CPU module and one inference module. Tests change what they need.
nlohmann::json base_scenario();
// base_scenario() with a perf_analyzer `load` in place of its workload.
nlohmann::json perf_scenario(nlohmann::json load);

// A point-cloud model on 8 single-core nodes, one job each: per item, 8 features for each of a
// variable number of points (4 bytes each) and a 2-float header; 3 scores out. tau = 1 ms + 10 us per
// element (point) in the batch. `ragged`: allow_ragged_batch, else padded batches.
nlohmann::json point_cloud_scenario(bool ragged);

// The same scenario with its accelerators named the device way ("device", "devices_per_server",
// "instances_per_device") instead of the GPU way.
nlohmann::json with_device_names(nlohmann::json d);

Scenario parse(const nlohmann::json& document);

// The message of the InputError that `f` throws, or "(no error)".
std::string input_error_of(const std::function<void()>& f);

}  // namespace sonicsim::test
