#include "cli/validate/side_comparison.hpp"

#include <cmath>
#include <iostream>
#include <map>
#include <stdexcept>

#include <boost/program_options/errors.hpp>

#include "analysis/outputs/perf_report.hpp"
#include "analysis/validation/job_throughput.hpp"
#include "analysis/validation/timeseries_comparison.hpp"
#include "models/io/input_error.hpp"
#include "models/io/message_text.hpp"
#include "models/io/text_format.hpp"

namespace sonicsim::cli {
namespace po = boost::program_options;
using nlohmann::json;
using namespace sonicsim::validation;

namespace {

std::vector<ValidationRow> compare_prometheus(const Logs& logs, const SimulatedSide& sim, const TimeOptions& times,
                                              const Tolerances& tolerances) {
  if (sim.timeseries.empty())
    throw po::error("Prometheus exports need a scenario that Prometheus scrapes (a saturation gate or an autoscaler)");
  double start = INFINITY;
  for (const MeasuredColumn& c : logs.columns)
    if (!c.t_s.empty()) start = std::min(start, c.t_s.front());
  std::vector<std::string> notes;
  auto rows = compare_timeseries(logs.columns, sim.timeseries, times.start_unix_s.value_or(start),
                                 times.load_steps_s.empty() ? load_steps(sim.timeseries) : times.load_steps_s,
                                 tolerances, &notes);
  for (const std::string& note : notes) std::cerr << "sonicsim: note: " << one_line(note) << "\n";
  return rows;
}

}  // namespace

std::string load_label(double load) { return printf_string("%g", load); }

std::vector<ValidationRow> compare_with_perf_levels(const Logs& logs, const json& levels,
                                                    const Tolerances& tolerances) {
  const auto simulated_level = [&](double load) -> const json& {
    for (const auto& l : levels)
      if (std::abs(l["level"].get<double>() - load) <= 1e-9 * load)  // a level with no response has nothing to compare
        return !l["latencies_s"].empty() ? l : throw InputError(l["no_response"].get<std::string>());
    throw po::error("the logs measured load " + load_label(load) +
                    ", which the scenario's perf_analyzer levels do not have");
  };
  std::vector<ValidationRow> rows;
  for (const auto& table : logs.perf_tables)
    for (const auto& measured : table.rows) {
      const json& sim = simulated_level(measured.load);
      const PerfRow row = sim["row"].get<PerfRow>();
      const std::string id = "perf_" + load_label(measured.load),
                        at = " at " + table.load_column + " " + load_label(measured.load);
      rows.push_back(compare_value(id + "_inferences_per_s", "inferences/s" + at, measured.inferences_per_s,
                                   row.inferences_per_s, tolerances));
      if (measured.p50_us)
        rows.push_back(compare_value(id + "_p50", "p50 latency (us)" + at, static_cast<double>(*measured.p50_us),
                                     static_cast<double>(row.p50_us), tolerances));
      if (measured.p99_us)
        rows.push_back(compare_value(id + "_p99", "p99 latency (us)" + at, static_cast<double>(*measured.p99_us),
                                     static_cast<double>(row.p99_us), tolerances));
    }
  for (const auto& experiment : logs.profile) {
    const json& sim = simulated_level(experiment.value);
    const auto latency_rows =
        compare_times("perf_" + load_label(experiment.value) + "_latency",
                      "latency at " + experiment.mode + " " + load_label(experiment.value), experiment.latencies_s,
                      sim["latencies_s"].get<std::vector<double>>(), tolerances);
    rows.insert(rows.end(), latency_rows.begin(), latency_rows.end());
  }
  return rows;
}

std::vector<ValidationRow> compare_with_run(const Logs& logs, SimulatedSide sim, const TimeOptions& times,
                                            const Tolerances& tolerances) {
  std::vector<ValidationRow> rows;
  std::vector<LoggedEvent>& simulated = sim.events;
  if (!logs.events.empty()) {
    // Compared at the logs' resolution: events.csv writes microseconds, and events that take the
    // same time in the simulation must take the same time in its log too.
    int decimals = 0;
    for (const auto& e : logs.events) decimals = std::max(decimals, e.decimals);
    for (auto& e : simulated)
      e.start_s = at_resolution(e.start_s, decimals), e.end_s = at_resolution(e.end_s, decimals);
    std::vector<double> measured_times, simulated_times;
    for (const auto& e : logs.events) measured_times.push_back(e.time_s());
    for (const auto& e : simulated) simulated_times.push_back(e.time_s());
    if (simulated_times.empty()) throw std::runtime_error("the simulation completed no event to compare");
    rows = compare_times("event_time", "event time", measured_times, simulated_times, tolerances,
                         std::pow(10.0, -decimals));
    rows.push_back(compare_value("events_per_s", "events per second", events_per_s(logs.events),
                                 events_per_s(simulated), tolerances));
  }
  if (!logs.jobs.empty()) {
    std::map<std::string, std::pair<double, double>> spans;  // job -> first start, last end
    for (const auto& e : simulated) {
      auto [it, fresh] = spans.try_emplace(e.job, e.start_s, e.end_s);
      if (!fresh) it->second = {std::min(it->second.first, e.start_s), std::max(it->second.second, e.end_s)};
    }
    std::vector<double> measured_times, simulated_times;
    for (const auto& j : logs.jobs) measured_times.push_back(j.wall_s);
    for (const auto& [job, span] : spans) simulated_times.push_back(span.second - span.first);
    const auto job_rows = compare_times("job_time", "job wall time", measured_times, simulated_times, tolerances);
    rows.insert(rows.end(), job_rows.begin(), job_rows.end());
  }
  if (!logs.job_throughputs.empty()) {
    if (sim.job_throughputs.empty())
      throw po::error(
          "the simulation has no job that ended having completed its events, so no per-job throughput "
          "to compare with the log (a duration-limited run leaves its jobs running: give them events)");
    const auto rate_rows = compare_job_throughputs(logs.job_throughputs, sim.job_throughputs, tolerances);
    rows.insert(rows.end(), rate_rows.begin(), rate_rows.end());
  }
  if (!logs.scrapes.empty()) {
    TritonScrape start, end;
    end.time_s = sim.end_s;
    end.success = sim.successes, end.inferences = sim.inferences, end.executions = sim.executions;
    end.queue_us = sim.queue_ns / 1000;
    start.gpu_utilization = end.gpu_utilization = sim.gpu_utilization;
    const auto triton_rows = compare_triton(triton_window(logs.scrapes), triton_window({start, end}), tolerances);
    rows.insert(rows.end(), triton_rows.begin(), triton_rows.end());
  }
  if (!logs.columns.empty()) {
    const auto series_rows = compare_prometheus(logs, sim, times, tolerances);
    rows.insert(rows.end(), series_rows.begin(), series_rows.end());
  }
  return rows;
}

}  // namespace sonicsim::cli
