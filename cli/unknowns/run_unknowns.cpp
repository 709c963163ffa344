#include "cli/unknowns/run_unknowns.hpp"

#include <iostream>
#include <optional>

#include <boost/program_options/errors.hpp>

#include "analysis/knee_search.hpp"
#include "analysis/outputs/output_file.hpp"
#include "analysis/outputs/perf_report.hpp"
#include "analysis/outputs/result_writers.hpp"
#include "analysis/run_soundness.hpp"
#include "analysis/stats/steady_estimates.hpp"
#include "analysis/summary/summary_json.hpp"
#include "analysis/summary/summary_text.hpp"
#include "cli/perf_run.hpp"
#include "cli/processes/isolated_run.hpp"
#include "cli/processes/simulated_summary.hpp"
#include "models/io/text_format.hpp"
#include "models/scenario/reader/scenario_reader.hpp"
#include "sim/perf_simulation.hpp"
#include "sim/simulation.hpp"

namespace sonicsim::cli {
namespace {

// What a grid-job run's band is taken of: the per-event time as plan reads it first (the rule's).
std::vector<std::pair<std::string, std::string>> grid_outputs(DeviceNaming naming) {
  return {{"mean per-event time", "s"},
          {"p90 per-event time", "s"},
          {"throughput", "events/s"},
          {std::string(device_words(naming).label) + " utilisation", "fraction"},
          {"busiest link utilisation", "fraction"}};
}

PointResult grid_point(const Summary& s) {
  return {{plan_event_time(s), s.event_time.p90, s.events_per_s, device_utilization(s),
           std::max(0.0, busiest_link(s).utilization)},
          unsound_reasons(s)};
}

Overrides joined(const Overrides& a, const Overrides& b) {
  Overrides o = a;
  o.insert(o.end(), b.begin(), b.end());
  return o;
}

// A perf_analyzer load: per level, its throughput and p50 and p99 latencies.
std::vector<std::pair<std::string, std::string>> perf_outputs(const Scenario& nominal) {
  const PerfAnalyzerLoad& load = *nominal.perf_analyzer;
  std::vector<std::pair<std::string, std::string>> outputs;
  for (const std::string what : {"inferences/s", "p50 latency", "p99 latency", "server queue"})
    for (double level : load.levels)
      outputs.emplace_back(std::string(what) + " at " + level_name(load.mode, level),
                           std::string(what) == "inferences/s" ? "inferences/s" : "us");
  return outputs;
}

std::vector<PointResult> perf_points(const std::string& path, const Overrides& overrides,
                                     const std::vector<Overrides>& variants, int parallel) {
  std::vector<Scenario> scenarios;
  for (const Overrides& v : variants) {
    Overrides o = overrides;
    o.insert(o.end(), v.begin(), v.end());
    scenarios.push_back(load_scenario(path, o));
  }
  const std::size_t levels = scenarios.front().perf_analyzer->levels.size();
  std::vector<std::function<std::string()>> bodies;
  for (const Scenario& s : scenarios)
    for (std::size_t level = 0; level < levels; ++level)
      bodies.emplace_back([&s, level] { return nlohmann::json(perf_row(simulate_perf_level(s, level))).dump(); });
  const std::vector<std::string> rows = run_isolated_all(bodies, parallel);
  std::vector<PointResult> results(scenarios.size());
  for (std::size_t p = 0; p < scenarios.size(); ++p) {
    std::vector<PerfRow> row;
    for (std::size_t level = 0; level < levels; ++level)
      row.push_back(nlohmann::json::parse(rows[p * levels + level]).get<PerfRow>());
    for (const auto& r : row) results[p].outputs.push_back(r.inferences_per_s);
    for (const auto& r : row) results[p].outputs.push_back(static_cast<double>(r.p50_us));
    for (const auto& r : row) results[p].outputs.push_back(static_cast<double>(r.p99_us));
    for (const auto& r : row) results[p].outputs.push_back(static_cast<double>(r.server_queue_us));
    for (const auto& r : row)
      if (r.requests == 0)
        results[p].unsound.push_back(
            no_response(*scenarios[p].perf_analyzer, level_name(scenarios[p].perf_analyzer->mode, r.level)));
  }
  return results;
}

}  // namespace

UnknownsSummary grid_design(const std::string& path, const Overrides& overrides,
                            const std::vector<DeclaredUnknown>& unknowns, const DesignOptions& design, int parallel,
                            bool quiet) {
  const DeviceNaming naming = load_scenario(path, joined(overrides, nominal_overrides(unknowns))).device_naming;
  return run_design(unknowns, design, grid_outputs(naming), [&](const std::vector<Overrides>& variants) {
    if (!quiet)
      std::cerr << printf_string("sonicsim: %zu runs over the declared unknowns, %d at once\n", variants.size(),
                                 parallel);
    std::vector<Overrides> full;
    for (const Overrides& v : variants) full.push_back(joined(overrides, v));
    std::vector<PointResult> results;
    for (const SimulatedRun& r : simulated_runs(path, full, parallel)) results.push_back(grid_point(r.summary));
    return results;
  });
}

int run_with_unknowns(const std::string& path, const Overrides& overrides, const std::vector<DeclaredUnknown>& unknowns,
                      const UnknownsRunOptions& options) {
  const Scenario nominal = load_scenario(path, joined(overrides, nominal_overrides(unknowns)));
  if (!options.quiet)
    for (const std::string& note : nominal.notes) std::cerr << "sonicsim: note: " << note << '\n';
  const bool perf = nominal.perf_analyzer.has_value();
  if (!perf && !options.perf_csv.empty())
    throw boost::program_options::error(
        "--perf-csv needs a scenario with a \"perf_analyzer\" load instead of a \"workload\"");
  // Opened before the design runs: an unwritable path fails at once, not after minutes of runs.
  std::optional<OutputFile> bands;
  if (!options.bands.empty()) bands.emplace(options.bands);

  const UnknownsSummary report =
      perf ? run_design(unknowns, options.design, perf_outputs(nominal),
                        [&](const std::vector<Overrides>& variants) {
                          if (!options.quiet)
                            std::cerr << printf_string("sonicsim: %zu runs over the declared unknowns, %d at once\n",
                                                       variants.size(), options.parallel);
                          return perf_points(path, overrides, variants, options.parallel);
                        })
           : grid_design(path, overrides, unknowns, options.design, options.parallel, options.quiet);
  if (bands) {
    bands->write(unknowns_to_json(report).dump(2) + "\n");
    bands->close();
  }

  if (!options.quiet) std::cout << "the nominal run (every range at its median, every choice at its first):\n";
  int code = 0;
  if (perf) {
    code = run_perf_levels(nominal, options.perf_csv, options.quiet, options.output);  // its requests and batches
  } else {
    const SimulationResults results = simulate(nominal);
    Summary summary = summarize(results);
    summary.declared_unknowns = report;
    if (!options.quiet)
      std::cout << format_summary(summary, min_batch_events(static_cast<std::size_t>(results.header.concurrent_jobs)));
    if (!options.output.empty()) write_results(options.output, results, summary, nominal.simulation.outputs);
  }
  if (!options.quiet) std::cout << '\n' << format_unknowns(report);
  if (!options.quiet && !options.output.empty() && !perf)
    std::cout << "\nresults written to " << options.output << "/\n";
  return code;
}

}  // namespace sonicsim::cli
