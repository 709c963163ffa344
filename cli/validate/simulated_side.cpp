#include "cli/validate/simulated_side.hpp"

#include <boost/program_options/errors.hpp>

#include "analysis/outputs/perf_report.hpp"
#include "analysis/summary/summary.hpp"
#include "analysis/validation/job_throughput.hpp"
#include "cli/processes/isolated_run.hpp"
#include "cli/simulation_progress.hpp"
#include "models/scenario/reader/scenario_reader.hpp"
#include "sim/perf_simulation.hpp"
#include "sim/simulation.hpp"

namespace sonicsim::cli {
namespace po = boost::program_options;
using nlohmann::json;

namespace {

std::optional<double> optional_number(const json& v) {
  return v.is_null() ? std::nullopt : std::optional<double>(v.get<double>());
}

json optional_json(const std::optional<double>& x) { return x ? json(*x) : json(); }

}  // namespace

// The child sends every event (job, start, end), every job's events per second, Triton's totals
// and the timeseries as JSON through its pipe.
SimulatedSide simulate_side(const std::string& path, const Overrides& overrides) {
  Overrides o = overrides;
  o.emplace_back("/simulation/outputs", "[]");
  const Scenario scenario = load_scenario(path, o);
  if (scenario.perf_analyzer)
    throw po::error("validate compares grid-job workloads with site logs; this is a perf_analyzer load");
  const json sim = json::parse(run_isolated([&] {
    SimulationProgressLine progress(stderr_is_terminal());
    const SimulationResults results = simulate(scenario, progress.observer());
    progress.clear();
    json events = json::array();
    for (const EventRecord& e : results.events)
      if (e.start_s >= results.header.warmup_s) events.push_back({e.job, e.start_s, e.end_s});
    const Summary summary = summarize(results);
    double success = 0, inferences = 0, executions = 0, queue_ns = 0;
    for (const TritonServerStatistics& server : summary.triton)
      for (const TritonModelStatistics& t : server.models) {
        success += static_cast<double>(t.success.count);
        inferences += static_cast<double>(t.inference_count);
        executions += static_cast<double>(t.execution_count);
        queue_ns += static_cast<double>(t.queue.ns);
      }
    json timeseries = json::array();
    if (results.scrapes)
      for (const TimeseriesRow& r : results.scrapes->timeseries)
        timeseries.push_back({r.t_s, r.ready, optional_json(r.metric), optional_json(r.requests_per_s),
                              optional_json(r.queue_ms), optional_json(r.gpu_utilization), r.jobs_running});
    return json{{"events", events},
                {"timeseries", timeseries},
                {"job_throughputs", validation::job_throughputs(results.jobs)},
                {"end_s", results.end_s},
                {"triton", {success, inferences, executions, queue_ns}},
                {"gpu_utilization", summary.gpu_utilization}}
        .dump();
  }));
  SimulatedSide side;
  for (const auto& e : sim["events"]) side.events.push_back({std::to_string(e[0].get<int>()), 0, e[1], e[2], "", 0});
  for (const auto& r : sim["timeseries"]) {
    TimeseriesRow row;
    row.t_s = r[0], row.ready = r[1], row.metric = optional_number(r[2]), row.requests_per_s = optional_number(r[3]);
    row.queue_ms = optional_number(r[4]), row.gpu_utilization = optional_number(r[5]), row.jobs_running = r[6];
    side.timeseries.push_back(row);
  }
  side.job_throughputs = sim["job_throughputs"].get<std::vector<double>>();
  side.end_s = sim["end_s"];
  const json& t = sim["triton"];
  side.successes = t[0], side.inferences = t[1], side.executions = t[2], side.queue_ns = t[3];
  side.gpu_utilization = sim["gpu_utilization"];
  return side;
}

json simulate_perf_levels(const std::string& path, const Overrides& overrides) {
  const Scenario scenario = load_scenario(path, overrides);
  if (!scenario.perf_analyzer) throw po::error("perf_analyzer logs need a scenario with a \"perf_analyzer\" load");
  json levels = json::array();
  for (std::size_t level = 0; level < scenario.perf_analyzer->levels.size(); ++level)
    levels.push_back(json::parse(run_isolated([&] {
      const PerfMeasurement m = simulate_perf_level(scenario, level);
      std::vector<double> latencies;
      for (std::int64_t ns : m.latencies_ns) latencies.push_back(static_cast<double>(ns) * 1e-9);
      return json{{"level", m.level},
                  {"row", perf_row(m)},
                  {"latencies_s", latencies},
                  {"no_response", no_response_error(scenario, m.level)}}
          .dump();
    })));
  return levels;
}

}  // namespace sonicsim::cli
