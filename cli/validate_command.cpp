#include "cli/validate_command.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>

#include "analysis/calibration/perf_analyzer_csv.hpp"
#include "analysis/outputs/perf_report.hpp"
#include "analysis/summary/summary.hpp"
#include "analysis/validation/comparison.hpp"
#include "analysis/validation/job_throughput.hpp"
#include "analysis/validation/metric_ids.hpp"
#include "analysis/validation/perf_profile.hpp"
#include "analysis/validation/prometheus_export.hpp"
#include "analysis/validation/timeseries_comparison.hpp"
#include "cli/command_line.hpp"
#include "cli/overrides.hpp"
#include "cli/processes/isolated_run.hpp"
#include "cli/simulation_progress.hpp"
#include "cli/sweep/sweep_grid.hpp"
#include "models/io/input_file.hpp"
#include "models/io/json/json_reader.hpp"
#include "models/io/limits.hpp"
#include "models/io/text_format.hpp"
#include "models/scenario/reader/scenario_reader.hpp"
#include "sim/perf_simulation.hpp"
#include "sim/simulation.hpp"

namespace sonicsim::cli {
namespace po = boost::program_options;
using nlohmann::json;
using namespace sonicsim::validation;

namespace {

using Overrides = std::vector<std::pair<std::string, std::string>>;

std::string load_label(double load) {
  return printf_string("%g", load);
}

struct Logs {
  std::vector<LoggedEvent> events;
  std::vector<LoggedJob> jobs;
  std::vector<TritonScrape> scrapes;
  std::vector<double> job_throughputs;  // events/s, one per job
  std::vector<calibration::PerfAnalyzerTable> perf_tables;  // perf_analyzer -f CSVs
  std::vector<ProfileExperiment> profile;                   // perf_analyzer --profile-export-file
  std::vector<MeasuredColumn> columns;                      // Prometheus range-query exports
  bool perf() const { return !perf_tables.empty() || !profile.empty(); }
};

// The logs validate reads, as the messages name them.
constexpr const char* kLogFormats =
    "an event CSV (job,event,start_s,end_s or start,end; a run's events.csv is one), condor_history -json, "
    "Triton /metrics scrapes, a per-job throughput log (one events/s value per line, one line per job), "
    "perf_analyzer's CSV (-f) or its profile export (--profile-export-file)";

// A JSON object that is not perf_analyzer's profile export (its key: "experiments") is no log.
void check_profile_export(const std::string& text, const std::string& path) {
  const json document = parse_json_text(text, path);
  if (document.is_object() && document.contains("experiments")) return;
  const bool summary = document.is_object() && document.contains("scenario") && document.contains("events");
  throw InputError(path, "",
                   std::string(summary ? "a sonicsim summary.json is not a log (give validate the run's events.csv)"
                                       : "not a log format sonicsim reads") +
                       "; validate reads " + kLogFormats);
}

// A range-query export: COLUMN=FILE names the timeseries.csv column it measures; a bare FILE is
// matched by its series' documented names.
void read_prometheus_export(const std::string& text, const std::string& path, const std::string& column, Logs& logs) {
  const PromExport file = parse_prometheus_export(text, path);
  std::string as = column;
  if (as.empty()) {
    for (const PromSeries& s : file.series) {
      const std::string c = column_of_metric_name(s.name);
      if (c.empty() || (!as.empty() && c != as))
        throw InputError(path, "", "cannot tell which series \"" + (s.name.empty() ? std::string("(an expression)") : s.name) +
                                       "\" measures: give it as COLUMN=" + path + " (columns: ready, metric, "
                                       "requests_per_s, queue_ms, gpu_utilization)");
      as = c;
    }
  }
  for (const MeasuredColumn& c : logs.columns)
    if (c.column == as) throw InputError(path, "", "\"" + as + "\" is already measured by " + c.path);
  logs.columns.push_back(measured_column(file, as));
}

// What a LOG argument is, from its content: condor_history JSON, Prometheus text, a profile
// export, a perf_analyzer CSV, a per-job throughput log (bare numbers), or an event CSV.
void read_log(const std::string& argument, Logs& logs) {
  const auto at = argument.rfind('@');
  std::string path = argument;
  std::optional<double> time_s;
  if (at != std::string::npos && at > 0) {
    const std::string seconds = argument.substr(at + 1);
    double value = 0;
    const auto [stop, error] = std::from_chars(seconds.data(), seconds.data() + seconds.size(), value);
    if (!seconds.empty() && error == std::errc() && stop == seconds.data() + seconds.size()) {
      if (!std::isfinite(value) || value < 0)
        throw po::error("\"" + argument + "\": expected FILE@SECONDS with SECONDS a finite time of at least 0");
      time_s = value;
      path = argument.substr(0, at);
    }
  }
  std::string column;
  if (const auto eq = path.find('='); eq != std::string::npos)
    for (const std::string& c : prometheus_columns())
      if (path.substr(0, eq) == c) column = c, path = path.substr(eq + 1);
  const std::string text = read_input_file(path, kMaxLogFileBytes);
  if (!column.empty() || is_prometheus_export(text)) return read_prometheus_export(text, path, column, logs);
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw InputError(path, "", std::string("an empty log; validate reads ") + kLogFormats);
  if (text[first] == '[') {
    const auto jobs = parse_condor_history(text, path);
    logs.jobs.insert(logs.jobs.end(), jobs.begin(), jobs.end());
  } else if (text.find("nv_inference_") != std::string::npos) {
    logs.scrapes.push_back(parse_prometheus_scrape(text, path, time_s));
  } else if (text[first] == '{') {
    check_profile_export(text, path);
    const auto experiments = parse_perf_profile(text, path);
    logs.profile.insert(logs.profile.end(), experiments.begin(), experiments.end());
  } else if (text.rfind("Concurrency,", 0) == 0 || text.rfind("Request Rate,", 0) == 0) {
    logs.perf_tables.push_back(calibration::parse_perf_analyzer_csv(text, path));
  } else if (is_job_throughput_log(text)) {
    const auto rates = parse_job_throughput_log(text, path);
    logs.job_throughputs.insert(logs.job_throughputs.end(), rates.begin(), rates.end());
  } else {
    const auto events = parse_event_log(text, path);
    logs.events.insert(logs.events.end(), events.begin(), events.end());
  }
}

// What the simulation gives for comparison: every event (job, start, end), every job's events per
// second (from its job record) and the summary.
json simulate_for_validation(const std::string& path, const Overrides& overrides) {
  Overrides o = overrides;
  o.emplace_back("/simulation/outputs", "[]");
  const Scenario scenario = load_scenario(path, o);
  if (scenario.perf_analyzer) throw po::error("validate compares grid-job workloads with site logs; this is a perf_analyzer load");
  return json::parse(run_isolated([&] {
    SimulationProgressLine progress(stderr_is_terminal());
    const SimulationResults results = simulate(scenario, progress.observer());
    progress.clear();
    json events = json::array();
    for (const EventRecord& e : results.events)
      if (e.start_s >= results.warmup_s) events.push_back({e.job, e.start_s, e.end_s});
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
    for (const TimeseriesRow& r : results.timeseries)
      timeseries.push_back({r.t_s, r.ready, r.metric ? json(*r.metric) : json(), r.requests_per_s ? json(*r.requests_per_s) : json(),
                            r.queue_ms ? json(*r.queue_ms) : json(), r.gpu_utilization ? json(*r.gpu_utilization) : json(),
                            r.jobs_running});
    return json{{"events", events},
                {"timeseries", timeseries},
                {"job_throughputs", job_throughputs(results.jobs)},
                {"end_s", results.end_s},
                {"triton", {success, inferences, executions, queue_ns}},
                {"gpu_utilization", summary.gpu_utilization}}
        .dump();
  }));
}

// A perf_analyzer scenario: each load level simulated in its own process; its perf_analyzer row
// and the latencies (s) of the requests answered inside the windows.
json simulate_perf_for_validation(const std::string& path, const Overrides& overrides) {
  const Scenario scenario = load_scenario(path, overrides);
  if (!scenario.perf_analyzer) throw po::error("perf_analyzer logs need a scenario with a \"perf_analyzer\" load");
  json levels = json::array();
  for (std::size_t level = 0; level < scenario.perf_analyzer->levels.size(); ++level)
    levels.push_back(json::parse(run_isolated([&] {
      const PerfMeasurement m = simulate_perf_level(scenario, level);
      std::vector<double> latencies;
      for (std::int64_t ns : m.latencies_ns) latencies.push_back(static_cast<double>(ns) * 1e-9);
      return json{{"level", m.level}, {"row", perf_row(m)}, {"latencies_s", latencies}}.dump();
    })));
  return levels;
}

std::vector<ValidationRow> compare_perf(const Logs& logs, const json& levels, const Tolerances& tolerances) {
  const auto simulated_level = [&](double load) -> const json& {
    for (const auto& l : levels)
      if (std::abs(l["level"].get<double>() - load) <= 1e-9 * load) return l;
    throw po::error("the logs measured load " + load_label(load) + ", which the scenario's perf_analyzer levels do not have");
  };
  std::vector<ValidationRow> rows;
  for (const auto& table : logs.perf_tables)
    for (const auto& measured : table.rows) {
      const json& sim = simulated_level(measured.load);
      const PerfRow row = sim["row"].get<PerfRow>();
      const std::string id = "perf_" + load_label(measured.load), at = " at " + table.load_column + " " + load_label(measured.load);
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
    const auto latency_rows = compare_times("perf_" + load_label(experiment.value) + "_latency",
                                            "latency at " + experiment.mode + " " + load_label(experiment.value),
                                            experiment.latencies_s, sim["latencies_s"].get<std::vector<double>>(),
                                            tolerances);
    rows.insert(rows.end(), latency_rows.begin(), latency_rows.end());
  }
  return rows;
}

struct TimeOptions {
  std::optional<double> start_unix_s;  // --prometheus-start
  std::vector<double> load_steps_s;    // --load-step
};

std::vector<TimeseriesRow> simulated_timeseries(const json& rows) {
  std::vector<TimeseriesRow> out;
  const auto optional = [](const json& v) { return v.is_null() ? std::nullopt : std::optional<double>(v.get<double>()); };
  for (const auto& r : rows) {
    TimeseriesRow row;
    row.t_s = r[0], row.ready = r[1], row.metric = optional(r[2]), row.requests_per_s = optional(r[3]);
    row.queue_ms = optional(r[4]), row.gpu_utilization = optional(r[5]), row.jobs_running = r[6];
    out.push_back(row);
  }
  if (out.empty())
    throw po::error("Prometheus exports need a scenario that Prometheus scrapes (a saturation gate or an autoscaler)");
  return out;
}

std::vector<ValidationRow> compare_prometheus(const Logs& logs, const json& sim, const TimeOptions& times,
                                              const Tolerances& tolerances) {
  const std::vector<TimeseriesRow> simulated = simulated_timeseries(sim["timeseries"]);
  double start = INFINITY;
  for (const MeasuredColumn& c : logs.columns)
    if (!c.t_s.empty()) start = std::min(start, c.t_s.front());
  return compare_timeseries(logs.columns, simulated, times.start_unix_s.value_or(start),
                            times.load_steps_s.empty() ? load_steps(simulated) : times.load_steps_s, tolerances);
}

std::vector<ValidationRow> compare(const Logs& logs, const json& sim, const TimeOptions& times, const Tolerances& tolerances) {
  std::vector<ValidationRow> rows;
  std::vector<LoggedEvent> simulated;
  for (const auto& e : sim["events"]) simulated.push_back({std::to_string(e[0].get<int>()), 0, e[1], e[2], "", 0});
  if (!logs.events.empty()) {
    // Compared at the logs' resolution: events.csv writes microseconds, and events that take the
    // same time in the simulation must take the same time in its log too.
    int decimals = 0;
    for (const auto& e : logs.events) decimals = std::max(decimals, e.decimals);
    for (auto& e : simulated) e.start_s = at_resolution(e.start_s, decimals), e.end_s = at_resolution(e.end_s, decimals);
    std::vector<double> measured_times, simulated_times;
    for (const auto& e : logs.events) measured_times.push_back(e.time_s());
    for (const auto& e : simulated) simulated_times.push_back(e.time_s());
    if (simulated_times.empty()) throw std::runtime_error("the simulation completed no event to compare");
    rows = compare_times("event_time", "event time", measured_times, simulated_times, tolerances, std::pow(10.0, -decimals));
    rows.push_back(compare_value("events_per_s", "events per second", events_per_s(logs.events), events_per_s(simulated),
                                 tolerances));
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
    const auto simulated_rates = sim["job_throughputs"].get<std::vector<double>>();
    if (simulated_rates.empty())
      throw po::error("the simulation has no job that ended having completed its events, so no per-job throughput "
                      "to compare with the log (a duration-limited run leaves its jobs running: give them events)");
    const auto rate_rows = compare_job_throughputs(logs.job_throughputs, simulated_rates, tolerances);
    rows.insert(rows.end(), rate_rows.begin(), rate_rows.end());
  }
  if (!logs.scrapes.empty()) {
    const auto& t = sim["triton"];
    TritonScrape start, end;
    end.time_s = sim["end_s"].get<double>();
    end.success = t[0], end.inferences = t[1], end.executions = t[2], end.queue_us = t[3].get<double>() / 1000;
    start.gpu_utilization = end.gpu_utilization = sim["gpu_utilization"].get<double>();
    const auto triton_rows = compare_triton(triton_window(logs.scrapes), triton_window({start, end}), tolerances);
    rows.insert(rows.end(), triton_rows.begin(), triton_rows.end());
  }
  if (!logs.columns.empty()) {
    const auto series_rows = compare_prometheus(logs, sim, times, tolerances);
    rows.insert(rows.end(), series_rows.begin(), series_rows.end());
  }
  return rows;
}

std::vector<ValidationRow> simulate_and_compare(const std::string& path, const Overrides& overrides, const Logs& logs,
                                                const TimeOptions& times, const Tolerances& tolerances) {
  if (logs.perf()) {
    if (!logs.events.empty() || !logs.jobs.empty() || !logs.scrapes.empty() || !logs.job_throughputs.empty() ||
        !logs.columns.empty())
      throw po::error("perf_analyzer logs and grid-job logs need different scenarios: validate them separately");
    return compare_perf(logs, simulate_perf_for_validation(path, overrides), tolerances);
  }
  return compare(logs, simulate_for_validation(path, overrides), times, tolerances);
}

Tolerances read_tolerances(const std::string& path, const std::vector<std::string>& flags) {
  Tolerances t;
  if (!path.empty()) {
    const json document = read_json_file(path);
    const JsonNode root(document, "", path);
    root.allow_only({"relative", "ks", "metrics"});
    if (auto r = root.find("relative")) t.relative = r->number_at_least(0);
    if (auto k = root.find("ks")) t.ks = k->number_at_least(0);
    if (auto m = root.find("metrics"))
      for (const std::string& id : m->keys()) {
        if (!is_known_metric(id)) m->at(id).fail("unknown metric; known: " + known_metric_list());
        t.by_metric[id] = m->at(id).number_at_least(0);
      }
  }
  for (const std::string& flag : flags) {
    const auto eq = flag.find('=');
    if (eq == std::string::npos || eq == 0)
      throw po::error("--tolerance expects METRIC=FRACTION (e.g. event_time_p99=0.2 or event_time_p99=20%), got \"" +
                      flag + "\"");
    if (!is_known_metric(flag.substr(0, eq)))
      throw po::error("--tolerance: unknown metric \"" + flag.substr(0, eq) + "\"; known: " + known_metric_list());
    t.by_metric[flag.substr(0, eq)] = fraction_option(flag.substr(eq + 1), "--tolerance " + flag.substr(0, eq));
  }
  return t;
}

const ValidationRow* find_row(const std::vector<ValidationRow>& rows, const std::string& id) {
  for (const auto& r : rows)
    if (r.id == id) return &r;
  return nullptr;
}

}  // namespace

int validate_command(const std::vector<std::string>& args) {
  po::options_description options("sonicsim validate SCENARIO.json LOG... [options]\n"
                                  "  LOG: per-event CSV, condor_history -json output, a Triton /metrics scrape "
                                  "(FILE@SECONDS when its samples carry no timestamp),\n"
                                  "  a per-job throughput log (one events/s value per line),\n"
                                  "  a Prometheus range-query export (/api/v1/query_range JSON; COLUMN=FILE names the "
                                  "timeseries.csv column it measures);\n"
                                  "  or, for a perf_analyzer scenario, perf_analyzer's CSV (-f) or JSON profile export");
  std::vector<std::string> sets, tolerance_flags, fits;
  std::string tolerance_file, fit_metric;
  std::vector<double> load_steps_s;
  double prometheus_start = -1;
  options.add_options()
      ("help,h", "show this help")
      ("tolerances", po::value(&tolerance_file), "JSON file: {\"relative\": 0.1, \"ks\": 0.2, \"metrics\": {ID: FRACTION}}")
      ("tolerance", po::value(&tolerance_flags)->composing(), "METRIC=FRACTION for one metric (repeatable)")
      ("set", po::value(&sets)->composing(), "override a scenario value: /JSON/POINTER=VALUE (repeatable)")
      ("prometheus-start", po::value(&prometheus_start), "Unix time (s) of the run's t = 0 in the Prometheus exports "
                                                         "(default: their first sample)")
      ("load-step", po::value(&load_steps_s)->composing(), "simulated time (s) of a load step, for the lag to the "
                                                           "first new ready replica (repeatable; default: where the jobs "
                                                           "running rise by a quarter of their most)")
      ("fit", po::value(&fits)->composing(),
       "/JSON/POINTER=VALUES: try each value and keep the one closest to the logs (one axis, as in sweep)")
      ("fit-metric", po::value(&fit_metric), "metric id minimised by --fit (default: the first time distribution's "
                                             "Wasserstein-1 distance)");
  std::vector<std::string> positional;
  const auto parsed = parse_command_line(args, options, "input", po::value(&positional)->composing(), -1);
  if (!parsed) return 0;
  if (positional.size() < 2) throw po::error("expected a scenario and at least one log (sonicsim validate SCENARIO.json LOG...)");
  if (fits.size() > 1) throw po::error("--fit takes one axis at a time");
  const std::string scenario_path = positional.front();
  const Tolerances tolerances = read_tolerances(tolerance_file, tolerance_flags);
  TimeOptions times;
  if (prometheus_start != -1) {
    if (!(prometheus_start >= 0 && prometheus_start <= 1e11))
      throw po::error("--prometheus-start: expected a Unix time in seconds (0 to 1e11)");
    times.start_unix_s = prometheus_start;
  }
  for (double step : load_steps_s)
    if (!(step >= 0 && step <= limits::kMaxDurationS)) throw po::error("--load-step: expected a time in seconds of at least 0");
  times.load_steps_s = load_steps_s;
  Logs logs;
  for (std::size_t i = 1; i < positional.size(); ++i) read_log(positional[i], logs);
  Overrides overrides = parse_overrides(sets);

  if (!fits.empty()) {
    const SweepAxis axis = parse_sweep_axis(fits.front());
    std::string metric = fit_metric;
    if (metric.empty())
      metric = !logs.events.empty() ? "event_time_wasserstein"
               : !logs.jobs.empty() ? "job_time_wasserstein"
               : !logs.job_throughputs.empty() ? "job_throughput_wasserstein"
               : !logs.profile.empty() ? "perf_" + load_label(logs.profile.front().value) + "_latency_wasserstein"
               : !logs.perf_tables.empty() ? "perf_" + load_label(logs.perf_tables.front().rows.front().load) + "_p50"
                                           : "requests_per_s";
    std::printf("fitting %s to the logs by %s\n%16s  %12s\n", axis.pointer.c_str(), metric.c_str(), "value", "error");
    double best_error = INFINITY;
    std::string best;
    for (const std::string& value : axis.values) {
      Overrides o = overrides;
      o.emplace_back(axis.pointer, value);
      const auto rows = simulate_and_compare(scenario_path, o, logs, times, tolerances);
      const ValidationRow* row = find_row(rows, metric);
      if (!row) throw po::error("--fit-metric \"" + metric + "\" is not among the metrics these logs give");
      if (!row->applicable) throw po::error("--fit-metric \"" + metric + "\" is not applicable: " + row->note);
      std::printf("%16s  %11.4f%%\n", value.c_str(), 100 * std::abs(row->error));
      if (std::abs(row->error) < best_error) best_error = std::abs(row->error), best = value;
    }
    std::printf("best: %s = %s (%s error %.4f%%)\n\n", axis.pointer.c_str(), best.c_str(), metric.c_str(), 100 * best_error);
    overrides.emplace_back(axis.pointer, best);
  }

  const auto rows = simulate_and_compare(scenario_path, overrides, logs, times, tolerances);
  std::cout << "validation of " << scenario_path << " against " << positional.size() - 1
            << (positional.size() == 2 ? " log\n" : " logs\n") << format_rows(rows);
  std::cout << verdict_line(rows);
  for (const auto& r : rows)
    if (!r.pass) return 1;
  return 0;
}

}  // namespace sonicsim::cli
