#include "cli/plan/plan_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <optional>
#include <thread>

#include "cli/command_line.hpp"
#include "cli/overrides.hpp"
#include "cli/plan/fewest_devices.hpp"
#include "cli/plan/job_cap.hpp"
#include "cli/plan/load_axis.hpp"
#include "cli/plan/plan_autoscaling.hpp"
#include "cli/plan/workload_as_given.hpp"
#include "cli/processes/isolated_run.hpp"
#include "cli/unknowns/design_runs.hpp"
#include "models/io/text_format.hpp"
#include "models/io/units.hpp"
#include "models/scenario/reader/scenario_reader.hpp"

namespace sonicsim::cli {
namespace po = boost::program_options;

namespace {

// "10,20,50": positive finite numbers.
std::vector<double> parse_positive_list(const std::string& text, const char* option) {
  std::vector<double> values;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    if (item.empty() || end != item.c_str() + item.size() || !(std::isfinite(v) && v > 0))
      throw po::error(std::string(option) + " expects positive numbers separated by commas, got \"" + text + "\"");
    values.push_back(v);
    if (values.size() > 100) throw po::error(std::string(option) + " takes at most 100 values");
    start = comma + 1;
  }
  return values;
}

// The group --devices sizes: the one named by --group, else the only one.
int devices_group(const Scenario& scenario, const std::string& name) {
  const auto& groups = scenario.platform.servers;
  if (groups.empty()) throw po::error("--devices sizes a server group, and the scenario has none");
  if (name.empty()) {
    if (groups.size() > 1)
      throw po::error("--devices: the scenario has several server groups; name one with --group NAME");
    return 0;
  }
  for (std::size_t g = 0; g < groups.size(); ++g)
    if (groups[g].name == name) return static_cast<int>(g);
  std::string names;
  for (const ServerGroup& g : groups) names += (names.empty() ? "\"" : ", \"") + g.name + "\"";
  throw po::error("--group: no server group \"" + name + "\" (the scenario's: " + names + ")");
}

// A whole number of at least 1 from an option, or 0 where it was not given.
int count_option(const po::variables_map& vm, const char* option) {
  if (!vm.count(option)) return 0;
  const int value = vm[option].as<int>();
  if (value < 1) throw po::error(std::string("--") + option + " expects a whole number of at least 1");
  return value;
}

// What the options ask a plan: its criteria, its search and their bounds.
struct PlanRequest {
  std::string path;
  double tolerance = 0.05, link_threshold = 0.9;
  int max_jobs = 0, max_value = 0, max_servers = 0;
  bool devices = false;
  std::string vary, group, target_text, thresholds_text, max_replicas_text;
};

// One plan: the search the options ask for, on the scenario with `overrides`; its answer, if asked.
int execute_plan(const PlanRequest& r, const Overrides& overrides, PlanAnswer* answer, bool quiet) {
  const Scenario scenario = load_scenario(r.path, overrides);
  if (scenario.perf_analyzer) throw po::error("plan needs a grid-job workload, not a perf_analyzer load");
  const bool autoscaling_grid = !r.target_text.empty() || !r.thresholds_text.empty() || !r.max_replicas_text.empty();
  if (const ServerGroup* g = scenario.autoscaled_group(); g && !r.devices) {
    if (r.target_text.empty())
      throw po::error(
          "an autoscaled scenario is planned against a target: --target-event-time DURATION (or sized with --devices)");
    AutoscalingGrid grid;
    try {
      grid.target_event_s = units::parse_duration_s(r.target_text);
    } catch (const std::exception& e) {
      throw po::error(std::string("--target-event-time: ") + e.what());
    }
    if (!(grid.target_event_s > 0)) throw po::error("--target-event-time expects a positive duration, e.g. 0.6s");
    grid.thresholds = r.thresholds_text.empty() ? std::vector<double>{g->autoscaling->hpa.target}
                                                : parse_positive_list(r.thresholds_text, "--thresholds");
    for (double m : r.max_replicas_text.empty() ? std::vector<double>{double(g->autoscaling->hpa.max_replicas)}
                                                : parse_positive_list(r.max_replicas_text, "--max-replicas")) {
      if (m != std::floor(m) || m > 10'000) throw po::error("--max-replicas expects whole numbers from 1 to 10000");
      grid.max_replicas.push_back(static_cast<int>(m));
    }
    PlanProbes probes(r.path, overrides, r.tolerance, quiet);
    const int code = plan_autoscaling(
        PlanContext{scenario, probes, r.tolerance, r.link_threshold, device_words(scenario.device_naming), 0, answer},
        grid);
    std::cout << printf_string("search: %d runs, %.0f s simulated\n", probes.runs(), probes.simulated_s());
    return code;
  }
  if (autoscaling_grid)
    throw po::error(
        "--target-event-time, --thresholds and --max-replicas plan an autoscaled scenario (a server group with "
        "\"autoscaling\")");

  PlanProbes probes(r.path, overrides, r.tolerance, quiet);
  PlanContext plan{scenario, probes, r.tolerance, r.link_threshold, device_words(scenario.device_naming), 0, answer};
  for (const ServerGroup& g : scenario.platform.servers) plan.devices += g.count * g.gpus_per_server;
  std::cout << "plan for " << scenario.name
            << printf_string(" (tolerance %g%%, link threshold %g%%)\n", 100 * r.tolerance, 100 * r.link_threshold);
  int code = 0;
  if (r.devices) {
    code = plan_fewest_devices(plan, devices_group(scenario, r.group), r.max_servers);
  } else if (!r.vary.empty()) {
    code = plan_job_cap(plan, load_axis(r.path, overrides, r.vary), r.max_value);
  } else if (scenario.workload.submit) {
    code = plan_workload_as_given(plan);
  } else {
    // A static farm holds at most one job per core, or per `threads` cores of a node.
    const int cores = static_cast<int>(std::min<std::int64_t>(scenario.job_slots(), 2'000'000'000));
    code = plan_job_cap(plan, LoadAxis{"/workload/jobs", false, scenario.workload.jobs},
                        r.max_jobs > 0 && r.max_jobs < cores ? r.max_jobs : cores);
  }
  std::cout << printf_string("search: %d runs, %.0f s simulated\n", probes.runs(), probes.simulated_s());
  return code;
}

// A plan over declared unknowns: the plan at every point of their design, each in a process of its
// own (`parallel` at once, its output unprinted), the band of its answer; then the nominal plan, as
// a plan without unknowns prints it, and the band.
int plan_over_unknowns(const PlanRequest& r, const Overrides& overrides, const std::vector<DeclaredUnknown>& unknowns,
                       const DesignOptions& design, int parallel) {
  int at_least = 0;
  UnknownsSummary report = run_design(unknowns, design, {{"answer", ""}}, [&](const std::vector<Overrides>& variants) {
    std::cerr << printf_string("sonicsim: %zu plans over the declared unknowns, %d at once\n", variants.size(),
                               parallel);
    std::vector<std::function<std::string()>> bodies;
    for (const Overrides& v : variants)
      bodies.emplace_back([&r, &overrides, v] {
        std::cout.rdbuf(nullptr);  // this plan's lines are not the user's to read
        Overrides o = overrides;
        o.insert(o.end(), v.begin(), v.end());
        PlanAnswer a;
        const int code = execute_plan(r, o, &a, true);
        return nlohmann::json{
            {"code", code}, {"value", a.value ? nlohmann::json(*a.value) : nlohmann::json()}, {"at_least", a.at_least}}
            .dump();
      });
    std::vector<PointResult> results;
    for (const std::string& text : run_isolated_all(bodies, parallel)) {
      const nlohmann::json j = nlohmann::json::parse(text);
      if (j["value"].is_null()) {
        results.push_back({{0}, {"the plan had no answer"}});
        continue;
      }
      at_least += j["at_least"].get<bool>() ? 1 : 0;
      results.push_back({{j["value"].get<double>()}, {}});
    }
    return results;
  });
  Overrides nominal = overrides;
  for (auto& o : nominal_overrides(unknowns)) nominal.push_back(std::move(o));
  std::cout << "the nominal plan (every range at its median, every choice at its first):\n";
  PlanAnswer answer;
  const int code = execute_plan(r, nominal, &answer, false);
  report.outputs.front().output = answer.what.empty() ? "answer" : answer.what;
  report.outputs.front().unit = answer.unit;
  const OutputBand& band = report.outputs.front();
  std::cout << '\n' << format_unknowns(report);
  std::cout << printf_string("over the declared unknowns: %s %.4g to %.4g %s (90%% band of %lld plans, median %.4g)",
                             band.output.c_str(), band.p5, band.p95, band.unit.c_str(),
                             static_cast<long long>(report.runs - report.unsound_runs), band.median);
  if (at_least > 0)
    std::cout << printf_string("; %d of them found no knee before their bound, counted at it", at_least);
  std::cout << '\n';
  return code;
}

}  // namespace

int plan_command(const std::vector<std::string>& args) {
  po::options_description options("sonicsim plan SCENARIO.json [options]");
  std::vector<std::string> sets;
  std::string tolerance_text = "5%", link_threshold_text = "90%", vary, group;
  std::string thresholds_text, max_replicas_text, target_text;
  options.add_options()("help,h", "show this help")(
      "tolerance", po::value(&tolerance_text),
      "largest rise of the mean per-event time over one job alone: 5% or 0.05 (default 5%)")(
      "link-threshold", po::value(&link_threshold_text),
      "largest utilisation of a shared link: 90% or 0.9 (default 90%)")(
      "max-jobs", po::value<int>(), "search up to this many jobs (default: every worker core)")(
      "vary", po::value(&vary),
      "search the load this JSON pointer sets instead of the jobs: a count "
      "(/workload/submit/jobs_per_wave) or a duration between submissions, searched per hour "
      "(/workload/submit/mean_interval)")(
      "max", po::value<int>(),
      "--vary: search up to this value (per hour for a duration; default: as far as the worker cores and the "
      "workload's jobs go)")(
      "devices",
      "the fewest servers that keep the workload as given within the tolerance; on an autoscaled group, "
      "the fewest max_replicas (its pool grows to match)")(
      "group", po::value(&group), "--devices: the server group to size (default: the only one)")(
      "max-servers", po::value<int>(), "--devices: try at most this many servers (default: twice the closed form's)")(
      "set", po::value(&sets)->composing(), "override a scenario value: /JSON/POINTER=VALUE (repeatable)")(
      "seed", po::value<std::string>(), "random seed of every run (overrides /simulation/seed)")(
      "target-event-time", po::value(&target_text), "autoscaled scenario: the mean per-event time to meet, e.g. 0.6s")(
      "thresholds", po::value(&thresholds_text),
      "autoscaled scenario: autoscaler thresholds to try, e.g. 10,20,50 (default: the scenario's)")(
      "max-replicas", po::value(&max_replicas_text),
      "autoscaled scenario: max_replicas to try, e.g. 2,4,8 (default: the scenario's)")(
      "samples", po::value<std::size_t>(),
      "declared unknowns: exactly this many plans over them (default: batches until "
      "the answer's band is steady)")("max-samples", po::value<std::size_t>(),
                                      "declared unknowns: at most this many plans for the rule (default 200)")(
      "design-seed", po::value<std::string>(),
      "declared unknowns: the seed of their design (default: the scenario's seed)")(
      "jobs,j", po::value<int>(), "declared unknowns: plans at once, one process each (default: the cores)");
  std::string path;
  const auto parsed = parse_command_line(args, options, "scenario", po::value(&path), 1);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (path.empty()) throw po::error("missing the scenario file (sonicsim plan SCENARIO.json)");
  const double tolerance = fraction_option(tolerance_text, "--tolerance");
  if (!(tolerance > 0)) throw po::error("--tolerance expects a positive fraction, e.g. 5% or 0.05");
  const double link_threshold =
      link_threshold_text == "1" ? 1.0 : fraction_option(link_threshold_text, "--link-threshold");
  if (!(link_threshold > 0 && link_threshold <= 1)) throw po::error("--link-threshold expects a fraction in (0, 100%]");
  const int max_jobs = count_option(vm, "max-jobs"), max_value = count_option(vm, "max"),
            max_servers = count_option(vm, "max-servers");
  const bool devices = vm.count("devices") > 0;
  if (!vary.empty() && max_jobs) throw po::error("--max-jobs bounds the job search; with --vary, bound it with --max");
  if (vary.empty() && max_value) throw po::error("--max goes with --vary (the job search takes --max-jobs)");
  if (devices && (!vary.empty() || max_jobs))
    throw po::error("--devices sizes the farm for the workload as given: not with --vary or --max-jobs");
  if (!devices && (!group.empty() || max_servers)) throw po::error("--group and --max-servers go with --devices");

  PlanRequest r{path,    tolerance, link_threshold, max_jobs,    max_value,       max_servers,
                devices, vary,      group,          target_text, thresholds_text, max_replicas_text};
  Overrides overrides = parse_overrides(sets);
  if (vm.count("seed"))
    overrides.emplace_back("/simulation/seed", std::to_string(seed_option(vm["seed"].as<std::string>(), "--seed")));
  if (const auto unknowns = scenario_unknowns(path, overrides); !unknowns.empty()) {
    Overrides nominal = overrides;
    for (auto& o : nominal_overrides(unknowns)) nominal.push_back(std::move(o));
    std::uint64_t design_seed = load_scenario(path, nominal).simulation.seed;
    if (vm.count("design-seed")) design_seed = seed_option(vm["design-seed"].as<std::string>(), "--design-seed");
    const auto count = [&](const char* o) {
      return vm.count(o) ? std::optional(vm[o].as<std::size_t>()) : std::nullopt;
    };
    const int parallel =
        vm.count("jobs") ? vm["jobs"].as<int>() : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (parallel < 1 || parallel > 1024) throw po::error("--jobs expects 1 to 1024 processes at once");
    return plan_over_unknowns(r, overrides, unknowns,
                              design_options(count("samples"), count("max-samples"), design_seed), parallel);
  }
  for (const char* option : {"samples", "max-samples", "design-seed", "jobs"})
    if (vm.count(option))
      throw po::error(std::string("--") + option +
                      " goes with declared unknowns, and the scenario declares none "
                      "(scenarios/README.md, \"Declared unknowns\")");
  return execute_plan(r, overrides, nullptr, false);
}

}  // namespace sonicsim::cli
