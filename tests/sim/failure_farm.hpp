#pragma once
// The farm of the failure, proxy, admission and resubmission tests: 4 jobs, one per node, each
// event 10 ms of CPU then one request of one item; two servers s0 and s1 with one GPU, one instance and Triton's
// default scheduler, so each serves one request at a time, in 1 ms. The network is negligible (1 ns latencies, 100
// Gbps, 100-byte messages: nanoseconds against milliseconds). Under per_job, jobs 0 and 2 talk to s0 and jobs 1 and 3
// to s1. Jobs 0 and 2 send together at 10 ms; s0 serves job 0 over [10, 11] ms and job 2 over [11, 12] ms; from then on
// each of the two repeats every 11 ms: job 0's event k runs its request over [11k + 10, 11k + 11] ms, job 2's over [11k
// + 11, 11k + 12] ms.
//
// s0 dies at T = 505.5 ms: job 0's event 45 is on the GPU (its request fails there), job 2 is in the
// CPU step of its event 45 and sends it at 506 ms, to a dead s0. Both jobs completed 45 events.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/records.hpp"

namespace sonicsim::test {

inline constexpr double kFailAt = 0.5055;
inline constexpr int kEventsBefore = 45;  // events jobs 0 and 2 complete before s0 dies

// The farm above, with `events_per_job` events per job and the load-balancing `policy`.
nlohmann::json failure_farm(int events_per_job, const std::string& policy);
// Its inference module.
nlohmann::json& ml_module(nlohmann::json& d);
std::int64_t count_requests(const SimulationResults& r, RequestStatus status, int server);
double last_event_end(const SimulationResults& r, int job);
// Every request sent is answered, and nothing is left in flight.
void check_conservation(const SimulationResults& r);

}  // namespace sonicsim::test
