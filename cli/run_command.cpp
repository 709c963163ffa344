#include "cli/run_command.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <set>
#include <thread>

#include <boost/program_options.hpp>

#include "analysis/outputs/result_writers.hpp"
#include "analysis/run_soundness.hpp"
#include "analysis/stats/steady_estimates.hpp"
#include "analysis/summary/summary_text.hpp"
#include "cli/command_line.hpp"
#include "cli/overrides.hpp"
#include "cli/perf_run.hpp"
#include "cli/simulation_progress.hpp"
#include "cli/unknowns/run_unknowns.hpp"
#include "models/scenario/reader/scenario_reader.hpp"
#include "models/scenario/reader/warnings.hpp"
#include "sim/simulation.hpp"

namespace sonicsim::cli {
namespace po = boost::program_options;

int run_command(const std::vector<std::string>& args) {
  po::options_description options("sonicsim run SCENARIO.json [options]");
  std::string output, perf_csv_path;
  std::vector<std::string> sets;
  options.add_options()("help,h", "show this help")(
      "output,o", po::value(&output),
      "directory for summary.json, events.csv, requests.csv, batches.csv (a perf_analyzer load: requests.csv and "
      "batches.csv of every level)")("perf-csv", po::value(&perf_csv_path),
                                     "perf_analyzer loads: write perf_analyzer's CSV (-f) to this file")(
      "seed", po::value<std::string>(), "random seed (overrides /simulation/seed)")(
      "latency-quantile", po::value<double>(),
      "use this quantile (e.g. 0.025, 0.975) of each calibrated kernel latency's bootstrap band (overrides "
      "/simulation/latency_quantile)")("set", po::value(&sets)->composing(),
                                       "override a scenario value: /JSON/POINTER=VALUE (repeatable)")(
      "precision", po::value<std::string>(),
      "stop once the steady-state mean per-event time is known to this relative half-width of its 95% interval, "
      "e.g. 1% or 0.01 (sets /simulation/stop_at_precision)")(
      "max-time", po::value<std::string>(), "with --precision: stop at this simulated time at the latest, e.g. 2h")(
      "samples", po::value<std::size_t>(),
      "declared unknowns: exactly this many runs over them (default: batches until "
      "the band of the mean per-event time is steady)")(
      "max-samples", po::value<std::size_t>(), "declared unknowns: at most this many runs for the rule (default 200)")(
      "design-seed", po::value<std::string>(),
      "declared unknowns: the seed of their design (default: the scenario's "
      "seed; the runs keep the scenario's)")("jobs,j", po::value<int>(),
                                             "declared unknowns: runs at once, one process each (default: the cores)")(
      "bands", po::value<std::string>(), "declared unknowns: write each output's band and indices to this JSON file")(
      "quiet,q", "print nothing but errors");
  std::string scenario_path;
  const auto parsed = parse_command_line(args, options, "scenario", po::value(&scenario_path), 1);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (scenario_path.empty()) throw po::error("missing the scenario file (sonicsim run SCENARIO.json)");

  auto overrides = parse_overrides(sets);
  if (vm.count("seed"))
    overrides.emplace_back("/simulation/seed", std::to_string(seed_option(vm["seed"].as<std::string>(), "--seed")));
  if (vm.count("latency-quantile")) {
    const double q = vm["latency-quantile"].as<double>();
    if (!(q > 0 && q < 1)) throw po::error("--latency-quantile expects a quantile level strictly between 0 and 1");
    overrides.emplace_back("/simulation/latency_quantile", nlohmann::json(q).dump());
  }
  if (vm.count("max-time") && !vm.count("precision")) throw po::error("--max-time goes with --precision");
  if (vm.count("precision")) {
    nlohmann::json rule{{"relative_half_width", fraction_option(vm["precision"].as<std::string>(), "--precision")}};
    if (vm.count("max-time")) rule["max_time"] = vm["max-time"].as<std::string>();
    overrides.emplace_back("/simulation/stop_at_precision", rule.dump());
  }
  if (const auto unknowns = scenario_unknowns(scenario_path, overrides); !unknowns.empty()) {
    UnknownsRunOptions u;
    const auto count = [&](const char* o) {
      return vm.count(o) ? std::optional(vm[o].as<std::size_t>()) : std::nullopt;
    };
    Overrides nominal = overrides;
    for (auto& o : nominal_overrides(unknowns)) nominal.push_back(std::move(o));
    std::uint64_t seed = load_scenario(scenario_path, nominal).simulation.seed;
    if (vm.count("design-seed")) seed = seed_option(vm["design-seed"].as<std::string>(), "--design-seed");
    u.design = design_options(count("samples"), count("max-samples"), seed);
    u.parallel =
        vm.count("jobs") ? vm["jobs"].as<int>() : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (u.parallel < 1 || u.parallel > 1024) throw po::error("--jobs expects 1 to 1024 processes at once");
    u.output = output;
    u.perf_csv = perf_csv_path;
    u.bands = vm.count("bands") ? vm["bands"].as<std::string>() : "";
    u.quiet = vm.count("quiet") > 0;
    return run_with_unknowns(scenario_path, overrides, unknowns, u);
  }
  for (const char* option : {"samples", "max-samples", "design-seed", "jobs", "bands"})
    if (vm.count(option))
      throw po::error(std::string("--") + option +
                      " goes with declared unknowns, and the scenario declares none "
                      "(scenarios/README.md, \"Declared unknowns\")");
  const Scenario scenario = load_scenario(scenario_path, overrides);
  if (!vm.count("quiet"))  // what a SuperSONIC values file sets that the simulation leaves out
    for (const std::string& note : scenario.notes) std::cerr << "sonicsim: note: " << note << '\n';
  if (scenario.perf_analyzer) {
    return run_perf_levels(scenario, perf_csv_path, vm.count("quiet") > 0, output);
  }
  if (!perf_csv_path.empty())
    throw po::error("--perf-csv needs a scenario with a \"perf_analyzer\" load instead of a \"workload\"");
  std::set<int> retyped;  // server groups whose device type --set changed
  for (const auto& [pointer, value] : overrides)
    if (const int g = retyped_group(pointer); g >= 0) retyped.insert(g);
  for (const std::string& warning : scenario_warnings(scenario, retyped))
    std::cerr << "sonicsim: warning: " << warning << '\n';

  SimulationProgressLine progress(!vm.count("quiet") && stderr_is_terminal());
  const SimulationResults results = simulate(scenario, progress.observer());
  progress.clear();
  const Summary summary = summarize(results);
  if (!vm.count("quiet"))
    std::cout << format_summary(summary, min_batch_events(static_cast<std::size_t>(results.header.concurrent_jobs)));
  // A broken run still writes its results, but no one should plan from it unwarned.
  if (const auto unsound = unsound_reasons(summary); !unsound.empty() && !vm.count("quiet")) {
    std::cout.flush();
    std::cerr << "sonicsim: warning: this run is no answer to a planning question (plan would not use it): "
              << joined_reasons(unsound) << '\n';
  }
  if (!output.empty()) {
    write_results(output, results, summary, scenario.simulation.outputs);
    if (!vm.count("quiet")) std::cout << "\nresults written to " << output << "/\n";
  }
  return 0;
}

}  // namespace sonicsim::cli
