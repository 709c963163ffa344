#pragma once
// simulate() in a child process (SimGrid allows one engine per process), for the simulation tests.
#include <nlohmann/json.hpp>

#include "analysis/records.hpp"
#include "models/scenario/scenario.hpp"
#include "tests/support/scenario_support.hpp"

namespace sonicsim::test {

// base_scenario()'s route from a worker to the server: one-way latency (s) and its bottleneck, the
// 1 Gbps site uplink (bytes/s).
inline constexpr double kOneWayLatency = 10e-6 + 100e-6 + 1e-3 + 10e-6;
inline constexpr double kBottleneck = 1e9 / 8;
// base_scenario()'s kernel latency τ, s: 1 ms + 10 us per item.
inline double tau(double items) { return 1e-3 + 10e-6 * items; }
// Relative tolerance for simulated times: SimGrid solves sharing in floating point with a
// precision of 1e-9 (surf/precision), so exact closed forms agree to about that.
inline constexpr double kTimeEpsilon = 1e-8;

// Three jobs on three nodes, each sending one 100-item request at time 0 (no CPU time, no
// preprocessing): the uploads share the uplink equally and the requests arrive together.
nlohmann::json three_requests_at_once(nlohmann::json d);

// Runs simulate() in a forked child and returns its results.
SimulationResults simulate_isolated(const Scenario& scenario);

}  // namespace sonicsim::test
