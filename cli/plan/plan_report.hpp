#pragma once
// What the plans print about their runs: a probe's line, what saturated first, the speed-up against
// CPU only, and the cost per event at the prices of the scenario.
#include <optional>
#include <string>

#include "analysis/knee_search.hpp"
#include "cli/plan/plan_probes.hpp"

namespace sonicsim::cli {

// One job alone, the baseline every probe is judged against, with its line printed; unset, with the
// reason printed, where it gives no sound run (run_soundness.hpp): then nothing can be planned.
std::optional<Summary> one_job_alone(const PlanContext& plan);

// What a probe's per-event time measures: the workload at its full load from its last submission,
// whole load cycles of a dynamic farm, or all of its events where it drained first.
std::string describe_measurement(const Summary& s);

// "  400 jobs: 180.074 s per event ± 0.312 (+47.5%), GPU 0.94, busiest link 0.09 <- past the knee"
std::string probe_line(const std::string& what, const Summary& s, const KneeCriteria& criteria,
                       const DeviceWords& words);

// What gives out first past the knee, judged by what grew against one job alone: a link busier than
// the threshold or than the devices, the devices, the frontends' handler threads, the batcher queue
// with the devices not busy, or else the network's latency and sharing.
std::string saturated_resource(const Summary& s, const Summary& alone, const KneeCriteria& criteria);

// Every inference module on the worker's CPU (their cpu_fallback times, servers removed): one job
// alone's per-event time, and the line that compares it with `baseline_s`; 0 where a module has no
// cpu_fallback time.
double cpu_only_event_s(const PlanContext& plan, double baseline_s);

// Cost per event with `jobs` jobs on `devices` devices at `event_s` per event, and on CPU only;
// with a target throughput, the cheapest of the two scaled to meet it (jobs and devices in the
// planned ratio, links assumed to grow with them).
void print_costs(const Costs& costs, int jobs, int devices, double event_s, double cpu_only_event_s,
                 const char* device);

}  // namespace sonicsim::cli
