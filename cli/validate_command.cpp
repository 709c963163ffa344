#include "cli/validate_command.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>

#include "analysis/validation/metric_ids.hpp"
#include "cli/command_line.hpp"
#include "cli/overrides.hpp"
#include "cli/sweep/sweep_grid.hpp"
#include "cli/validate/recorded_run.hpp"
#include "cli/validate/side_comparison.hpp"
#include "models/io/json/json_reader.hpp"
#include "models/io/limits.hpp"
#include "models/io/text_format.hpp"
#include "models/scenario/reader/scenario_reader.hpp"

namespace sonicsim::cli {
namespace po = boost::program_options;
using nlohmann::json;
using namespace sonicsim::validation;

namespace {

// The logs against the scenario simulated now, or against the run in `run_dir` where one is given.
std::vector<ValidationRow> simulate_and_compare(const std::string& path, const Overrides& overrides, const Logs& logs,
                                                const TimeOptions& times, const Tolerances& tolerances,
                                                const std::string& run_dir) {
  if (logs.perf()) {
    if (logs.grid_jobs())
      throw po::error("perf_analyzer logs and grid-job logs need different scenarios: validate them separately");
    if (!run_dir.empty())
      throw po::error(
          "--run reads a grid-job run's outputs; perf_analyzer logs are compared with levels simulated now");
    return compare_with_perf_levels(logs, simulate_perf_levels(path, overrides), tolerances);
  }
  if (run_dir.empty()) return compare_with_run(logs, simulate_side(path, overrides), times, tolerances);
  const Scenario scenario = load_scenario(path, overrides);
  if (scenario.perf_analyzer)
    throw po::error("validate compares grid-job workloads with site logs; this is a perf_analyzer load");
  const RunNeeds needs{!logs.events.empty() || !logs.jobs.empty(), !logs.job_throughputs.empty(),
                       !logs.columns.empty()};
  return compare_with_run(logs, read_recorded_run(run_dir, scenario, needs), times, tolerances);
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
  po::options_description options(
      "sonicsim validate SCENARIO.json LOG... [options]\n"
      "  LOG: per-event CSV, condor_history -json output, a Triton /metrics scrape "
      "(FILE@SECONDS when its samples carry no timestamp),\n"
      "  a per-job throughput log (one events/s value per line),\n"
      "  a Prometheus range-query export (/api/v1/query_range JSON; COLUMN=FILE names the "
      "timeseries.csv column it measures);\n"
      "  or, for a perf_analyzer scenario, perf_analyzer's CSV (-f) or JSON profile export");
  std::vector<std::string> sets, tolerance_flags, fits;
  std::string tolerance_file, fit_metric, run_dir;
  std::vector<double> load_steps_s;
  double prometheus_start = 0;
  options.add_options()("help,h", "show this help")(
      "run", po::value(&run_dir),
      "DIR: compare the outputs the run wrote there (sonicsim run SCENARIO.json --output "
      "DIR) instead of simulating; its summary.json must name the scenario, seed and "
      "latency quantile (give the run's --set values too: the rest is not checked)")(
      "tolerances", po::value(&tolerance_file),
      "JSON file: {\"relative\": 0.1, \"ks\": 0.2, \"metrics\": {ID: FRACTION}}")(
      "tolerance", po::value(&tolerance_flags)->composing(), "METRIC=FRACTION for one metric (repeatable)")(
      "set", po::value(&sets)->composing(), "override a scenario value: /JSON/POINTER=VALUE (repeatable)")(
      "prometheus-start", po::value(&prometheus_start),
      "Unix time (s) of the run's t = 0 in the Prometheus exports "
      "(default: their first sample)")("load-step", po::value(&load_steps_s)->composing(),
                                       "simulated time (s) of a load step, for the lag to the "
                                       "first new ready replica (repeatable; default: where the jobs "
                                       "running rise by a quarter of their most)")(
      "fit", po::value(&fits)->composing(),
      "/JSON/POINTER=VALUES: try each value and keep the one closest to the logs (one axis, as in sweep)")(
      "fit-metric", po::value(&fit_metric),
      "metric id minimised by --fit (default: the first time distribution's "
      "Wasserstein-1 distance)");
  std::vector<std::string> positional;
  const auto parsed = parse_command_line(args, options, "input", po::value(&positional)->composing(), -1);
  if (!parsed) return 0;
  if (positional.size() < 2)
    throw po::error("expected a scenario and at least one log (sonicsim validate SCENARIO.json LOG...)");
  if (fits.size() > 1) throw po::error("--fit takes one axis at a time");
  if (!fits.empty() && parsed->count("run"))
    throw po::error("--fit simulates each value it tries; it does not go with --run");
  if (parsed->count("run") && run_dir.empty()) throw po::error("--run expects the directory of a run (--run DIR)");
  const std::string scenario_path = positional.front();
  const Tolerances tolerances = read_tolerances(tolerance_file, tolerance_flags);
  TimeOptions times;
  if (parsed->count("prometheus-start")) {
    if (!(prometheus_start >= 0 && prometheus_start <= 1e11))
      throw po::error(
          printf_string("--prometheus-start: expected a Unix time in seconds (0 to 1e11), got %g", prometheus_start));
    times.start_unix_s = prometheus_start;
  }
  for (double step : load_steps_s)
    if (!(step >= 0 && step <= limits::kMaxDurationS))
      throw po::error("--load-step: expected a time in seconds of at least 0");
  times.load_steps_s = load_steps_s;
  Logs logs;
  for (std::size_t i = 1; i < positional.size(); ++i) read_log(positional[i], logs);
  Overrides overrides = parse_overrides(sets);

  if (!fits.empty()) {
    const SweepAxis axis = parse_sweep_axis(fits.front());
    std::string metric = fit_metric;
    if (metric.empty())
      metric = !logs.events.empty()            ? "event_time_wasserstein"
               : !logs.jobs.empty()            ? "job_time_wasserstein"
               : !logs.job_throughputs.empty() ? "job_throughput_wasserstein"
               : !logs.profile.empty()     ? "perf_" + load_label(logs.profile.front().value) + "_latency_wasserstein"
               : !logs.perf_tables.empty() ? "perf_" + load_label(logs.perf_tables.front().rows.front().load) + "_p50"
                                           : "requests_per_s";
    std::printf("fitting %s to the logs by %s\n%16s  %12s\n", axis.pointer.c_str(), metric.c_str(), "value", "error");
    double best_error = INFINITY;
    std::string best;
    for (const std::string& value : axis.values) {
      Overrides o = overrides;
      o.emplace_back(axis.pointer, value);
      const auto rows = simulate_and_compare(scenario_path, o, logs, times, tolerances, "");
      const ValidationRow* row = find_row(rows, metric);
      if (!row) throw po::error("--fit-metric \"" + metric + "\" is not among the metrics these logs give");
      if (!row->applicable) throw po::error("--fit-metric \"" + metric + "\" is not applicable: " + row->note);
      std::printf("%16s  %11.4f%%\n", value.c_str(), 100 * std::abs(row->error));
      if (std::abs(row->error) < best_error) best_error = std::abs(row->error), best = value;
    }
    std::printf("best: %s = %s (%s error %.4f%%)\n\n", axis.pointer.c_str(), best.c_str(), metric.c_str(),
                100 * best_error);
    overrides.emplace_back(axis.pointer, best);
  }

  const auto rows = simulate_and_compare(scenario_path, overrides, logs, times, tolerances, run_dir);
  std::cout << "validation of " << scenario_path << " against " << positional.size() - 1
            << (positional.size() == 2 ? " log\n" : " logs\n");
  if (!run_dir.empty())
    std::cout << "simulated side: the run in " << run_dir << ", not simulated again (its scenario name, seed and "
              << "latency quantile checked)\n";
  std::cout << format_rows(rows) << verdict_line(rows);
  for (const auto& r : rows)
    if (!r.pass) return 1;
  return 0;
}

}  // namespace sonicsim::cli
